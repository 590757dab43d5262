// General sentence polarity for English customer language: deterministic, offline, fast. The engine calls it for
// every clause; the aspect analyzer falls back to `wordValence` for opinion words its own lexicon lacks.
import modelFile from './model.json' with { type: 'json' };
import { baseLexiconOf, fromFile, judge, valenceOf, type ModelFile, type PolarityModel, type PolarityResult } from './model.js';
import { evaluate, type UciScore } from './uci.js';

export type { Polarity, PolarityResult } from './model.js';
export type { UciDataset, UciScore } from './uci.js';

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

/** The general-lexicon valence of one (lowercased) word, -1..1, or undefined: the aspect analyzer's fallback. */
export function wordValence(word: string): number | undefined {
  return valenceOf(model(), word);
}

/**
 * Accuracy on the UCI sentence files, each computed with a model that never saw that file: Yelp with the shipped
 * model (trained on Amazon + IMDB), Amazon with one trained on IMDB only, IMDB with one trained on Amazon only.
 * Needs the `sentiment` dev package, which ships the files.
 */
export function evaluateUci(): UciScore[] {
  return evaluate(model(), file.trainedOn, baseLexiconOf(file));
}
