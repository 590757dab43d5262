// The server's handle on the insights thread: builds run there, so analysing 100,000 reviews never blocks serving.
import { Worker } from 'node:worker_threads';
import type { StoredInsights } from '../store/types.js';
import type { BuildOutcome, BuildRequest, InsightsBuilds } from '../publishing/insights.js';
import { ReviewDeltas } from './deltas.js';
import type { ThreadData, ThreadRequest } from './build-thread.js';
import { compiledInsightsDir, engineVersions } from './version.js';

interface Pending {
  resolve: (outcome: BuildOutcome) => void;
  reject: (e: Error) => void;
  onReady: (document: StoredInsights, analysed: number) => void;
  ready?: StoredInsights;
}

/** What the thread sends: a built document once encoded, then the build's outcome (without that document again). */
type ThreadMessage =
  | { id: number; ready: StoredInsights; analysed: number }
  | {
      id: number;
      ok: true;
      outcome:
        | Exclude<BuildOutcome, { kind: 'built' }>
        | (Omit<Extract<BuildOutcome, { kind: 'built' }>, 'document'> & { document: null });
    }
  | { id: number; ok: false; error: string };

/** Reviews per message when a delta crosses to the thread in parts. */
const PART = 5000;

/** How long a stopping thread may take to finish a write and close its store. */
const STOP_GRACE_MS = 10_000;

/**
 * A thread idle this long after its last build is stopped, and the memory it holds goes with it (the engine, the
 * reviews and their analyses: some 600 MB after a first build of 100,000 reviews). The next build starts another,
 * which reads the stored analyses back: imports in a burst share one thread, and a server at rest holds none, from
 * well within 30 s of its first build.
 */
export const RETIRE_IDLE_MS = 15_000;

export class InsightsWorker implements InsightsBuilds {
  private worker: Worker | undefined;
  private nextId = 0;
  private stopped = false;
  /** What the thread holds, so each build sends only what changed. */
  private readonly deltas = new ReviewDeltas();
  private readonly pending = new Map<number, Pending>();
  private sending: Promise<void> = Promise.resolve();
  private idle: NodeJS.Timeout | undefined;

  constructor(
    private readonly databaseUrl: string,
    private readonly retireIdleMs = RETIRE_IDLE_MS,
  ) {}

  /** Whether a thread is running now (started by a build, stopped when idle). */
  get running(): boolean {
    return this.worker !== undefined;
  }

  /** The engine version documents are keyed by (read from the compiled engine, as the thread reads it). */
  get engineVersion(): string {
    return engineVersions().document;
  }

  /** `onReady` gets a built document as soon as it is encoded, before it is stored (see InsightsBuilder.build). */
  build(request: BuildRequest, onReady: Pending['onReady'] = () => undefined): Promise<BuildOutcome> {
    if (this.stopped) return Promise.reject(new Error('the insights worker has stopped'));
    clearTimeout(this.idle);
    const worker = this.start();
    const id = this.nextId++;
    const answered = new Promise<BuildOutcome>((resolve, reject) => this.pending.set(id, { resolve, reject, onReady }));
    // A large delta is computed and crosses in parts, turns of the event loop between them (copying 330,000 reviews
    // to the thread in one message would hold this thread for a second); requests are sent one after another.
    const turn = () => new Promise<void>((done) => setImmediate(done));
    this.sending = this.sending.then(async () => {
      const { upsert, ...delta } = await this.deltas.next(request.reviews, turn);
      const ahead = Math.max(0, Math.ceil(upsert.length / PART) - 1);
      for (let part = 0; part < ahead; part++) {
        worker.postMessage({ part: upsert.slice(part * PART, (part + 1) * PART) });
        await turn();
      }
      const message: ThreadRequest = {
        business: request.business,
        asOf: request.asOf,
        delta: { ...delta, upsert: upsert.slice(ahead * PART) },
      };
      worker.postMessage({ id, request: message });
    });
    return answered;
  }

  /** Asks the thread to stop (it closes its store); terminates it if it has not within STOP_GRACE_MS. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.idle);
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return;
    const exited = new Promise<void>((done) => worker.once('exit', () => done()));
    worker.postMessage('stop');
    const force = setTimeout(() => void worker.terminate(), STOP_GRACE_MS);
    await exited;
    clearTimeout(force);
  }

  private retireWhenIdle(): void {
    clearTimeout(this.idle);
    this.idle = setTimeout(() => this.retire(), this.retireIdleMs);
    this.idle.unref();
  }

  /** Stops an idle thread; its exit fails no build, and the next build starts a new one with everything sent again. */
  private retire(): void {
    const worker = this.worker;
    if (!worker || this.pending.size > 0) return;
    this.worker = undefined;
    this.deltas.forget();
    worker.removeAllListeners();
    worker.on('error', () => undefined);
    worker.postMessage('stop');
    setTimeout(() => void worker.terminate(), STOP_GRACE_MS).unref();
  }

  /** Started at the first build: a server whose stored insights are current never loads the engine. */
  private start(): Worker {
    if (this.worker) return this.worker;
    const workerData: ThreadData = { databaseUrl: this.databaseUrl, versions: engineVersions() };
    const worker = new Worker(new URL('build-thread.js', compiledInsightsDir()), { workerData });
    worker.unref();
    worker.on('message', (m: ThreadMessage) => {
      const waiting = this.pending.get(m.id);
      if (!waiting) return;
      if ('ready' in m) {
        waiting.ready = m.ready;
        waiting.onReady(m.ready, m.analysed);
        return;
      }
      this.pending.delete(m.id);
      if (this.pending.size === 0) this.retireWhenIdle();
      if (!m.ok) waiting.reject(new Error(m.error));
      // A built document crossed once, when ready: the outcome refers to it.
      else if (m.outcome.kind === 'built') waiting.resolve({ ...m.outcome, document: waiting.ready! });
      else waiting.resolve(m.outcome);
    });
    // An error, a crash or terminate(): every build still waiting fails (rather than hanging), and the next starts a new worker.
    const fail = (error: Error) => {
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
      if (this.worker === worker) this.worker = undefined;
      this.deltas.forget();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the insights worker exited (code ${code})`)));
    this.worker = worker;
    return worker;
  }
}
