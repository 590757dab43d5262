// Entry of `npm start`: serves the store named by DATABASE_URL.
import { loadConfig } from './config.js';
import { serve } from './cli/serve.js';

const loaded = loadConfig();
if (!loaded.ok) {
  process.stderr.write(`invalid configuration:\n${loaded.problems.map((p) => `  ${p}`).join('\n')}\n`);
  process.exit(2);
}
serve(loaded.config, { demo: false }).catch((error: unknown) => {
  process.stderr.write(`reviews: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
