#!/usr/bin/env node
// The `reviews` command line: serve, import, demo. Exit codes: 0 done, 1 failed, 2 usage error.
import { parseArgs } from 'node:util';
import { configOrExit, type Config } from '../config.js';
import { DEMO_DEFAULTS } from '../demo/generate.js';
import { openStore } from '../store/open.js';
import { runAnalyze } from './analyze.js';
import { writeDemo } from './demo.js';
import { runImport } from './import.js';
import { serve } from './serve.js';
import { listSubscriptions } from './subscriptions.js';

const USAGE = `usage: reviews <command> [options]

commands:
  serve [--demo]                          serve DATABASE_URL (--demo: data/demo.db, created with the demo business if missing)
  import <file> [--replace] [--skip-invalid] [--json] [--all-problems]
                                          import reviews from a JSON document, NDJSON or CSV file
                                          (the first 100 problems are listed, then a count; --all-problems lists every one)
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
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`--${name} must be a positive integer, got "${value}"`);
  return Number(value);
}

async function run(argv: string[], config: Config): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve': {
      const { values } = parseArgs({ args: rest, options: { demo: { type: 'boolean', default: false } } });
      await serve(config, { demo: values.demo ?? false });
      return -1;
    }
    case 'import': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: {
          replace: { type: 'boolean', default: false },
          'skip-invalid': { type: 'boolean', default: false },
          json: { type: 'boolean', default: false },
          'all-problems': { type: 'boolean', default: false },
        },
      });
      if (positionals.length !== 1) throw new UsageError('import takes exactly one file');
      const store = await openStore(config.databaseUrl, { poolSize: config.databasePoolSize });
      try {
        return await runImport(store, positionals[0]!, {
          replace: values.replace ?? false,
          skipInvalid: values['skip-invalid'] ?? false,
          json: values.json ?? false,
          allProblems: values['all-problems'] ?? false,
        });
      } finally {
        await store.close();
      }
    }
    case 'demo': {
      const { values } = parseArgs({
        args: rest,
        options: { reviews: { type: 'string' }, seed: { type: 'string' }, until: { type: 'string' }, out: { type: 'string' } },
      });
      if (values.until !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(values.until)) throw new UsageError('--until must be YYYY-MM-DD');
      const options = {
        ...(values.reviews !== undefined ? { reviews: positiveInt('reviews', values.reviews) } : {}),
        ...(values.seed !== undefined ? { seed: positiveInt('seed', values.seed) } : {}),
        ...(values.until !== undefined ? { until: values.until } : {}),
      };
      await writeDemo(options, values.out);
      return 0;
    }
    case 'analyze': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: { explain: { type: 'boolean', default: false }, id: { type: 'string' } },
      });
      if (positionals.length !== 1) throw new UsageError('analyze takes exactly one file');
      const store = await openStore(config.databaseUrl, { poolSize: config.databasePoolSize });
      try {
        return await runAnalyze(store, positionals[0]!, { explain: values.explain ?? false, ...(values.id !== undefined ? { id: values.id } : {}) });
      } finally {
        await store.close();
      }
    }
    case 'subscriptions': {
      const { values } = parseArgs({ args: rest, options: { json: { type: 'boolean', default: false } } });
      const store = await openStore(config.databaseUrl, { poolSize: config.databasePoolSize });
      try {
        return await listSubscriptions(store, { json: values.json ?? false });
      } finally {
        await store.close();
      }
    }
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(USAGE);
      return command === undefined ? 2 : 0;
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
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
    process.stderr.write(`reviews: ${error instanceof Error ? error.message : String(error)}\n${usage ? `\n${USAGE}` : ''}`);
    process.exitCode = usage ? 2 : 1;
  },
);
