// Finds lexicon entries in a token sequence: longest match first, no overlaps, left to right.
import { ENTRIES, type Entry } from './lexicon.js';

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

  constructor(entries: Readonly<Record<string, Entry>> = ENTRIES) {
    for (const [phrase, entry] of Object.entries(entries)) {
      const words = phrase.split(' ');
      const list = this.byFirst.get(words[0]!) ?? [];
      list.push({ words, entry });
      this.byFirst.set(words[0]!, list);
    }
    for (const list of this.byFirst.values()) list.sort((a, b) => b.words.length - a.words.length);
  }

  find(tokens: readonly string[]): Match[] {
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
