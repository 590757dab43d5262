// Worker thread entry: owns a store connection and an InsightsBuilder, and runs the builds the server asks for.
import { parentPort, workerData } from 'node:worker_threads';
import { openStore } from '../store/open.js';
import { InsightsBuilder, type BuildRequest } from './builder.js';
import type { EngineVersions } from './version.js';

export interface ThreadData {
  databaseUrl: string;
  versions: EngineVersions;
}

const { databaseUrl, versions } = workerData as ThreadData;
const builder = openStore(databaseUrl).then((store) => new InsightsBuilder(store, versions));

// One build at a time, in arrival order: a build reuses the analyses of the one before.
let queue: Promise<unknown> = Promise.resolve();

parentPort?.on('message', (message: { id: number; request: BuildRequest }) => {
  queue = queue.then(async () => {
    try {
      const outcome = await (await builder).build(message.request);
      parentPort!.postMessage({ id: message.id, ok: true, outcome });
    } catch (error) {
      parentPort!.postMessage({ id: message.id, ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    }
  });
});
