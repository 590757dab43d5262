// Finds lexicon entries in a token sequence: longest match first, no overlaps, left to right.
import { ENTRIES, type Entry } from './lexicon.js';
import { Speller } from './polarity/spelling.js';

/** The speller weighs candidates by valence; every lexicon word is worth correcting to. */
const SPELLABLE = 4;

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
  private readonly speller: Speller;
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
    // Every single-word entry can be misspelt; the speller (shared with the polarity model) never "corrects" a real word.
    this.speller = new Speller(
      new Map(
        Object.keys(entries)
          .filter((p) => !p.includes(' '))
          .map((w) => [w, SPELLABLE]),
      ),
    );
  }

  /** A typical slip ("resonable", "proffesional", "dissapointed") reads as the lexicon word it misspells. */
  private correct(token: string): string | undefined {
    return this.byFirst.has(token) ? undefined : this.speller.correct(token);
  }

  find(original: readonly string[]): Match[] {
    const tokens = original.map((t) => this.corrections.get(t) ?? this.remember(t));
    const matches: Match[] = [];
    for (let i = 0; i < tokens.length;) {
      const candidate = this.byFirst.get(tokens[i]!)?.find(({ words }) => words.every((w, k) => tokens[i + k] === w));
      if (candidate) {
        matches.push({
          start: i,
          end: i + candidate.words.length,
          entry: candidate.entry,
          text: candidate.words.join(' '),
        });
        i += candidate.words.length;
      } else {
        i++;
      }
    }
    return matches;
  }
}
