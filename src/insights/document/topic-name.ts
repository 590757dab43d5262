// A topic's name as customers write it: its phrase in the reviews' own words, hyphenated words whole ("spring
// tune-up", "50-amp circuit"), capitals kept unless they only open a sentence or a title ("AC repair", "EV charger").
import { fold } from '../../reviews/text.js';
import { foldedText } from '../analysis/fold.js';

const APOSTROPHES = /['’]/g;
const WORD = /[\p{L}\p{M}\p{N}'’]+/gu;
/** Between two words of one phrase: anything but a break the text index cuts phrases at. */
const GAP = /^[^.!?;:,()\n"]*$/;
const JOINED_AFTER = /^(?:-[\p{L}\p{M}\p{N}]+)+/u;
const JOINED_BEFORE = /(?:[\p{L}\p{M}\p{N}]+-)+$/u;
const TITLE_CASE = /^\p{Lu}[\p{Ll}\p{M}'’]+$/u;

/** "Water" → "water", "Tune-Up" → "tune-up"; "AC", "GFCI", "A-coil" stay as written. */
function caseOf(word: string): string {
  return word
    .split('-')
    .map((part) => (TITLE_CASE.test(part) ? part.toLowerCase() : part))
    .join('-');
}

/** How `words` (as the text index folds them) are written in `text`, the first time it uses them; else undefined. */
export function writtenForm(text: string, words: readonly string[]): string | undefined {
  // Folded once: where folding keeps every character's place (nearly always), a word's place in the folded text
  // is its place in the text; else each word is folded on its own.
  const whole = fold(text);
  const aligned = whole.length === text.length;
  const tokens = [...(aligned ? whole : text).matchAll(WORD)];
  const folded = tokens.map((t) => (aligned ? t[0].replace(APOSTROPHES, '') : foldedText(t[0])));
  for (let i = 0; i + words.length <= tokens.length; i++) {
    if (!words.every((w, k) => folded[i + k] === w)) continue;
    const first = tokens[i]!;
    const last = tokens[i + words.length - 1]!;
    let start = first.index;
    let end = last.index + last[0].length;
    if (
      !tokens
        .slice(i + 1, i + words.length)
        .every((t, k) => GAP.test(text.slice(tokens[i + k]!.index + tokens[i + k]![0].length, t.index)))
    )
      continue;
    start -= JOINED_BEFORE.exec(text.slice(Math.max(0, start - 40), start))?.[0].length ?? 0;
    end += JOINED_AFTER.exec(text.slice(end, end + 40))?.[0].length ?? 0;
    return text.slice(start, end).split(/\s+/).map(caseOf).join(' ');
  }
  return undefined;
}

/** The form most of `texts` write `words` in (the earliest on a tie), or the folded words when none does. */
export function topicName(texts: Iterable<string>, words: readonly string[]): string {
  const forms = new Map<string, number>();
  for (const text of texts) {
    const form = writtenForm(text, words);
    if (form !== undefined) forms.set(form, (forms.get(form) ?? 0) + 1);
  }
  let best = words.join(' ');
  let most = 0;
  for (const [form, n] of forms) {
    if (n > most) [best, most] = [form, n];
  }
  return best;
}
