// Fingerprints of the insights engine's code and data, so stored analyses and documents go stale by themselves
// when a lexicon, a model or the code that applies them changes.
import { createHash } from 'node:crypto';
import { compiledFolder, hashFolder } from '../fingerprint.js';

export interface EngineVersions {
  /** Keys per-review analyses: the analyzer's code and lexicons (analysis/) and its models (models/). */
  analysis: string;
  /** Keys insights documents: the analysis and the aggregation's code. */
  document: string;
}

/** The compiled engine (the insights process runs it, and its files are fingerprinted). */
export function compiledInsightsDir(): URL {
  return compiledFolder(import.meta.url, 'insights');
}

let computed: EngineVersions | undefined;

/** Read once per process: the compiled code and the model files (several MB) are hashed on first use only. */
export function engineVersions(): EngineVersions {
  if (computed) return computed;
  const root = compiledInsightsDir();
  const analysis = createHash('sha256');
  hashFolder(analysis, new URL('analysis/', root));
  hashFolder(analysis, new URL('models/', root));
  const analysisVersion = analysis.digest('base64url').slice(0, 16);
  const document = createHash('sha256').update(analysisVersion);
  hashFolder(document, new URL('document/', root));
  computed = { analysis: analysisVersion, document: document.digest('base64url').slice(0, 16) };
  return computed;
}
