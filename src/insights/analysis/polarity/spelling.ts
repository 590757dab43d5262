// Reads common misspellings of strong opinion words (one slip: "excelent", "satisifed"; letters doubled in the wrong
// places: "dissapointing") as the word meant, unless the spelling is itself an English word ("fried" is not "fired").
// Built on first use; results memoised.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

// Short words and mild opinions are too easily confused with other words to be worth guessing.
const MIN_LENGTH = 6;
const MIN_VALENCE = 1.5;
const MEMO_LIMIT = 50_000;

let english: Set<string> | undefined;

/** wink-eng-lite-web-model's vocabulary (~88k forms): the words that are not misspellings. Read once per process. */
function englishWords(): Set<string> {
  english ??= readEnglishWords();
  return english;
}

function readEnglishWords(): Set<string> {
  const dir = dirname(createRequire(import.meta.url).resolve('wink-eng-lite-web-model'));
  const core: unknown = JSON.parse(
    readFileSync(join(dir, 'languages', 'cur', 'models', 'eng-core-web-model.json'), 'utf8'),
  );
  const list = (core as { features?: { lexeme?: { list?: unknown } } }).features?.lexeme?.list;
  if (!Array.isArray(list)) throw new Error('wink-eng-lite-web-model: no lexeme list where expected');
  return new Set(list.filter((w): w is string => typeof w === 'string').map((w) => w.toLowerCase()));
}

function deletions(w: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < w.length; i++) out.push(w.slice(0, i) + w.slice(i + 1));
  return out;
}

const VOWELS = new Set(['a', 'e', 'i', 'o', 'u']);

/**
 * Whether `typo` is `word` with one slip of the kinds people make: a doubled or undoubled letter ("excelent"), a
 * wrong, missing or extra vowel ("definitly", "incrediable"), or two neighbours swapped ("satisifed"). Consonant
 * swaps are left alone: they turn real words into other words ("tasted" → "wasted", "chargers" → "charmers").
 */
function typicalSlip(typo: string, word: string): boolean {
  let i = 0;
  while (i < typo.length && i < word.length && typo[i] === word[i]) i++;
  if (typo.length === word.length) {
    const a = typo[i] ?? '';
    const b = word[i] ?? '';
    if (typo.slice(i + 1) === word.slice(i + 1)) return VOWELS.has(a) && VOWELS.has(b);
    return a === word[i + 1] && typo[i + 1] === b && typo.slice(i + 2) === word.slice(i + 2);
  }
  const [long, short] = typo.length > word.length ? [typo, word] : [word, typo];
  if (long.length !== short.length + 1 || long.slice(i + 1) !== short.slice(i)) return false;
  const extra = long[i]!;
  return VOWELS.has(extra) || extra === long[i - 1] || extra === long[i + 1];
}

/** The word with every run of one letter written once: doubling slips ("dissapointed", "disappointed") agree on it. */
function skeleton(w: string): string {
  let out = '';
  for (let i = 0; i < w.length; i++) if (w[i] !== w[i - 1]) out += w[i];
  return out;
}

export class Speller {
  private indexes: { slips: Map<string, string[]>; skeletons: Map<string, string[]> } | undefined;
  private readonly memo = new Map<string, string | null>();

  constructor(private readonly lexicon: ReadonlyMap<string, number>) {}

  /** The lexicon word `word` most likely misspells, or undefined. */
  correct(word: string): string | undefined {
    if (word.length < MIN_LENGTH || !/^[a-z]+$/.test(word)) return undefined;
    const seen = this.memo.get(word);
    if (seen !== undefined) return seen ?? undefined;
    const found = this.search(word);
    if (this.memo.size >= MEMO_LIMIT) this.memo.clear();
    this.memo.set(word, found ?? null);
    return found;
  }

  private search(word: string): string | undefined {
    if (englishWords().has(word)) return undefined;
    const { slips, skeletons } = (this.indexes ??= this.build());
    const candidates = new Set<string>();
    for (const key of [word, ...deletions(word)]) for (const c of slips.get(key) ?? []) candidates.add(c);
    // Several equally close words: guessing between them would be arbitrary, so only a single candidate counts.
    const close = [...candidates].filter((c) => typicalSlip(word, c));
    if (close.length > 0) return close.length === 1 ? close[0] : undefined;
    // Letters doubled in the wrong places, however many ("dissapointing" for "disappointing").
    const doubled = skeletons.get(skeleton(word)) ?? [];
    return doubled.length === 1 ? doubled[0] : undefined;
  }

  /** The strong opinion words by each of their one-letter deletions (and themselves), and by their skeletons. */
  private build(): { slips: Map<string, string[]>; skeletons: Map<string, string[]> } {
    const slips = new Map<string, string[]>();
    const skeletons = new Map<string, string[]>();
    const add = (index: Map<string, string[]>, key: string, word: string): void => {
      const list = index.get(key);
      if (list === undefined) index.set(key, [word]);
      else if (!list.includes(word)) list.push(word);
    };
    for (const [word, valence] of this.lexicon) {
      if (word.length < MIN_LENGTH - 1 || Math.abs(valence) < MIN_VALENCE || !/^[a-z]+$/.test(word)) continue;
      add(slips, word, word);
      for (const d of deletions(word)) add(slips, d, word);
      add(skeletons, skeleton(word), word);
    }
    return { slips, skeletons };
  }
}
