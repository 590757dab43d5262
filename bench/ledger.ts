// Matching reviews to the job ledger at scale: the demo's reviews (unverified, so the ledger decides; half of them
// with the whole name of their author), and one and a half jobs a review, as the service's own ledger CSV: nine
// reviews in ten have their customer's job a few days before, the rest of the jobs are other customers'. Imported by the CLI into a new store, timed whole and for the
// matching alone (the CLI reports it), with the peak RSS of `import-jobs`; then every review matched again (a new
// VERIFY_WINDOW_DAYS) and one new job.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { generateDemo } from '../src/demo/generate.js';

const execFileAsync = promisify(execFile);

export interface LedgerBenchOptions {
  root: string;
  work: string;
  size: number;
  row: (...cells: (string | number)[]) => void;
}

/** A hundred made-up surnames an initial ("Karen D." becomes Karen Dalton or Karen Dunford). */
const ENDINGS =
  'lton nford rwood ssett mley ckman rris ltby nley wson rton ddings sby lford nning ggs rley mmer lkin tcher'.split(
    ' ',
  );
const surnamesOf = (initial: string) =>
  'aeiou'.split('').flatMap((v) => ENDINGS.map((e) => `${initial.toUpperCase()}${v}${e}`));
const INITIALS = 'ABCDEFGHIJKLMNOPRSTVWY'.split('');
const OTHER_FIRST =
  'Aaron Bianca Cyrus Delia Emeka Farah Gustavo Hana Ivan Jade Kofi Lena Milo Nadia Oscar Priya Quentin Rosa Stefan Tara Umar Vera Wendell Yara Zane'.split(
    ' ',
  );

