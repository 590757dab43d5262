// Finds lexicon entries in a token sequence: longest match first, no overlaps, left to right.
import { ENTRIES, type Entry } from './lexicon.js';

/** Misspellings are looked for only in words this long: short words have too many neighbours. */
const FUZZY_MIN_LENGTH = 6;

function deletions(word: string): string[] {
  return Array.from({ length: word.length }, (_, i) => word.slice(0, i) + word.slice(i + 1));
}

export interface Match {
  /** Token positions [start, end). */
  start: number;
  end: number;
  entry: Entry;
  /** The words as written (filled in by the caller, which knows the source text). */
  text: string;
}

export class PhraseMatcher {
  /** First word → entries starting with it, longest first. */
  private readonly byFirst = new Map<string, { words: string[]; entry: Entry }[]>();
  /** Single-word entries by each of their one-letter deletions (a symmetric-delete spelling index). */
  private readonly fuzzy = new Map<string, string>();
  private readonly corrections = new Map<string, string>();

  private remember(token: string): string {
    const corrected = this.correct(token) ?? token;
    if (this.corrections.size < 100_000) this.corrections.set(token, corrected);
    return corrected;
  }

  constructor(entries: Readonly<Record<string, Entry>> = ENTRIES) {
    for (const [phrase, entry] of Object.entries(entries)) {
      const words = phrase.split(' ');
      const list = this.byFirst.get(words[0]!) ?? [];
      list.push({ words, entry });
      this.byFirst.set(words[0]!, list);
    }
    for (const list of this.byFirst.values()) list.sort((a, b) => b.words.length - a.words.length);
    for (const phrase of Object.keys(entries)) {
      if (phrase.includes(' ') || phrase.length < FUZZY_MIN_LENGTH) continue;
      for (const variant of deletions(phrase)) if (!this.fuzzy.has(variant)) this.fuzzy.set(variant, phrase);
      if (!this.fuzzy.has(phrase)) this.fuzzy.set(phrase, phrase);
    }
  }

  /** A one-letter slip ("resonable", "proffesional", "recieve") reads as the lexicon word it misspells. */
  private correct(token: string): string | undefined {
    if (token.length < FUZZY_MIN_LENGTH || this.byFirst.has(token)) return undefined;
    const direct = this.fuzzy.get(token);
    if (direct) return direct;
    for (const variant of deletions(token)) {
      const word = this.fuzzy.get(variant);
      if (word) return word;
    }
    return undefined;
  }

  find(original: readonly string[]): Match[] {
    const tokens = original.map((t) => this.corrections.get(t) ?? this.remember(t));
    const matches: Match[] = [];
    for (let i = 0; i < tokens.length; ) {
      const candidate = this.byFirst.get(tokens[i]!)?.find(({ words }) => words.every((w, k) => tokens[i + k] === w));
      if (candidate) {
        matches.push({ start: i, end: i + candidate.words.length, entry: candidate.entry, text: candidate.words.join(' ') });
        i += candidate.words.length;
      } else {
        i++;
      }
    }
    return matches;
  }
}
