// The published texts as the insights read them: per review its distinct words, its candidate topic phrases and
// whether it describes urgent work, and how many reviews use each word and phrase. A text is read once, when it is
// put; the counts follow each text put and deleted.
import { foldedText } from '../analysis/fold.js';
import {
  ENTRIES,
  INSTALL_WORDS,
  INTENSIFIERS,
  NEGATORS,
  REPAIR_WORDS,
  REVIEW_TALK,
  URGENCY_TERMS,
} from '../analysis/lexicon.js';

/** What one text contributes, as ids into its index's words and phrases. */
export interface TextFeatures {
  readonly words: Int32Array;
  readonly phrases: Int32Array;
  readonly urgent: boolean;
}

export interface Phrase {
  /** Its words, space-separated. */
  readonly text: string;
  readonly words: readonly number[];
  /** The whole phrase is an opinion entry of the lexicon ("on time"): never a topic. */
  readonly opinion: boolean;
  /** It names an aspect ("shoe covers", "call fee", "careful work"): the aspects report it, never a topic. */
  readonly aspect: boolean;
  /** It talks of reviewing or finding the business ("reading reviews"): boilerplate, never a topic. */
  readonly boilerplate: boolean;
  /** Left to the topic finder, which decides it once per phrase. */
  nounPhrase?: boolean;
}

const STOPWORDS = new Set(
  (
    'a an the and or but if then than so to of in on at by for with from as is are was were be been being am it its this that ' +
    'these those there here i me my we our us you your he him his she her they them their what which who whom whose when ' +
    'where why how all any both each few more most other some such only own same too very can will just do does did done ' +
    'have has had having would could should about into over after before again further once up down out off while until ' +
    'because also get got go went come came one two three really well even still back much many lot lots day days time ' +
    'today yesterday week weeks year years month months thing things way made make said told ask asked new old first last'
  ).split(' '),
);

/**
 * Whether some run of the words is a lexicon entry with an aspect. A lone word for the work itself ("repair",
 * "install") does not count: "ac repair" and "water heater install" are topics.
 */
function namesAspect(words: readonly string[]): boolean {
  for (let from = 0; from < words.length; from++) {
    for (let to = from + 1; to <= words.length; to++) {
      const run = words.slice(from, to);
      if (run.length === 1 && (INSTALL_WORDS.has(run[0]!) || REPAIR_WORDS.has(run[0]!))) continue;
      if (ENTRIES[run.join(' ')]?.aspect !== undefined) return true;
    }
  }
  return false;
}

/** A word no topic phrase may contain: opinions, negators, intensifiers, numbers and single letters. */
function excluded(word: string): boolean {
  const entry = ENTRIES[word];
  return (
    (entry?.valence !== undefined && entry.aspect === undefined) ||
    NEGATORS.has(word) ||
    word in INTENSIFIERS ||
    /^\d+$/.test(word) ||
    word.length < 2
  );
}

/**
 * Splits folded text into words and clause breaks in one pass: a capture is a run of break marks (phrases never
 * span a sentence or clause break), any other non-letter, non-digit run separates words.
 */
