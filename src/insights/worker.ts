// Worker thread entry: keeps an InsightsEngine (and its cache of analyses) and builds insights on request.
import { parentPort } from 'node:worker_threads';
import { InsightsEngine, type InsightsInput } from './engine.js';

const engine = new InsightsEngine();

parentPort?.on('message', (message: { id: number; input: InsightsInput }) => {
  const started = performance.now();
  try {
    const { insights, analysed } = engine.build(message.input);
    parentPort!.postMessage({ id: message.id, ok: true, json: JSON.stringify(insights), analysed, ms: Math.round(performance.now() - started) });
  } catch (error) {
    parentPort!.postMessage({ id: message.id, ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
