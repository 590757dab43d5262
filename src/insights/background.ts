// Runs insights builds in a worker thread, so a build over 100,000 reviews never blocks serving.
import { Worker } from 'node:worker_threads';
import type { InsightsInput } from './engine.js';

export interface BuiltInsights {
  json: string;
  analysed: number;
  ms: number;
}

/** The compiled worker: under the test runner this module is TypeScript source, and the build lives in dist/. */
function workerUrl(): URL {
  const here = new URL(import.meta.url);
  return here.pathname.endsWith('.ts') ? new URL('../../dist/src/insights/worker.js', here) : new URL('./worker.js', here);
}

export class InsightsWorker {
  private worker: Worker | undefined;
  private nextId = 0;
  private stopped = false;
  private readonly pending = new Map<number, { resolve: (b: BuiltInsights) => void; reject: (e: Error) => void }>();

  build(input: InsightsInput): Promise<BuiltInsights> {
    if (this.stopped) return Promise.reject(new Error('the insights worker has stopped'));
    const worker = this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, input });
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(workerUrl());
    worker.unref();
    worker.on('message', (m: { id: number; ok: boolean; json?: string; analysed?: number; ms?: number; error?: string }) => {
      const waiting = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (!waiting) return;
      if (m.ok) waiting.resolve({ json: m.json!, analysed: m.analysed!, ms: m.ms! });
      else waiting.reject(new Error(m.error));
    });
    // An error, a crash or terminate(): every build still waiting fails (rather than hanging), and the next starts a new worker.
    const fail = (error: Error) => {
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
      if (this.worker === worker) this.worker = undefined;
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the insights worker exited (code ${code})`)));
    this.worker = worker;
    return worker;
  }
}
