#!/usr/bin/env node
// The `reviews` command line: serve, import, demo, analyze and the operator's commands. Exit codes: 0 done, 1 failed
// or refused (nothing changed), 2 usage error.
import { parseArgs } from 'node:util';
import { configOrExit, type Config } from '../config.js';
import { DEMO_DEFAULTS } from '../demo/generate.js';
import { openStore } from '../store/open.js';
import { runAnalyze } from './analyze.js';
import { writeDemo } from './demo.js';
import { runImport } from './import.js';
import { runBackup } from './backup.js';
import { runDecision, showLog, showReview, showStatus, showUnmatched } from './operator.js';
import { runImportJobs } from './import-jobs.js';
import { serve } from './serve.js';
import { listSubscriptions } from './subscriptions.js';
import type { Store } from '../store/types.js';
import type { Decision } from '../store/operator-store.js';

const USAGE = `usage: reviews <command> [options]

commands:
  serve [--demo]                          serve DATABASE_URL (--demo: data/demo.db, created with the demo business if missing)
  import <file> [--replace] [--skip-invalid] [--json] [--all-problems]
                                          import reviews from a JSON document, NDJSON or CSV file
                                          (the first 100 problems are listed, then a count; --all-problems lists every one)
  import --from google|trustpilot|podium|birdeye <file>… [--complete] [--verified] [--skip-invalid] [--json]
                                          import a platform's review answers (--complete: the files hold all of that
                                          source's reviews, the missing ones are withdrawn; --verified: the operator
                                          vouches for every review of the files). --from yelp is refused (Yelp's terms).
  import-jobs [--from servicetitan|housecallpro|jobber] <file>… [--skip-invalid] [--json]
                                          import completed jobs, the proof a review is verified against (without --from:
                                          CSV id,completed,customer,email,phone,technicians,services,area, NDJSON or JSON);
                                          contacts and job ids are kept only as keyed hashes; reviews are matched at once
  status [<id>] [--json]                  reviews by source and state, last imports, insights, subscriptions, the store;
                                          with an id, that review's state and why
  unmatched [--limit N] [--json]          reviews waiting for a job, and those two or more jobs fit (their dates only)
  remove <id> --reason R [--json]         take a review out of every public output; no import brings it back
  restore <id> [--reason R] [--json]      undo a removal
  verify <id> --reason R [--json]         the operator's word that a review is genuine: it is published
  unverify <id> --reason R [--json]       take that word back: it is not published, whatever an import says
  backup <file> [--json]                  a consistent copy of the live SQLite store (PostgreSQL: use pg_dump)
  log [--limit N] [--action A] [--json]   every operator change, newest first, with its reason
  demo [--reviews N] [--seed S] [--until YYYY-MM-DD] [--out FILE]
                                          write the generated demo business as an import document
                                          (default ${DEMO_DEFAULTS.reviews} reviews, seed ${DEMO_DEFAULTS.seed}, until ${DEMO_DEFAULTS.until})
  analyze <file> [--explain] [--id ID]    one JSON line per review: sentiment, aspects with evidence, technicians, services
                                          (--explain: the decision path of each review as text; --id: that review only)
  subscriptions [--json]                  list WebSub subscriptions: state, lease expiry, failures, last delivery

The store is named by DATABASE_URL (default sqlite:data/reviews.db); see the README for every setting.
`;

class UsageError extends Error {}

function positiveInt(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new UsageError(`--${name} must be a positive integer, got "${value}"`);
  return Number(value);
}

/** Opens the store (creating and migrating it), runs `work`, and closes it whatever happens. */
async function withStore(config: Config, work: (store: Store) => Promise<number>): Promise<number> {
  const store = await openStore(config.databaseUrl, { poolSize: config.databasePoolSize });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** Each command: its options parsed, its work run; the exit code (-1: a server that runs until stopped). */
type Command = (rest: string[], config: Config) => Promise<number>;

/** remove, restore, verify and unverify: one review id, and a reason but for restore. */
const decision =
  (command: Decision): Command =>
  async (rest, config) => {
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: { reason: { type: 'string' }, json: { type: 'boolean', default: false } },
    });
    if (positionals.length !== 1) throw new UsageError(`${command} takes exactly one review id`);
    const reason = values.reason?.trim();
    if (command !== 'restore' && !reason) throw new UsageError(`${command} needs --reason "…" (it is kept in the log)`);
    return withStore(config, (store) =>
      runDecision(store, command, positionals[0]!, reason || undefined, { json: values.json ?? false }),
    );
  };

