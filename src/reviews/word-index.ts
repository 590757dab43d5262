// The words and separators of the folded review texts, for substring search: which texts can hold a query, from the
// texts having the words its fragments must be part of, and which do, from each text's words and separators in
// order, exactly as `foldedText.includes(foldedQuery)` would answer, without reading a text.
import { bitsetOf, type Bitset } from './bitset.js';
import { hasLoneSurrogate, shapeOf } from './query-shape.js';
import { separatorEnd, wordEnd } from './text-scan.js';
import { TokenSequence } from './token-sequence.js';
import { Vocabulary } from './vocabulary.js';

/** The empty word: its token carries the separator a text starts with, if any. */
const NO_WORD = 0;

/** What a token may be in a query's match (bits of `tokenRoles`), and a separator (bits of `separatorRoles`). */
const FIRST_TOKEN = 1;
const LAST_TOKEN = 2;
const ENDS_WITH_LEAD = 1;
const STARTS_WITH_TRAIL = 2;

/**
 * A test reads a text's tokens until a match, some tens of steps, where adding a posting (or 32 as bits) costs one: a
 * fragment's postings narrow the texts to test only when adding them costs less than this many steps per text the
 * other filters leave.
 */
const STEPS_PER_TEST = 16;

/** How a query is answered from the index; valid until the next `match`, which reuses its buffers. */
export type TextMatch =
  /** Exactly the positions in `candidates` hold the query. */
  | { readonly exact: true; readonly candidates: Bitset }
  /** Only positions in `candidates` (any, if undefined) may hold it: `test` tells whether one does. */
  | { readonly exact: false; readonly candidates: Bitset | undefined; test(position: number): boolean };

/**
 * Each text as a sequence of tokens, a token being a word with the separator run after it (3.7 million at 100,000
 * reviews, 2 bytes each), and the positions (indexes into the reviews) of the texts having each word.
 */
export class WordIndex {
  private readonly vocabulary: Vocabulary;
  private readonly separatorIds = new Map<string, number>();
  /** The ids of one-character separators below 128 (most separators are a space), found without a string. */
  private readonly asciiSeparatorIds = new Int32Array(128).fill(-1);
  private readonly separators: string[] = [];
  /** Per word, its tokens as [separator, token, separator, token, …]: a word is followed by few separators. */
  private readonly tokensOfWord: number[][] = [[]];
  private readonly tokenSeparator: number[] = [];
  private readonly sequence: TokenSequence;
  private added = 0;
  /** Buffers of `match`, reused by every query so that a search allocates nothing the size of the reviews. */
  private readonly candidates: Bitset;
  private tokenRoles = new Uint8Array(0);
  private separatorRoles = new Uint8Array(0);

  constructor(size: number) {
    this.vocabulary = new Vocabulary(NO_WORD + 1, size);
    this.candidates = bitsetOf(size);
    this.sequence = new TokenSequence(size);
  }

  /** Adds the text of the next position (the first is 0). */
  add(foldedText: string): void {
    const position = this.added++;
    let at = separatorEnd(foldedText, 0);
    // A text starting with a separator starts with a token of NO_WORD, which carries it.
    if (at > 0) this.push(NO_WORD, this.separatorId(foldedText, 0, at));
    while (at < foldedText.length) {
      const end = wordEnd(foldedText, at);
      const next = separatorEnd(foldedText, end);
      this.push(this.vocabulary.add(foldedText, at, end, position), this.separatorId(foldedText, end, next));
      at = next;
    }
    this.sequence.endText();
  }

  /** Every text is added. */
  seal(): this {
    this.vocabulary.seal();
    this.sequence.seal();
    this.tokenRoles = new Uint8Array(this.tokenSeparator.length);
    this.separatorRoles = new Uint8Array(this.separators.length);
    return this;
  }

  /**
   * How to find the texts holding `query` (folded), or undefined when the index cannot tell (it has a lone surrogate):
   * then every text must be read. `within` is how many positions the other filters leave, which tells whether
   * narrowing by postings is worth it.
   */
  match(query: string, within: number): TextMatch | undefined {
    const shape = shapeOf(query);
    if (!shape) return hasLoneSurrogate(query) ? undefined : this.withinSeparators(query);
    const { lead, fragments, between, trail } = shape;
    const fitting = fragments.map((fragment) => this.vocabulary.fitting(fragment));
    const separatorIds = between.map((separator) => this.separatorIds.get(separator) ?? -1);
    const middle = fitting.slice(1, -1).map(([word], i) => this.tokenOf(word ?? -1, separatorIds[i + 1]!));
    if (fitting.some((words) => words.length === 0) || separatorIds.includes(-1) || middle.includes(-1)) return this.none();

    const separatorRoles = this.separatorRoles.fill(0);
    if (lead || trail) {
      this.separators.forEach((separator, id) => {
        if (lead && separator.endsWith(lead)) separatorRoles[id]! |= ENDS_WITH_LEAD;
        if (trail && separator.startsWith(trail)) separatorRoles[id]! |= STARTS_WITH_TRAIL;
      });
    }
    // The tokens a match can start and end with, marked, so that a test looks up one mark a token.
    this.tokenRoles.fill(0);
    const endsMatch = (separator: number) => !trail || (separatorRoles[separator]! & STARTS_WITH_TRAIL) !== 0;
    const several = fragments.length > 1;
    if (!this.markTokens(fitting[0]!, FIRST_TOKEN, several ? (separator) => separator === separatorIds[0] : endsMatch)) return this.none();
    if (several && !this.markTokens(fitting[fitting.length - 1]!, LAST_TOKEN, endsMatch)) return this.none();

    const candidates = this.narrow(fitting, within);
    // One fragment inside a word is in a text exactly when a word of the text has it.
    if (candidates && !several && !lead && !trail) return { exact: true, candidates };
    return { exact: false, candidates, test: this.matcher(fragments.length, lead !== '', middle) };
  }

