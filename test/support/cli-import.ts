// Imports through the built CLI, as an operator would while a server or replicas run.
import { expect } from 'vitest';
import type { ImportedReview } from '../../src/reviews/schemas.js';
import { runCli, writeJson } from './server.js';

/** Writes `document` to `file`, imports it with the CLI and expects it to exit 0; resolves when the CLI has exited. */
export async function cliImport(
  databaseUrl: string,
  file: string,
  document: { business?: unknown; reviews: ImportedReview[] },
): Promise<void> {
  const result = await runCli(['import', writeJson(file, document)], databaseUrl);
  expect(result.code, result.stderr).toBe(0);
}