/** A small deterministic generator: the same files every run. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** Runs the CLI with the peak RSS of its process reported on stderr at exit (kB, as getrusage gives it). */
async function cliWithPeak(
  cli: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ stdout: string; ms: number; peakMiB: number }> {
  const report = "process.on('exit',()=>process.stderr.write('maxrss '+process.resourceUsage().maxRSS+'\\n'))";
  const started = performance.now();
  const { stdout, stderr } = await execFileAsync(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(report)}`, cli, ...args],
    { env, maxBuffer: 64 << 20 },
  );
  const kb = Number(/maxrss (\d+)/.exec(stderr)?.[1] ?? 0);
  return { stdout, ms: Math.round(performance.now() - started), peakMiB: kb / 1024 };
}

const JOB_COLUMNS = 'id,completed,customer,email,phone,technicians,services,area';

type Demo = ReturnType<typeof generateDemo>;
type DemoReview = Demo['reviews'][number];

/** What `import-jobs --json` prints. */
interface ImportJobsResult {
  added: number;
  match: { examined: number; verified: number; ms: number };
}

/** One line of the ledger CSV: job `id`, and the technicians, services and area of the review it is for, if any. */
const jobLine = (id: number, date: string, customer: string, r?: DemoReview) =>
  [
    `JOB-${id}`,
    date,
    customer,
    `c${id}@example.test`,
    `602-555-${String(id % 10000).padStart(4, '0')}`,
    (r?.technicians ?? []).join(';'),
    (r?.services ?? []).join(';'),
    r?.serviceArea ?? '',
  ].join(',');

/**
 * Writes the reviews as received and the ledger of `jobs` jobs: nine reviewers in ten have one, a few days before;
 * the other jobs are other customers', spread over the reviews' dates.
 */
function writeInputs(o: LedgerBenchOptions, demo: Demo, jobs: number): { reviews: string; ledger: string } {
  const next = random(42);
  const lines = [JOB_COLUMNS];
  const job = (date: string, customer: string, r?: DemoReview) => lines.push(jobLine(lines.length, date, customer, r));
  const authors = new Map<string, string>();
  for (const r of demo.reviews) {
    if (next() >= 0.9) continue;
    const [first, initial] = r.author.split(' ');
    const surnames = surnamesOf(initial?.[0] ?? 'S');
    const customer = `${first} ${surnames[Math.floor(next() * surnames.length)]!}`;
    // Half the reviewers show their whole name, as Google's and Trustpilot's often do; the others an initial.
    if (next() < 0.5) authors.set(r.id, customer);
    job(addDays(r.date, -Math.floor(next() * 30)), customer, r);
  }
  const reviews = join(o.work, `ledger-${o.size}-reviews.json`);
  const asReceived = demo.reviews.map((r) => ({
    ...r,
    author: authors.get(r.id) ?? r.author,
    verified: false,
    language: 'en',
  }));
  writeFileSync(reviews, JSON.stringify({ business: demo.business, reviews: asReceived }));
  const first = demo.reviews.at(-1)!.date;
  const span = (Date.parse(demo.reviews[0]!.date) - Date.parse(first)) / 86_400_000;
  const anyone = () => {
    const surnames = surnamesOf(INITIALS[Math.floor(next() * INITIALS.length)]!);
    return `${OTHER_FIRST[Math.floor(next() * OTHER_FIRST.length)]} ${surnames[Math.floor(next() * surnames.length)]!}`;
  };
  while (lines.length - 1 < jobs) job(addDays(first, Math.floor(next() * span)), anyone());
  const ledger = join(o.work, `ledger-${o.size}-jobs.csv`);
  writeFileSync(ledger, `${lines.join('\n')}\n`);
  return { reviews, ledger };
}

/** The first import of the ledger into a store of the reviews: the whole process, then its matching. */
async function importLedger(
  o: LedgerBenchOptions,
  cli: string,
  env: NodeJS.ProcessEnv,
  files: { reviews: string; ledger: string },
  jobs: number,
): Promise<void> {
  await execFileAsync(process.execPath, [cli, 'import', files.reviews], { env, maxBuffer: 16 << 20 });
  const all = await cliWithPeak(cli, ['import-jobs', files.ledger, '--json'], env);
  const imported = JSON.parse(all.stdout) as ImportJobsResult;
  const { stdout: unmatched } = await execFileAsync(process.execPath, [cli, 'unmatched', '--json', '--limit', '1'], {
    env,
  });
  const waiting = JSON.parse(unmatched) as { total: number };
  o.row(
    o.size,
    `import-jobs, ${jobs.toLocaleString('en-US')} jobs (whole process)`,
    `${all.ms} ms`,
    `peak RSS ${all.peakMiB.toFixed(0)} MiB; ${imported.added} jobs added`,
  );
  o.row(
    o.size,
    'matching, every review against the new jobs',
    `${imported.match.ms} ms`,
    `${imported.match.verified} verified, ${waiting.total} waiting (no job or two fit)`,
  );
}

/** `import-jobs` of `file` with a new VERIFY_WINDOW_DAYS: its matching, as the row `measure`. */
async function rematch(o: LedgerBenchOptions, cli: string, env: NodeJS.ProcessEnv, file: string, measure: string) {
  const run = await cliWithPeak(cli, ['import-jobs', file, '--json'], { ...env, VERIFY_WINDOW_DAYS: '61' });
  const { match } = JSON.parse(run.stdout) as ImportJobsResult;
  o.row(o.size, measure, `${match.ms} ms`, `${match.examined} reviews examined; whole process ${run.ms} ms`);
}

export async function benchLedger(o: LedgerBenchOptions): Promise<void> {
  const cli = join(o.root, 'dist/src/cli/main.js');
  const demo = generateDemo({ seed: 5, reviews: o.size });
  const jobs = Math.round(o.size * 1.5);
  const files = writeInputs(o, demo, jobs);
  const env = { ...process.env, LOG_LEVEL: 'warn', DATABASE_URL: `sqlite:${join(o.work, `ledger-${o.size}.db`)}` };
  await importLedger(o, cli, env, files, jobs);
  await rematch(o, cli, env, files.ledger, 'matching, full run (a new VERIFY_WINDOW_DAYS)');
  const one = join(o.work, `ledger-${o.size}-one.csv`);
  const newest = demo.reviews.find((r) => r.author.split(' ').length === 2)!;
  writeFileSync(one, `${JOB_COLUMNS}\nJOB-NEW,${addDays(newest.date, -1)},${newest.author.replace('.', '')}zzz,,,,,\n`);
  await rematch(o, cli, env, one, 'matching, one new job');
}
