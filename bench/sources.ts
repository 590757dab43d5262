// Importing a platform's answers against the service's own format, and a backup of a live store: the demo's
// reviews written as NDJSON and as Google Business Profile reviews.list pages (50 a page, one file holding the
// array of pages), each imported by the CLI into a new store; then `reviews backup` of the own-format store while
// a server serves it and a client keeps reading /reviews.json (every answer's status counted).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { generateDemo } from '../src/demo/generate.js';
import { stop, waitFor } from './process.js';

const execFileAsync = promisify(execFile);

export interface SourcesBenchOptions {
  root: string;
  work: string;
  port: number;
  size: number;
  row: (...cells: (string | number)[]) => void;
}

const STARS = ['ONE', 'TWO', 'THREE', 'FOUR', 'FIVE'];
const PAGE = 50;

export async function benchSources(o: SourcesBenchOptions): Promise<void> {
  const cli = join(o.root, 'dist/src/cli/main.js');
  const demo = generateDemo({ seed: 3, reviews: o.size });
  const own = join(o.work, `sources-${o.size}.ndjson`);
  writeFileSync(own, `${demo.reviews.map((r) => JSON.stringify(r)).join('\n')}\n`);
  const pages = [];
  for (let i = 0; i < demo.reviews.length; i += PAGE) {
    const reviews = demo.reviews.slice(i, i + PAGE).map((r, j) => ({
      name: `accounts/1/locations/2/reviews/g${i + j}`,
      reviewId: `g${i + j}`,
      reviewer: { displayName: r.author },
      starRating: STARS[r.rating - 1],
      comment: r.text,
      createTime: `${r.date}T17:04:05.123456789Z`,
      updateTime: `${r.date}T17:04:05.123456789Z`,
      ...(r.response ? { reviewReply: { comment: r.response.text, updateTime: `${r.response.date}T20:00:00Z` } } : {}),
    }));
    pages.push({
      reviews,
      averageRating: 4.2,
      totalReviewCount: demo.reviews.length,
      ...(i + PAGE < demo.reviews.length ? { nextPageToken: `p${i}` } : {}),
    });
  }
  const google = join(o.work, `sources-${o.size}-google.json`);
  writeFileSync(google, JSON.stringify(pages));
  const business = join(o.work, 'sources-business.json');
  writeFileSync(business, JSON.stringify({ business: demo.business, reviews: [] }));

  const timed = async (what: string, args: string[], db: string) => {
    const env = { ...process.env, LOG_LEVEL: 'warn', DATABASE_URL: `sqlite:${db}` };
    await execFileAsync(process.execPath, [cli, 'import', business], { env });
    const started = performance.now();
    const { stdout } = await execFileAsync(process.execPath, [cli, 'import', ...args, '--json'], {
      env,
      maxBuffer: 16 << 20,
    });
    const ms = Math.round(performance.now() - started);
    const summary = JSON.parse(stdout) as { added: number; rejected: number };
    o.row(o.size, `import, ${what}`, `${ms} ms`, `${summary.added} added, ${summary.rejected} rejected`);
    return ms;
  };
  const ownDb = join(o.work, `sources-${o.size}-own.db`);
  const ownMs = await timed('own format (NDJSON)', [own], ownDb);
  const googleMs = await timed(
    'Google reviews.list pages',
    ['--from', 'google', '--verified', google],
    join(o.work, `sources-${o.size}-google.db`),
  );
  o.row(o.size, 'import time, Google / own format', `${(googleMs / ownMs).toFixed(2)}×`, '');
  await backupWhileServing(o, cli, ownDb);
}

async function backupWhileServing(o: SourcesBenchOptions, cli: string, db: string): Promise<void> {
  const env = {
    ...process.env,
    LOG_LEVEL: 'warn',
    DATABASE_URL: `sqlite:${db}`,
    PORT: String(o.port),
    HOST: '127.0.0.1',
    RATE_LIMIT_QUERIES_PER_MINUTE: '1000000000',
  };
  const base = `http://127.0.0.1:${o.port}`;
  const server: ChildProcess = spawn(process.execPath, [join(o.root, 'dist/src/main.js')], {
    env,
    stdio: ['ignore', openSync(join(o.work, 'sources.log'), 'a'), 'ignore'],
  });
  try {
    await waitFor(`${base}/reviews.json`);
    const statuses = new Map<number, number>();
    let reading = true;
    const reader = (async () => {
      while (reading) {
        const response = await fetch(`${base}/reviews.json`);
        await response.arrayBuffer();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      }
    })();
    const started = performance.now();
    const { stdout } = await execFileAsync(
      process.execPath,
      [cli, 'backup', join(o.work, `sources-${o.size}-backup.db`), '--json'],
      { env },
    );
    const ms = Math.round(performance.now() - started);
    reading = false;
    await reader;
    const copy = JSON.parse(stdout) as { bytes: number; integrity: string };
    const answers = [...statuses].map(([status, count]) => `${count}×${status}`).join(', ');
    o.row(
      o.size,
      'backup while serving',
      `${ms} ms`,
      `${(copy.bytes / 2 ** 20).toFixed(0)} MiB, integrity ${copy.integrity}; /reviews.json meanwhile: ${answers}`,
    );
  } finally {
    await stop(server);
  }
}
