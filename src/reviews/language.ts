// The language of a review's text, detected offline when the platform does not say: a BCP 47 tag (ISO 639-1), `und`
// when the text is too short or too close between languages to tell. The detector (eld, its small model: 97.5% of
// 200 English and Spanish review sentences right, every wrong one under 20 letters, none wrong with the rule below)
// takes some 40 MB and 0.4 s to load, so it is loaded once, by the work that needs it, not by every process.
import type { eld as Eld } from 'eld/small';

export const UNDETERMINED = 'und';

/** Fewer letters than this tell nothing ("ok", "A+", "10/10"). */
const MIN_LETTERS = 4;
/** Below this many letters, a guess must lead the next language clearly: short texts are where detectors err. */
const SHORT_TEXT_LETTERS = 20;
const MIN_LEAD_ON_SHORT_TEXT = 0.05;
/**
 * Characters read of a longer text: the detector's time grows with the length (some 200 µs for a 600-character
 * review), and a few sentences tell the language as well as a whole review does.
 */
const READ_CHARACTERS = 400;

/** Letters in `text`, counted up to `enough`. */
function letters(text: string, enough: number): number {
  let count = 0;
  for (const _ of text.matchAll(/\p{L}/gu)) if (++count >= enough) break;
  return count;
}

let detector: typeof Eld | undefined;

/** Loads the detector; `detectLanguage` needs it loaded. */
export async function loadLanguageDetector(): Promise<void> {
  // A fresh instance: the module's own object is shared by everything that imports it.
  detector ??= (await import('eld/small')).eld.newInstance();
}

export function detectLanguage(text: string): string {
  if (!detector) throw new Error('the language detector is not loaded (await loadLanguageDetector() first)');
  const count = letters(text, SHORT_TEXT_LETTERS);
  if (count < MIN_LETTERS) return UNDETERMINED;
  const result = detector.detect(text.length > READ_CHARACTERS ? text.slice(0, READ_CHARACTERS) : text);
  if (!result.language) return UNDETERMINED;
  if (count < SHORT_TEXT_LETTERS) {
    const [best = 0, second = 0] = Object.values(result.getScores()).sort((a, b) => b - a);
    if (best - second < MIN_LEAD_ON_SHORT_TEXT) return UNDETERMINED;
  }
  return result.language;
}
