// General sentence polarity for English customer language: deterministic, offline, fast. The analyzer calls it for
// every clause.
import modelFile from '../../models/polarity-model.json' with { type: 'json' };
import { fromFile, judge, type ModelFile, type PolarityModel, type PolarityResult } from './model.js';

const file: ModelFile = modelFile;
let loaded: PolarityModel | undefined;

// Built on first use, so importing this module costs nothing until polarity is needed.
function model(): PolarityModel {
  loaded ??= fromFile(file);
  return loaded;
}

/** Polarity of a sentence or clause in English customer language. Deterministic, offline, fast. */
export function textPolarity(text: string): PolarityResult {
  return judge(model(), text);
}
