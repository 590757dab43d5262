// Writes rendered documents and their compressed copies to the store from a thread of their own (representation-thread.ts),
// one thread per write: writes come once per data version and per coding, and a server at rest holds no thread.
import { Worker } from 'node:worker_threads';
import { compiledFolder } from '../fingerprint.js';
import type { RepresentationJob, RepresentationThreadData } from './representation-thread.js';
import type { RepresentationStore, StoredRepresentation } from './types.js';

export type RepresentationWrites = Pick<RepresentationStore, 'save' | 'saveCopy'>;

export class RepresentationWriter implements RepresentationWrites {
  constructor(private readonly databaseUrl: string) {}

  async save(
    asOf: string | null,
    renderKey: string,
    documents: ReadonlyMap<string, StoredRepresentation>,
    replace: ReadonlySet<string> = new Set(),
  ): Promise<boolean> {
    return (
      (await this.run({ kind: 'save', asOf, renderKey, documents: [...documents], replace: [...replace] })) === true
    );
  }

  async saveCopy(tag: string, coding: 'gzip' | 'br', bytes: Uint8Array): Promise<void> {
    await this.run({ kind: 'copy', tag, coding, bytes });
  }

  /**
   * The bytes are copied to the thread (some 10 ms for 44 MB); the write and its wait for locks happen there.
   * Resolves with what the thread posted, once it has exited.
   */
  private run(job: RepresentationJob): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const workerData: RepresentationThreadData = { databaseUrl: this.databaseUrl, job };
      const worker = new Worker(new URL('representation-thread.js', compiledFolder(import.meta.url, 'store')), {
        workerData,
      });
      let failure: Error | undefined;
      let answer: unknown;
      worker.once('message', (message: unknown) => (answer = message));
      worker.once('error', (error) => (failure = error));
      worker.once('exit', (code) =>
        failure || code !== 0
          ? reject(failure ?? new Error(`the renderings thread exited with code ${code}`))
          : resolve(answer),
      );
    });
  }
}
