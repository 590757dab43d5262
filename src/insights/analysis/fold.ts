// Text in the form the lexicon is written in: folded as everywhere in the product, and without apostrophes.
import { fold } from '../../reviews/text.js';

/**
 * `fold` (case and accents) with apostrophes dropped: the lexicon spells "didn't" as "didnt", so one entry matches
 * "didn't", "didn’t" and "didnt" alike. Search keeps apostrophes (a query is matched as typed), hence two functions.
 */
export function foldedText(text: string): string {
  return fold(text).replace(/['’]/g, '');
}