  /** Gives `role` to the tokens of `words` whose separator fits; whether there was any. */
  private markTokens(words: readonly number[], role: number, fits: (separator: number) => boolean): boolean {
    let marked = false;
    for (const word of words) {
      const pairs = this.tokensOfWord[word]!;
      for (let i = 0; i < pairs.length; i += 2) {
        if (!fits(pairs[i]!)) continue;
        this.tokenRoles[pairs[i + 1]!]! |= role;
        marked = true;
      }
    }
    return marked;
  }

  /** The positions having a word of the fragment the fewest texts have, if finding them costs less than testing. */
  private narrow(fitting: number[][], within: number): Bitset | undefined {
    let fewest: number[] = [];
    let fewestCount = Infinity;
    for (const words of fitting) {
      const count = words.reduce((n, word) => n + this.vocabulary.count(word), 0);
      if (count < fewestCount) [fewest, fewestCount] = [words, count];
    }
    if (fewest.reduce((n, word) => n + this.vocabulary.cost(word), 0) > STEPS_PER_TEST * within) return undefined;
    const candidates = this.candidates.fill(0);
    for (const word of fewest) this.vocabulary.addTo(candidates, word);
    return candidates;
  }

  /**
   * Whether a text holds the query: some run of `count` tokens, the first one able to start a match (its word fits
   * the first fragment and its separator is the query's first one, or starts with its trail), then exactly the
   * middle tokens, then one able to end it; with a lead, the separator before the run must end with it.
   */
  private matcher(count: number, lead: boolean, middle: readonly number[]): (position: number) => boolean {
    const { tokens, starts } = this.sequence;
    const { tokenSeparator, tokenRoles, separatorRoles } = this;
    const lastOffset = count - 1;
    return (position) => {
      const end = starts[position + 1]! - lastOffset;
      // A lead needs a token before the run: a text starting with a separator starts with a token of NO_WORD.
      for (let at = starts[position]! + (lead ? 1 : 0); at < end; at++) {
        if ((tokenRoles[tokens[at]!]! & FIRST_TOKEN) === 0) continue;
        if (count > 1) {
          let i = 0;
          while (i < middle.length && tokens[at + 1 + i] === middle[i]) i++;
          if (i < middle.length || (tokenRoles[tokens[at + lastOffset]!]! & LAST_TOKEN) === 0) continue;
        }
        if (lead && (separatorRoles[tokenSeparator[tokens[at - 1]!]!]! & ENDS_WITH_LEAD) === 0) continue;
        return true;
      }
      return false;
    };
  }

  /**
   * A query without letters or digits lies within one separator run of a text that holds it (every char of a word is
   * a letter or digit): the texts having a token whose separator holds the query.
   */
  private withinSeparators(query: string): TextMatch {
    const holding = this.separatorRoles.fill(0);
    this.separators.forEach((separator, id) => {
      if (separator.includes(query)) holding[id] = 1;
    });
    const tokenRoles = this.tokenRoles.fill(0);
    let marked = false;
    this.tokenSeparator.forEach((separator, token) => {
      if (holding[separator] === 0) return;
      tokenRoles[token] = FIRST_TOKEN;
      marked = true;
    });
    return marked ? { exact: false, candidates: undefined, test: this.matcher(1, false, []) } : this.none();
  }

  private none(): TextMatch {
    return { exact: true, candidates: this.candidates.fill(0) };
  }

  private separatorId(text: string, from: number, to: number): number {
    const code = to - from === 1 ? text.charCodeAt(from) : 128;
    if (code < 128 && this.asciiSeparatorIds[code]! >= 0) return this.asciiSeparatorIds[code]!;
    const separator = text.slice(from, to);
    let id = this.separatorIds.get(separator);
    if (id === undefined) {
      this.separatorIds.set(separator, (id = this.separators.length));
      this.separators.push(separator);
    }
    if (code < 128) this.asciiSeparatorIds[code] = id;
    return id;
  }

  /** The token of `word` followed by `separator`, or -1 if no text has it. */
  private tokenOf(word: number, separator: number): number {
    const pairs = this.tokensOfWord[word] ?? [];
    for (let i = 0; i < pairs.length; i += 2) if (pairs[i] === separator) return pairs[i + 1]!;
    return -1;
  }

  private push(word: number, separator: number): void {
    let token = this.tokenOf(word, separator);
    if (token < 0) {
      token = this.tokenSeparator.length;
      this.tokenSeparator.push(separator);
      while (this.tokensOfWord.length <= word) this.tokensOfWord.push([]);
      this.tokensOfWord[word]!.push(separator, token);
    }
    this.sequence.push(token);
  }
}