const COMMANDS: Record<string, Command> = {
  serve: async (rest, config) => {
    const { values } = parseArgs({ args: rest, options: { demo: { type: 'boolean', default: false } } });
    await serve(config, { demo: values.demo ?? false });
    return -1;
  },
  import: async (rest, config) => {
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        from: { type: 'string' },
        replace: { type: 'boolean', default: false },
        complete: { type: 'boolean', default: false },
        verified: { type: 'boolean', default: false },
        'skip-invalid': { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        'all-problems': { type: 'boolean', default: false },
      },
    });
    if (positionals.length === 0) throw new UsageError('import takes at least one file');
    return withStore(config, (store) =>
      runImport(store, positionals, {
        ...(values.from !== undefined ? { from: values.from } : {}),
        replace: values.replace ?? false,
        complete: values.complete ?? false,
        verified: values.verified ?? false,
        skipInvalid: values['skip-invalid'] ?? false,
        json: values.json ?? false,
        allProblems: values['all-problems'] ?? false,
        windowDays: config.verifyWindowDays,
      }),
    );
  },
  'import-jobs': async (rest, config) => {
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        from: { type: 'string' },
        'skip-invalid': { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        'all-problems': { type: 'boolean', default: false },
      },
    });
    if (positionals.length === 0) throw new UsageError('import-jobs takes at least one file');
    const request = {
      files: positionals,
      ...(values.from !== undefined ? { from: values.from } : {}),
      skipInvalid: values['skip-invalid'] ?? false,
      windowDays: config.verifyWindowDays,
    };
    return withStore(config, (store) =>
      runImportJobs(store, request, { json: values.json ?? false, allProblems: values['all-problems'] ?? false }),
    );
  },
  status: async (rest, config) => {
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: { json: { type: 'boolean', default: false } },
    });
    if (positionals.length > 1) throw new UsageError('status takes at most one review id');
    const id = positionals[0];
    return withStore(config, (store) =>
      id !== undefined
        ? showReview(store, id, { json: values.json ?? false })
        : showStatus(store, { json: values.json ?? false }),
    );
  },
  unmatched: async (rest, config) => {
    const { values } = parseArgs({
      args: rest,
      options: { limit: { type: 'string' }, json: { type: 'boolean', default: false } },
    });
    const limit = positiveInt('limit', values.limit) ?? 100;
    return withStore(config, (store) => showUnmatched(store, { json: values.json ?? false, limit }));
  },
  remove: decision('remove'),
  restore: decision('restore'),
  verify: decision('verify'),
  unverify: decision('unverify'),
  log: async (rest, config) => {
    const { values } = parseArgs({
      args: rest,
      options: { limit: { type: 'string' }, action: { type: 'string' }, json: { type: 'boolean', default: false } },
    });
    const actions = ['import', 'import-jobs', 'remove', 'restore', 'verify', 'unverify'] as const;
    const action = actions.find((a) => a === values.action);
    if (values.action !== undefined && !action) throw new UsageError(`--action must be one of ${actions.join(', ')}`);
    const limit = positiveInt('limit', values.limit) ?? 100;
    return withStore(config, (store) =>
      showLog(store, { json: values.json ?? false, limit, ...(action ? { action } : {}) }),
    );
  },
  backup: async (rest, config) => {
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: { json: { type: 'boolean', default: false } },
    });
    if (positionals.length !== 1) throw new UsageError('backup takes exactly one file');
    return runBackup(config.databaseUrl, positionals[0]!, { json: values.json ?? false });
  },
  demo: async (rest) => {
    const { values } = parseArgs({
      args: rest,
      options: {
        reviews: { type: 'string' },
        seed: { type: 'string' },
        until: { type: 'string' },
        out: { type: 'string' },
      },
    });
    if (values.until !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(values.until))
      throw new UsageError('--until must be YYYY-MM-DD');
    const options = {
      ...(values.reviews !== undefined ? { reviews: positiveInt('reviews', values.reviews) } : {}),
      ...(values.seed !== undefined ? { seed: positiveInt('seed', values.seed) } : {}),
      ...(values.until !== undefined ? { until: values.until } : {}),
    };
    await writeDemo(options, values.out);
    return 0;
  },
  analyze: async (rest, config) => {
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: { explain: { type: 'boolean', default: false }, id: { type: 'string' } },
    });
    if (positionals.length !== 1) throw new UsageError('analyze takes exactly one file');
    return withStore(config, (store) =>
      runAnalyze(store, positionals[0]!, {
        explain: values.explain ?? false,
        ...(values.id !== undefined ? { id: values.id } : {}),
      }),
    );
  },
  subscriptions: async (rest, config) => {
    const { values } = parseArgs({ args: rest, options: { json: { type: 'boolean', default: false } } });
    return withStore(config, (store) => listSubscriptions(store, { json: values.json ?? false }));
  },
};

async function run(argv: string[], config: Config): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(USAGE);
    return command === undefined ? 2 : 0;
  }
  const handler = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!handler) throw new UsageError(`unknown command "${command}"`);
  return handler(rest, config);
}

// A closed pipe (`reviews analyze file | head`) ends the output quietly, as command-line tools do.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

run(process.argv.slice(2), configOrExit()).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    const usage = error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    process.stderr.write(
      `reviews: ${error instanceof Error ? error.message : String(error)}\n${usage ? `\n${USAGE}` : ''}`,
    );
    process.exitCode = usage ? 2 : 1;
  },
);
