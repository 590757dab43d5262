// `npm run demo` and `npm start` as an operator runs them: a real process, a real port, graceful shutdown.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateDemo } from '../src/demo/generate.js';
import { CLI, freePort, tempDir, untilServing } from './support/server.js';

const dir = tempDir();
afterAll(() => dir.remove());

async function startProcess(
  args: string[],
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: dir.path,
    env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  await untilServing(url, child, () => stderr, 60_000);
  return { child, url, stderr: () => stderr };
}

function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((done) => {
    child.once('exit', (code) => done(code));
    child.kill('SIGTERM');
  });
}

describe('serve --demo (npm run demo)', () => {
  it('creates data/demo.db with the demo business when missing, serves it, and exits 0 on SIGTERM', async () => {
    const { child, url, stderr } = await startProcess(['serve', '--demo'], {});
    expect(existsSync(join(dir.path, 'data/demo.db'))).toBe(true);
    const dataset = (await (await fetch(`${url}/reviews.json`)).json()) as {
      business: { name: string };
      reviews: unknown[];
    };
    const demo = generateDemo();
    expect(dataset.business.name).toBe(demo.business.name);
    expect(dataset.reviews).toHaveLength(demo.reviews.filter((r) => r.verified).length);
    expect(stderr()).toContain('created data/demo.db');
    expect(await stop(child)).toBe(0);
  });

  it('serves the existing demo database on the next start without regenerating it', async () => {
    const { child, stderr } = await startProcess(['serve', '--demo'], {});
    expect(stderr()).not.toContain('created');
    expect(await stop(child)).toBe(0);
  });
});

describe('serve (npm start)', () => {
  it('creates and migrates a new empty database and serves empty datasets', async () => {
    const { child, url } = await startProcess(['serve'], { DATABASE_URL: 'sqlite:nested/dir/empty.db' });
    expect(existsSync(join(dir.path, 'nested/dir/empty.db'))).toBe(true);
    expect(await (await fetch(`${url}/reviews.json`)).json()).toMatchObject({ business: null, reviews: [] });
    expect(await stop(child)).toBe(0);
  });

  it('refuses an invalid configuration with a message and exit code 2', async () => {
    const child = spawn(process.execPath, [CLI, 'serve'], {
      env: { PATH: process.env.PATH ?? '', PORT: 'eighty' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((done) => child.once('exit', done));
    expect(code).toBe(2);
    expect(stderr).toContain('PORT');
  });
});

describe('SIGTERM under load', () => {
  it('answers every request it took in full, says it is closing, and resets no connection', async () => {
    const { child, url } = await startProcess(['serve', '--demo'], {
      SHUTDOWN_DRAIN_MS: '800',
      SHUTDOWN_GRACE_MS: '5000',
    });
    const statuses = new Map<number, number>();
    const errors: string[] = [];
    let stopping = false;
    let servedWhileStopping = 0;
    // Clients that keep their connections alive and ask again as soon as they have an answer, as a load balancer
    // would: until the server says it is going away (Connection: close while it shuts down), or refuses them.
    const client = async () => {
      for (let n = 0; n < 5000; n++) {
        try {
          const response = await fetch(`${url}/api/feed.json`);
          const body = await response.text();
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          if (response.status === 200) JSON.parse(body);
          if (stopping && response.status === 200) servedWhileStopping++;
          if (stopping && response.headers.get('connection') === 'close') return;
        } catch (error) {
          const code = String((error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message);
          if (code === 'ECONNREFUSED') return;
          errors.push(code);
          return;
        }
      }
    };
    const clients = Array.from({ length: 16 }, client);
    await new Promise((done) => setTimeout(done, 1000));
    stopping = true;
    const exited = stop(child);
    await Promise.all(clients);
    expect(await exited).toBe(0);
    // Refused once the server stopped listening (ECONNREFUSED ends a client); nothing reset or cut short.
    expect(errors).toEqual([]);
    expect(servedWhileStopping).toBeGreaterThan(0);
    expect([...statuses.keys()].every((s) => s === 200 || s === 503)).toBe(true);
  }, 60_000);
});
