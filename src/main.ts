// Entry of `npm start`: serves the store named by DATABASE_URL.
import { configOrExit } from './config.js';
import { serve } from './cli/serve.js';

serve(configOrExit(), { demo: false }).catch((error: unknown) => {
  process.stderr.write(`reviews: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
