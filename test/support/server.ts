// Test harness: a real server on loopback over a real SQLite file, and the real CLI as a child process.
import { execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { openStore, SERVING } from '../../src/store/open.js';
import type { ImportPlan, ImportSummary, Store } from '../../src/store/types.js';
import { until } from './wait.js';

const execFileAsync = promisify(execFile);
export const CLI = resolve(import.meta.dirname, '../../dist/src/cli/main.js');

export function tempDir(prefix = 'reviews-test-'): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

export function testConfig(databaseUrl: string, overrides: Record<string, string> = {}): Config {
  const loaded = loadConfig({
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'silent',
    PORT: '0',
    HOST: '127.0.0.1',
    RELOAD_INTERVAL_MS: '100',
    ...overrides,
  });
  if (!loaded.ok) throw new Error(loaded.problems.join('; '));
  return loaded.config;
}

export interface RunningServer {
  url: string;
  app: App;
  store: Store;
  databaseUrl: string;
  close(): Promise<void>;
}

/** Starts the service on 127.0.0.1 with an ephemeral port over the given SQLite file (or PostgreSQL URL). */
export async function startServer(dbPath: string, env: Record<string, string> = {}): Promise<RunningServer> {
  const databaseUrl = dbPath.startsWith('postgres') ? dbPath : `sqlite:${dbPath}`;
  const store = await openStore(databaseUrl, SERVING);
  // BASE_URL must name the real port, so take a free one first.
  const port = await freePort();
  const app = await buildApp(testConfig(databaseUrl, { BASE_URL: `http://127.0.0.1:${port}`, ...env }), { store });
  await app.http.listen({ port, host: '127.0.0.1' });
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    store,
    databaseUrl,
    async close() {
      await app.close();
      await store.close();
    },
  };
}

/**
 * A server for the tests of the enclosing describe block: started before them, closed after them. The getter
 * works inside tests and hooks only.
 */
export function serverPerBlock(dbPath: string, env: Record<string, string> = {}): () => RunningServer {
  let server: RunningServer | undefined;
  beforeAll(async () => {
    server = await startServer(dbPath, env);
  });
  afterAll(async () => {
    await server?.close();
  });
  return () => {
    if (!server) throw new Error(`the server over ${dbPath} is not running (use it inside a test)`);
    return server;
  };
}

/**
 * Imports through the server's store and waits until the server serves that revision (or a later one), without
 * waiting for the polling interval. Insights follow later: await `app.publisher.insightsReady()` for them.
 */
export async function publish(server: RunningServer, plan: ImportPlan): Promise<ImportSummary> {
  const summary = await server.store.applyImport(plan);
  do await server.app.publisher.refresh();
  while (server.app.publisher.current().snapshot.version.revision < summary.version.revision);
  return summary;
}

export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Waits until a service run as a child process answers GET /reviews.json; fails at once if the process exits. */
export async function untilServing(
  url: string,
  child: ChildProcess,
  output: () => string,
  timeoutMs = 30_000,
): Promise<void> {
  await until(
    async () => {
      if (child.exitCode !== null) throw new Error(`the service exited (${child.exitCode}):\n${output()}`);
      try {
        return (await fetch(`${url}/reviews.json`)).ok;
      } catch {
        return false;
      }
    },
    timeoutMs,
    () => `the service at ${url} to answer:\n${output()}`,
  );
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The test runner's environment (NODE_EXTRA_CA_CERTS included) without service settings (Vite, for one, sets BASE_URL=/). */
export function inheritedEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    if (/^(PORT|HOST|BASE_URL|DATABASE_URL|WEBSUB_|MCP_|LOG_LEVEL|RELOAD_INTERVAL_MS)/.test(key)) delete env[key];
  }
  return env;
}

/** Runs the built `reviews` CLI against a database, as an operator would. */
export async function runCli(
  args: string[],
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<CliResult> {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [CLI, ...args], {
      env: { ...inheritedEnv(), DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', ...env },
      maxBuffer: 256 << 20,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

export function writeJson(path: string, value: unknown): string {
  writeFileSync(path, JSON.stringify(value));
  return path;
}
