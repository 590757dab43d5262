// Fingerprints of the insights engine's code and data, so stored analyses and documents go stale by themselves
// when a lexicon, a model or the code that applies them changes.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface EngineVersions {
  /** Keys per-review analyses: the analyzer's code, lexicons and models. */
  analysis: string;
  /** Keys insights documents: the analysis and the aggregation's code. */
  document: string;
}

/** The compiled engine: under the test runner these modules are TypeScript source, and the build lives in dist/. */
export function compiledInsightsDir(): URL {
  const here = new URL(import.meta.url);
  return here.pathname.endsWith('.ts') ? new URL('../../dist/src/insights/', here) : new URL('./', here);
}

function hashFolder(hash: ReturnType<typeof createHash>, folder: URL): void {
  const path = fileURLToPath(folder);
  const files = readdirSync(path, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(js|json)$/.test(f))
    .sort();
  for (const file of files) {
    hash.update(file).update('\0').update(readFileSync(`${path}/${file}`)).update('\0');
  }
}

let computed: EngineVersions | undefined;

/** Read once per process: hashing some 300 KB of compiled code and model files takes milliseconds. */
export function engineVersions(): EngineVersions {
  if (computed) return computed;
  const root = compiledInsightsDir();
  const analysis = createHash('sha256');
  hashFolder(analysis, new URL('analysis/', root));
  const analysisVersion = analysis.digest('base64url').slice(0, 16);
  const document = createHash('sha256').update(analysisVersion);
  hashFolder(document, new URL('document/', root));
  computed = { analysis: analysisVersion, document: document.digest('base64url').slice(0, 16) };
  return computed;
}
