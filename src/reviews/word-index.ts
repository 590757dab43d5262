// The words and separators of the folded review texts, for substring search: which texts can hold a query, from the
// texts having the words its fragments must be part of, and which do, from each text's words and separators in
// order, exactly as `foldedText.includes(foldedQuery)` would answer, without reading a text.
import { bitsetOf, setBit, type Bitset } from './bitset.js';
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

/** Tokens located between pauses (`sealing`): some 5–10 ms of work. */
const LOCATE_SLICE = 1 << 19;

/** How a query is answered from the index; valid until the next `match`, which reuses its buffers. */
export type TextMatch =
  /** Exactly the positions in `candidates` hold the query. */
  | { readonly exact: true; readonly candidates: Bitset }
  /** Only positions in `candidates` (any, if undefined) may hold it: `test` tells whether one does. */
  | { readonly exact: false; readonly candidates: Bitset | undefined; test(position: number): boolean };

/** Whether the run of tokens from `at` is a match, in a text whose tokens are [textStart, textEnd). */
type RunTest = (at: number, textStart: number, textEnd: number) => boolean;

/** Offsets of the sequence from `first` to before `end`, the tokens of the texts from position `from` on. */
interface OccurrenceRange {
  from: number;
  first: number;
  end: number;
}

/** The index of the first of sorted[low, high) at least `value` (high if none). */
function firstAtLeast(sorted: Int32Array, value: number, low: number, high: number): number {
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The last position from `from` on whose text starts at or before `offset` (`starts` ascends; the answer is below
 * `texts`): galloping ahead of `from`, then halving, so that ascending offsets cost a few steps each.
 */
function lastStartingBy(starts: Int32Array, offset: number, from: number, texts: number): number {
  let low = from;
  let step = 1;
  while (low + step < texts && starts[low + step]! <= offset) {
    low += step;
    step *= 2;
  }
  let high = Math.min(texts, low + step);
  // starts[low] <= offset < starts[high] (or high = texts)
  while (high - low > 1) {
    const middle = (low + high) >>> 1;
    if (starts[middle]! <= offset) low = middle;
    else high = middle;
  }
  return low;
}

/**
 * Each text as a sequence of tokens, a token being a word with the separator run after it (3.7 million at 100,000
 * reviews, 2 bytes each), the positions (indexes into the reviews) of the texts having each word, and where in the
 * sequence each word occurs (4 bytes a token): a query of several words, or with separators around its word, is
 * answered from the occurrences of its rarest word, each read with its neighbours, rather than by reading whole texts.
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
  private readonly tokenWord: number[] = [];
  private readonly sequence: TokenSequence;
  /**
   * Where each word occurs: the offsets into the sequence of its tokens, ascending, are
   * occurrences[occurrenceStarts[word]] up to occurrences[occurrenceStarts[word + 1]] (after `seal`).
   */
  private occurrences = new Int32Array(0);
  private occurrenceStarts = new Int32Array(0);
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

  /** Every text is added: makes what queries need at once. */
  seal(): this {
    for (const _ of this.sealing());
    return this;
  }

  /**
   * Every text is added: makes what queries need a step at a time (some 10 ms each at 100,000 texts), for a caller
   * that answers requests between steps. The index answers queries once the steps are done.
   */
  *sealing(): Generator<void, void> {
    this.vocabulary.seal();
    this.sequence.seal();
    yield;
    yield* this.locateWords();
    this.tokenRoles = new Uint8Array(this.tokenSeparator.length);
    this.separatorRoles = new Uint8Array(this.separators.length);
  }

  /**
   * How to find the texts holding `query` (folded), or undefined when the index cannot tell (it has a lone surrogate):
   * then every text must be read. `within` is how many positions the other filters leave, all in [from, to) (a date
   * range), which tells whether narrowing by postings, or by occurrences in that range, is worth it.
   */
  match(query: string, within: number, from = 0, to = this.sequence.starts.length - 1): TextMatch | undefined {
    const shape = shapeOf(query);
    if (!shape) return hasLoneSurrogate(query) ? undefined : this.withinSeparators(query);
    const { lead, fragments, between, trail } = shape;
    const fitting = fragments.map((fragment) => this.vocabulary.fitting(fragment));
    const separatorIds = between.map((separator) => this.separatorIds.get(separator) ?? -1);
    const middle = fitting.slice(1, -1).map(([word], i) => this.tokenOf(word ?? -1, separatorIds[i + 1]!));
    if (fitting.some((words) => words.length === 0) || separatorIds.includes(-1) || middle.includes(-1))
      return this.none();

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
    if (!this.markTokens(fitting[0]!, FIRST_TOKEN, several ? (separator) => separator === separatorIds[0] : endsMatch))
      return this.none();
    if (several && !this.markTokens(fitting[fitting.length - 1]!, LAST_TOKEN, endsMatch)) return this.none();

    const run = this.runTest(fragments.length, lead !== '', middle);
    if (several || lead || trail) {
      // Reading the neighbours of the rarest fragment's occurrences, when there are fewer of them than steps of
      // reading the texts the other filters leave.
      const range = this.occurrenceRange(from, to);
      const [rarest, occurrences] = this.rarest(fitting, range);
      if (occurrences <= STEPS_PER_TEST * within)
        return { exact: true, candidates: this.located(fitting[rarest]!, rarest, run, range) };
    }
    const candidates = this.narrow(fitting, within);
    // One fragment inside a word is in a text exactly when a word of the text has it.
    if (candidates && !several && !lead && !trail) return { exact: true, candidates };
    return { exact: false, candidates, test: this.matcher(fragments.length, run) };
  }

  /** The offsets of the sequence that texts [from, to) hold, as a range of occurrences of each word. */
  private occurrenceRange(from: number, to: number): OccurrenceRange {
    const { starts } = this.sequence;
    return { from, first: starts[from]!, end: starts[to]! };
  }

  /** Where `word`'s occurrences within `range` are: [its index of the first, its index past the last). */
  private occurrencesIn(word: number, range: OccurrenceRange): [number, number] {
    const first = this.occurrenceStarts[word]!;
    const end = this.occurrenceStarts[word + 1]!;
    return [
      firstAtLeast(this.occurrences, range.first, first, end),
      firstAtLeast(this.occurrences, range.end, first, end),
    ];
  }

  /** The fragment whose words occur the fewest times within `range`, and how many times. */
  private rarest(
    fitting: readonly (readonly number[])[],
    range: OccurrenceRange,
  ): [fragment: number, occurrences: number] {
    let rarest = 0;
    let fewest = Infinity;
    fitting.forEach((words, fragment) => {
      let occurrences = 0;
      for (const word of words) {
        const [first, end] = this.occurrencesIn(word, range);
        occurrences += end - first;
      }
      if (occurrences < fewest) [rarest, fewest] = [fragment, occurrences];
    });
    return [rarest, fewest];
  }

  /**
   * The positions of the texts holding the query: each occurrence of `words` within `range` is the `fragment`th token
   * of a run that `run` tests, if the run lies within one text.
   */
  private located(words: readonly number[], fragment: number, run: RunTest, range: OccurrenceRange): Bitset {
    const candidates = this.candidates.fill(0);
    const { starts } = this.sequence;
    const texts = starts.length - 1;
    for (const word of words) {
      const [first, end] = this.occurrencesIn(word, range);
      let position = range.from;
      for (let i = first; i < end; i++) {
        const offset = this.occurrences[i]!;
        // The text holding the occurrence: the last one starting at or before it, found ahead of the last one found.
        position = lastStartingBy(starts, offset, position, texts);
        const at = offset - fragment;
        if (at >= starts[position]! && run(at, starts[position]!, starts[position + 1]!)) setBit(candidates, position);
      }
    }
    return candidates;
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
   * Whether a run of `count` tokens from `at`, in a text whose tokens are [textStart, textEnd), is a match: the first
   * token able to start it (its word fits the first fragment and its separator is the query's first one, or starts
   * with its trail), then exactly the middle tokens, then one able to end it; with a lead, the separator before the
   * run must end with it.
   */
  private runTest(count: number, lead: boolean, middle: readonly number[]): RunTest {
    const { tokens } = this.sequence;
    const { tokenSeparator, tokenRoles, separatorRoles } = this;
    const lastOffset = count - 1;
    return (at, textStart, textEnd) => {
      if (at + lastOffset >= textEnd || (tokenRoles[tokens[at]!]! & FIRST_TOKEN) === 0) return false;
      if (count > 1) {
        let i = 0;
        while (i < middle.length && tokens[at + 1 + i] === middle[i]) i++;
        if (i < middle.length || (tokenRoles[tokens[at + lastOffset]!]! & LAST_TOKEN) === 0) return false;
      }
      // A lead needs a token before the run: a text starting with a separator starts with a token of NO_WORD.
      if (lead && (at === textStart || (separatorRoles[tokenSeparator[tokens[at - 1]!]!]! & ENDS_WITH_LEAD) === 0))
        return false;
      return true;
    };
  }

  /** Whether the text at a position holds the query: some run of `count` tokens of it that `run` accepts. */
  private matcher(count: number, run: RunTest): (position: number) => boolean {
    const { starts } = this.sequence;
    const lastOffset = count - 1;
    return (position) => {
      const textStart = starts[position]!;
      const textEnd = starts[position + 1]!;
      for (let at = textStart; at < textEnd - lastOffset; at++) if (run(at, textStart, textEnd)) return true;
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
    return marked
      ? { exact: false, candidates: undefined, test: this.matcher(1, this.runTest(1, false, [])) }
      : this.none();
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

  /**
   * Lists where each word occurs: a counting sort of the sequence's offsets by word, LOCATE_SLICE tokens a step (some
   * 40 ms in all at 100,000 texts).
   */
  private *locateWords(): Generator<void, void> {
    const { tokens } = this.sequence;
    const tokenWord = Int32Array.from(this.tokenWord);
    const starts = new Int32Array(this.vocabulary.size + 1);
    for (let from = 0; from < tokens.length; from += LOCATE_SLICE) {
      for (let at = from, end = Math.min(tokens.length, from + LOCATE_SLICE); at < end; at++)
        starts[tokenWord[tokens[at]!]! + 1]!++;
      yield;
    }
    for (let word = 0; word < this.vocabulary.size; word++) starts[word + 1]! += starts[word]!;
    const next = starts.slice(0, -1);
    const occurrences = new Int32Array(tokens.length);
    for (let from = 0; from < tokens.length; from += LOCATE_SLICE) {
      for (let at = from, end = Math.min(tokens.length, from + LOCATE_SLICE); at < end; at++)
        occurrences[next[tokenWord[tokens[at]!]!]!++] = at;
      yield;
    }
    this.occurrences = occurrences;
    this.occurrenceStarts = starts;
  }

  private push(word: number, separator: number): void {
    let token = this.tokenOf(word, separator);
    if (token < 0) {
      token = this.tokenSeparator.length;
      this.tokenSeparator.push(separator);
      this.tokenWord.push(word);
      while (this.tokensOfWord.length <= word) this.tokensOfWord.push([]);
      this.tokensOfWord[word]!.push(separator, token);
    }
    this.sequence.push(token);
  }
}
