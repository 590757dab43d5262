// Fingerprints of compiled code: what is stored from it (analyses, insights, rendered documents) goes stale by
// itself when the code that made it changes.
import type { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The compiled folder of a module in `src/<folder>/`: under the test runner modules are TypeScript source, and the
 * build lives in dist/.
 */
export function compiledFolder(moduleUrl: string, folder: string): URL {
  const here = new URL(moduleUrl);
  return here.pathname.endsWith('.ts') ? new URL(`../../dist/src/${folder}/`, here) : new URL('./', here);
}

/** Adds every compiled file of `folder` (and below), names and bytes, in a stable order. */
export function hashFolder(hash: ReturnType<typeof createHash>, folder: URL): void {
  const path = fileURLToPath(folder);
  const files = readdirSync(path, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(js|json)$/.test(f))
    .sort();
  for (const file of files) {
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(`${path}/${file}`))
      .update('\0');
  }
}
