// How long a cached GET waits while the CLI imports a large file into the store a server is serving: the server's
// event loop must never wait on the import's write lock or on rebuilding the view. One server process, a probe of
// /api/feed.json every 20 ms from the start of the import until its new version is served.
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { openSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { generateDemo } from '../src/demo/generate.js';
import { etagOf, stop, until, waitFor } from './process.js';

const execFileAsync = promisify(execFile);

export interface ImportStallOptions {
  root: string;
  work: string;
  port: number;
  /** Reviews in the imported file (330,000 make about 150 MB of JSON). */
  size: number;
  row: (...cells: (string | number)[]) => void;
}

export async function benchImportStall(o: ImportStallOptions): Promise<void> {
  const cli = join(o.root, 'dist/src/cli/main.js');
  const env = {
    ...process.env,
    LOG_LEVEL: 'warn',
    DATABASE_URL: `sqlite:${join(o.work, `stall-${o.size}.db`)}`,
    PORT: String(o.port),
    HOST: '127.0.0.1',
  };
  const base = `http://127.0.0.1:${o.port}`;
  const demo = join(o.work, 'stall-demo.json');
  writeFileSync(demo, JSON.stringify(generateDemo({ seed: 1, reviews: 1500 })));
  execFileSync(process.execPath, [cli, 'import', demo], { env, stdio: 'ignore' });
  const file = join(o.work, `stall-${o.size}.json`);
  writeFileSync(file, JSON.stringify(generateDemo({ seed: 2, reviews: o.size })));
  const server: ChildProcess = spawn(process.execPath, [join(o.root, 'dist/src/main.js')], {
    env,
    stdio: ['ignore', openSync(join(o.work, 'stall.log'), 'a'), 'ignore'],
  });
  try {
    await waitFor(`${base}/api/feed.json`);
    const before = await etagOf(`${base}/api/feed.json`);
    const latencies: number[] = [];
    let importing = true;
    const probe = (async () => {
      while (importing) {
        const started = performance.now();
        await (await fetch(`${base}/api/feed.json`)).arrayBuffer();
        latencies.push(performance.now() - started);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const started = performance.now();
    await execFileAsync(process.execPath, [cli, 'import', file], { env, maxBuffer: 64 << 20 });
    const imported = performance.now();
    await until(async () => (await etagOf(`${base}/api/feed.json`)) !== before, 600_000, 'the new version', 50);
    importing = false;
    await probe;
    const sorted = [...latencies].sort((a, b) => a - b);
    const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);
    const mb = (statSync(file).size / 1e6).toFixed(0);
    o.row(
      o.size,
      `cached GET during a ${mb} MB import: max / p99 / median`,
      `${at(1)} / ${at(0.99)} / ${at(0.5)} ms`,
      `${latencies.length} probes; import ${Math.round(imported - started)} ms, served ${Math.round(performance.now() - imported)} ms later`,
    );
  } finally {
    await stop(server);
  }
}
