// `reviews serve`: opens the store, serves it, and shuts down gracefully on SIGINT/SIGTERM.
import { existsSync } from 'node:fs';
import { buildApp, createLogger } from '../app.js';
import type { Config } from '../config.js';
import { isPostgresUrl, openStore, SERVING } from '../store/open.js';
import { loadDemo } from './demo.js';

export const DEMO_DATABASE_URL = 'sqlite:data/demo.db';

export async function serve(config: Config, options: { demo: boolean }): Promise<void> {
  const databaseUrl = options.demo ? DEMO_DATABASE_URL : config.databaseUrl;
  const isNewDemo = options.demo && !existsSync(databaseUrl.slice('sqlite:'.length));
  // Replicas on one PostgreSQL accept each other's MCP sessions only with one key: a key made up per process would
  // make every session fail on the other replicas.
  if (isPostgresUrl(databaseUrl) && !config.mcp.sharedSecret) {
    throw new Error(
      'MCP_SESSION_SECRET is required with PostgreSQL (every replica must use the same one, at least 16 characters)',
    );
  }
  const logger = createLogger(config);
  const store = await openStore(databaseUrl, {
    ...SERVING,
    poolSize: config.databasePoolSize,
    log: logger.child({ component: 'store' }),
  });
  if (isNewDemo) {
    const summary = await loadDemo(store, {});
    process.stderr.write(`created ${databaseUrl.slice('sqlite:'.length)} with the demo business: ${summary}\n`);
  }
  const app = await buildApp({ ...config, databaseUrl }, { store, logger });
  // A new demo store has no insights yet; building them takes a second, so its first reader gets them complete.
  if (isNewDemo) await app.publisher.insightsReady();
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.http.log.info({ signal }, 'shutting down');
    app
      .close()
      .then(() => store.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          app.http.log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  await app.http.listen({ port: config.port, host: config.host });
  app.http.log.info({ baseUrl: config.baseUrl, database: databaseUrl }, 'serving');
}
