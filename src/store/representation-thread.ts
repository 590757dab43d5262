// Worker thread entry: makes one write of rendered documents or of a compressed copy on a connection of its own,
// then exits. The server's thread never holds such a write (the dataset at 100k reviews is 44 MB: a quarter of a
// second of SQLite, or of encoding it for PostgreSQL).
import { parentPort, workerData } from 'node:worker_threads';
import { openStore } from './open.js';
import type { StoredRepresentation } from './types.js';

export type RepresentationJob =
  | {
      kind: 'save';
      asOf: string | null;
      renderKey: string;
      documents: [string, StoredRepresentation][];
      replace: string[];
    }
  | { kind: 'copy'; tag: string; coding: 'gzip' | 'br'; bytes: Uint8Array };

export interface RepresentationThreadData {
  databaseUrl: string;
  job: RepresentationJob;
}

const { databaseUrl, job } = workerData as RepresentationThreadData;
const store = await openStore(databaseUrl, { poolSize: 1 });
try {
  // What the write answered (save: whether it stored anything), as the store would have to its caller.
  if (job.kind === 'save')
    parentPort!.postMessage(
      await store.representations.save(job.asOf, job.renderKey, new Map(job.documents), new Set(job.replace)),
    );
  else await store.representations.saveCopy(job.tag, job.coding, job.bytes);
} finally {
  await store.close();
}