const TOKENS = /([.!?;:,()\n"]+)|[^\p{L}\p{N}.!?;:,()\n"]+/u;

// Word and word-pair ids stay below this, so two ids make one exact number key (2^26 · 2^26 < 2^53).
const ID_LIMIT = 2 ** 26;

// An index that knows this many phrases no text uses, and they are the majority, is stale.
const STALE_PHRASES = 100_000;

/** `counts`, or a copy twice as large when it must hold `size` entries. */
function fit(counts: Int32Array<ArrayBuffer>, size: number): Int32Array<ArrayBuffer> {
  if (size <= counts.length) return counts;
  const grown = new Int32Array(Math.max(size, counts.length * 2));
  grown.set(counts);
  return grown;
}

export class TextIndex {
  private readonly wordIds = new Map<string, number>();
  private readonly wordText: string[] = [];
  /** Per word id: a stopword (no phrase starts or ends with it), and excluded from phrases altogether. */
  private readonly stop: boolean[] = [];
  private readonly banned: boolean[] = [];
  /** Urgent terms as word-id sequences, by their first word's id. */
  private readonly urgentTerms = new Map<number, number[][]>();
  /** Two-word phrases by their pair key, three-word phrases by their first pair's number and last word. */
  private readonly bigrams = new Map<number, number>();
  private readonly pairs = new Map<number, number>();
  private readonly trigrams = new Map<number, number>();
  readonly phrases: Phrase[] = [];
  /** Per word and phrase id, the last text that used it: each text lists an id once. */
  private readonly wordSeen: number[] = [];
  private readonly phraseSeen: number[] = [];
  private texts = 0;
  /** How many of the indexed reviews use each word and phrase, kept up to date by `read`. */
  private wordCounts = new Int32Array(1024);
  private phraseCounts = new Int32Array(1024);
  private readonly byReview = new Map<string, { text: string; features: TextFeatures }>();

  constructor() {
    this.seed();
  }

  /**
   * The features of a review's text, read unless the index holds that text for it already; the counts of `counts()`
   * follow (the old text's taken back).
   */
  put(reviewId: string, text: string): TextFeatures {
    const entry = this.byReview.get(reviewId);
    if (entry?.text === text) return entry.features;
    if (entry) this.tally(entry.features, -1);
    const features = this.extract(text);
    this.tally(features, 1);
    this.byReview.set(reviewId, { text, features });
    return features;
  }

  delete(reviewId: string): void {
    const entry = this.byReview.get(reviewId);
    if (!entry) return;
    this.tally(entry.features, -1);
    this.byReview.delete(reviewId);
  }

  /** How many of the texts held use each word and each phrase, by id. */
  counts(): { words: Int32Array; phrases: Int32Array } {
    return {
      words: this.wordCounts.subarray(0, this.wordText.length),
      phrases: this.phraseCounts.subarray(0, this.phrases.length),
    };
  }

  /**
   * Whether the index knows so many phrases that no text uses any more (edits and deletions leave them behind) that
   * it is worth starting afresh: `clear`, then put every text again (their features get new ids).
   */
  stale(): boolean {
    let unused = 0;
    for (const n of this.counts().phrases) if (n === 0) unused++;
    return unused > STALE_PHRASES && unused > this.phrases.length / 2;
  }

  /** The id of a word, if the index has seen it. */
  wordId(word: string): number | undefined {
    return this.wordIds.get(word);
  }

  /** The id of a two- or three-word phrase (word ids), if some text has used it. */
  phraseId(words: readonly number[]): number | undefined {
    const [a, b, c] = words;
    if (a === undefined || b === undefined) return undefined;
    if (words.length === 2) return this.bigrams.get(a * ID_LIMIT + b);
    const pair = this.pairs.get(a * ID_LIMIT + b);
    return words.length === 3 && pair !== undefined && c !== undefined
      ? this.trigrams.get(pair * ID_LIMIT + c)
      : undefined;
  }

  private tally(features: TextFeatures, delta: 1 | -1): void {
    this.wordCounts = fit(this.wordCounts, this.wordText.length);
    this.phraseCounts = fit(this.phraseCounts, this.phrases.length);
    for (const w of features.words) this.wordCounts[w]! += delta;
    for (const p of features.phrases) this.phraseCounts[p]! += delta;
  }

  private seed(): void {
    for (const term of URGENCY_TERMS) {
      const ids = term.split(' ').map((w) => this.intern(w));
      this.urgentTerms.set(ids[0]!, [...(this.urgentTerms.get(ids[0]!) ?? []), ids]);
    }
  }

  clear(): void {
    for (const list of [this.wordText, this.stop, this.banned, this.phrases, this.wordSeen, this.phraseSeen])
      list.length = 0;
    for (const map of [this.wordIds, this.urgentTerms, this.bigrams, this.pairs, this.trigrams, this.byReview])
      map.clear();
    this.wordCounts = new Int32Array(1024);
    this.phraseCounts = new Int32Array(1024);
    this.seed();
  }

  private extract(text: string): TextFeatures {
    const mark = ++this.texts;
    const all: number[] = [];
    const words: number[] = [];
    const phrases: number[] = [];
    const add = (phrase: number) => {
      if (this.phraseSeen[phrase] !== mark) {
        this.phraseSeen[phrase] = mark;
        phrases.push(phrase);
      }
    };
    let pieceStart = 0;
    const tokens = foldedText(text).split(TOKENS);
    for (let k = 0; k < tokens.length; k++) {
      const token = tokens[k];
      // Odd places hold the captured break runs (undefined where a plain separator matched).
      if (k % 2 === 1) {
        if (token !== undefined) pieceStart = all.length;
        continue;
      }
      if (!token) continue;
      const c = this.intern(token);
      all.push(c);
      if (this.wordSeen[c] !== mark) {
        this.wordSeen[c] = mark;
        words.push(c);
      }
      // The two- and three-word phrases ending here, within the piece.
      const j = all.length - 1;
      if (j - 1 < pieceStart || this.stop[c] || this.banned[c]) continue;
      const b = all[j - 1]!;
      if (!this.stop[b] && !this.banned[b]) add(this.bigram(b, c));
      if (j - 2 < pieceStart || this.banned[b]) continue;
      const a = all[j - 2]!;
      if (!this.stop[a] && !this.banned[a]) add(this.trigram(a, b, c));
    }
    // Urgent terms are matched on the words end to end, across breaks: "on a Sunday" and "on a. Sunday" alike.
    const urgent = all.some(
      (w, i) => this.urgentTerms.get(w)?.some((term) => term.every((t, n) => all[i + n] === t)) ?? false,
    );
    return { words: new Int32Array(words), phrases: new Int32Array(phrases), urgent };
  }

  private intern(word: string): number {
    let id = this.wordIds.get(word);
    if (id === undefined) {
      id = this.wordText.length;
      if (id >= ID_LIMIT) throw new Error('text index: vocabulary too large');
      this.wordIds.set(word, id);
      this.wordText.push(word);
      this.stop.push(STOPWORDS.has(word));
      this.banned.push(excluded(word));
    }
    return id;
  }

  private bigram(a: number, b: number): number {
    const key = a * ID_LIMIT + b;
    let id = this.bigrams.get(key);
    if (id === undefined) this.bigrams.set(key, (id = this.newPhrase([a, b])));
    return id;
  }

  private trigram(a: number, b: number, c: number): number {
    const pairKey = a * ID_LIMIT + b;
    let pair = this.pairs.get(pairKey);
    if (pair === undefined) {
      pair = this.pairs.size;
      if (pair >= ID_LIMIT) throw new Error('text index: too many word pairs');
      this.pairs.set(pairKey, pair);
    }
    const key = pair * ID_LIMIT + c;
    let id = this.trigrams.get(key);
    if (id === undefined) this.trigrams.set(key, (id = this.newPhrase([a, b, c])));
    return id;
  }

  private newPhrase(words: number[]): number {
    const written = words.map((w) => this.wordText[w]!);
    const text = written.join(' ');
    this.phrases.push({
      text,
      words,
      opinion: ENTRIES[text]?.valence !== undefined,
      aspect: namesAspect(written),
      boilerplate: written.some((w) => REVIEW_TALK.has(w)),
    });
    return this.phrases.length - 1;
  }
}
