// Test harness: a real server on loopback over a real SQLite file, and the real CLI as a child process.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { buildApp, type App } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/types.js';

const execFileAsync = promisify(execFile);
export const CLI = resolve(import.meta.dirname, '../../dist/src/cli/main.js');

export function tempDir(prefix = 'reviews-test-'): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

export function testConfig(databaseUrl: string, overrides: Record<string, string> = {}): Config {
  const loaded = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1', RELOAD_INTERVAL_MS: '100', ...overrides });
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

/** Starts the service on 127.0.0.1 with an ephemeral port over the given SQLite file. */
export async function startServer(dbPath: string, env: Record<string, string> = {}): Promise<RunningServer> {
  const databaseUrl = `sqlite:${dbPath}`;
  const store = await openStore(databaseUrl);
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

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The test runner's environment without service settings (Vite, for one, sets BASE_URL=/). */
function inheritedEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    if (/^(PORT|HOST|BASE_URL|DATABASE_URL|WEBSUB_|MCP_|LOG_LEVEL|RELOAD_INTERVAL_MS)/.test(key)) delete env[key];
  }
  return env;
}

/** Runs the built `reviews` CLI against a database, as an operator would. */
export async function runCli(args: string[], databaseUrl: string, env: Record<string, string> = {}): Promise<CliResult> {
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
