// Turns a sentence into weighted polarity features: lexicon words in their context (negation, contrast, emphasis,
// wishes), general review patterns, and plain content words for the learned fallback. Pure; no model needed.
import {
  BACK_VERBS,
  BOOSTERS,
  COMPARED_SELF,
  CONTRAST,
  FUNCTION_WORDS,
  IRREALIS,
  LIKE_SUBJECTS,
  MANNER,
  PHRASES,
  REPEAT_VERBS,
  STRONG_NEGATORS,
  SUBORDINATORS,
  WEAK_NEGATORS,
} from './lexicon.js';
import type { Speller } from './spelling.js';
import { tokenize, type Token } from './tokenize.js';

/** Logit per lexicon point (VADER's −4..4 scale): the rule-based prior the learned weights start from. */
const LOGIT_PER_POINT = 0.7;
// VADER's measured damping for a negated positive word ("not great" is weaker than "bad").
const NEGATED_POSITIVE = -0.74;
// A forbidden harm keeps its sign as a warning ("don't waste your money", "never buy here").
const IMPERATIVE_NEGATIVE = 0.5;
const NEGATION_WINDOW = 5;
const BEFORE_CONTRAST = 0.5;
const AFTER_CONTRAST = 1.5;
const CAPS_EMPHASIS = 1.3;
// "will be back" / "won't be back" are among the clearest verdicts a customer gives.
const REPEAT_POINTS = 2;
// "too" before a word that is not already negative ("too small", "too long") complains.
const TOO_POINTS = -1;

const PUNCTUATION = new Set(['.', ',', ';', ':', '!', '?']);
const isNegator = (w: string): boolean => STRONG_NEGATORS.has(w) || WEAK_NEGATORS.has(w);
const isBreak = (w: string): boolean => PUNCTUATION.has(w) || CONTRAST.has(w) || SUBORDINATORS.has(w);
const isNumber = (w: string): boolean => w.charCodeAt(0) >= 48 && w.charCodeAt(0) <= 57;

export interface Features {
  /** Feature keys with their context multipliers and rule-based prior weights (logits per unit of value). */
  readonly keys: string[];
  readonly values: number[];
  readonly priors: number[];
  /** Lexicon words and patterns found: zero means the rules saw no opinion at all. */
  readonly hits: number;
  /** Content words (negation-marked) for the fallback model; empty when `hits` is not zero, unless asked for. */
  readonly content: string[];
}

// Phrases by first word, longest first, so "sent it back" is tried before anything shorter.
const PHRASES_BY_FIRST = new Map<string, { words: string[]; key: string; valence: number }[]>();
for (const [phrase, valence] of PHRASES) {
  const words = phrase.split(' ');
  const list = PHRASES_BY_FIRST.get(words[0]!) ?? [];
  list.push({ words, key: `P:${words.join('_')}`, valence });
  list.sort((a, b) => b.words.length - a.words.length);
  PHRASES_BY_FIRST.set(words[0]!, list);
}

function phraseAt(t: Token[], i: number): { words: string[]; key: string; valence: number } | undefined {
  return PHRASES_BY_FIRST.get(t[i]!.w)?.find((p) => p.words.every((w, k) => t[i + k]?.w === w));
}

// Inflections the lexicons list only in their base form ("happier", "happily", "nicely"). Only comparatives and
// adverbs: also stripping -ed, -s or -ing measured no better and guesses more.
const SUFFIXES: readonly [string, string][] = [
  ['iest', 'y'],
  ['ier', 'y'],
  ['ily', 'y'],
  ['ly', ''],
];

function lookup(w: string, lexicon: ReadonlyMap<string, number>, speller: Speller | undefined): number | undefined {
  const v = lexicon.get(w);
  if (v !== undefined || w.length < 5) return v;
  for (const [suffix, replacement] of SUFFIXES) {
    if (!w.endsWith(suffix)) continue;
    const stem = w.slice(0, -suffix.length);
    const found =
      lexicon.get(stem + replacement) ??
      (replacement === '' && stem.at(-1) === stem.at(-2) ? lexicon.get(stem.slice(0, -1)) : undefined);
    if (found !== undefined) return found;
  }
  const meant = speller?.correct(w);
  return meant === undefined ? undefined : lexicon.get(meant);
}

/** Hyphenated words the lexicon does not know are read as their parts ("well-made" → "well", "made"). */
function expand(tokens: Token[], lexicon: ReadonlyMap<string, number>): Token[] {
  if (!tokens.some((t) => t.w.includes('-'))) return tokens;
  return tokens.flatMap((t) =>
    t.w.includes('-') && !lexicon.has(t.w) ? t.w.split('-').map((w) => ({ w, caps: t.caps })) : [t],
  );
}

// Star and score ratings ("5 stars", "10/10", "9 out of 10") on VADER's scale, or undefined.
function rating(tokens: Token[], i: number): number | undefined {
  const n = Number(tokens[i]?.w);
  const next = tokens[i + 1]?.w;
  if (next === 'star' || next === 'stars') return n <= 5 ? Math.max(-4, (n - 3) * 1.5) : undefined;
  let outOf: number | undefined;
  if (next === 'out' && tokens[i + 2]?.w === 'of') outOf = Number(tokens[i + 3]?.w);
  if (outOf === undefined || !(outOf >= n && outOf > 0)) return undefined;
  return Math.max(-4, Math.min(4, (n / outOf - 0.6) * 7.5));
}

function fraction(w: string): number | undefined {
  const slash = w.indexOf('/');
  if (slash < 0) return undefined;
  const n = Number(w.slice(0, slash));
  const d = Number(w.slice(slash + 1));
  return d > 0 && n <= d ? Math.max(-4, Math.min(4, (n / d - 0.6) * 7.5)) : undefined;
}

// Lexicon senses that are not opinions in context: "tastes like", "pretty good", "as well as", "sort of".
function notAnOpinion(w: string, prev: string, next: string, lexicon: ReadonlyMap<string, number>): boolean {
  if (w === 'like') return !LIKE_SUBJECTS.has(prev);
  if (w === 'pretty') return lexicon.has(next) || BOOSTERS.has(next) || next === 'much';
  if (w === 'well') return prev === 'as' || next === 'as' || prev === '';
  return w === 'sort' && next === 'of';
}

export interface ExtractOptions {
  /** Also list content words when opinions were found, which only training needs. */
  allContent?: boolean;
  speller?: Speller;
}

export function extractFeatures(
  text: string,
  lexicon: ReadonlyMap<string, number>,
  options: ExtractOptions = {},
): Features {
  const { allContent = false, speller } = options;
  const t = expand(tokenize(text), lexicon);
  const reading = new Reading(t, lexicon, speller);
  for (let i = 0; i < t.length;) i += reading.read(i);
  const { keys, values, priors, hits } = reading;
  return { keys, values, priors, hits, content: hits > 0 && !allContent ? [] : contentWords(t) };
}

/** Each token's contrast weight: words before a "but" count less, words after it more. */
function contrastWeights(t: Token[]): Float64Array {
  const clause = new Float64Array(t.length).fill(1);
  for (let i = 1; i < t.length; i++) {
    if (!CONTRAST.has(t[i]!.w)) continue;
    for (let j = 0; j < i; j++) clause[j]! *= BEFORE_CONTRAST;
    for (let j = i + 1; j < t.length; j++) clause[j]! *= AFTER_CONTRAST;
  }
  return clause;
}

/** A word's opinion as read in its place: its lexicon value (if it is one here), its key, and whether it is denied. */
interface Sense {
  key: string;
  valence: number | undefined;
  negated: boolean;
  /** "could not be happier": a denied comparison praises, and its "could" wishes for nothing. */
  deniedComparison: boolean;
}

/**
 * One left-to-right reading of a sentence: the features found so far, and what holds at the current word (a
 * negator within reach, a wish, a complaint made in this clause). A break (punctuation, "but", "because") ends
 * the negation, the wish and the complaint.
 */
class Reading {
  readonly keys: string[] = [];
  readonly values: number[] = [];
  readonly priors: number[] = [];
  hits = 0;
  private readonly clause: Float64Array;
  /** Capitals emphasise only against lower case; a sentence shouted whole is just shouted. */
  private readonly shouting: boolean;
  private negAt = -1;
  private strong = false;
  private imperative = false;
  private irrealis = false;
  private complained = false;

  constructor(
    private readonly t: Token[],
    private readonly lexicon: ReadonlyMap<string, number>,
    private readonly speller: Speller | undefined,
  ) {
    this.clause = contrastWeights(t);
    this.shouting = t.every((x) => x.caps || !/[a-z]/.test(x.w));
  }

  /** Reads the token at `i` (with what follows it, for a phrase); returns how many tokens it took. */
  read(i: number): number {
    const t = this.t;
    const w = t[i]!.w;
    const prev = i > 0 ? t[i - 1]!.w : '';
    const next = t[i + 1]?.w ?? '';
    if (isBreak(w)) {
      this.negAt = -1;
      this.irrealis = false;
      this.complained = false;
      if (w === '!' || w === '?') this.push(w, 1, 0);
      return 1;
    }
    const phrase = phraseAt(t, i);
    if (phrase !== undefined) {
      if (phrase.valence !== 0) this.readPhrase(phrase, i);
      return phrase.words.length;
    }
    // "far from the best" denies like "not".
    if (w === 'far' && next === 'from') {
      this.negAt = i + 1;
      this.strong = false;
      this.imperative = false;
      return 2;
    }
    if (isNegator(w)) this.readNegator(w, i, prev);
    else if (isNumber(w)) this.readNumber(w, i);
    else this.readWord(w, i, prev, next);
    return 1;
  }

  private push(key: string, value: number, prior: number): void {
    this.keys.push(key);
    this.values.push(value);
    this.priors.push(prior);
  }

  private negatedAt(i: number): boolean {
    return this.negAt >= 0 && i - this.negAt <= NEGATION_WINDOW;
  }

  private readPhrase(phrase: { key: string; valence: number }, i: number): void {
    this.hits++;
    const prior = LOGIT_PER_POINT * phrase.valence;
    if (!this.negatedAt(i)) this.push(phrase.key, this.clause[i]!, prior);
    else this.push(`NEG_${phrase.key}`, this.clause[i]!, phrase.valence > 0 ? NEGATED_POSITIVE * prior : 0);
  }

  private readNegator(w: string, i: number, prev: string): void {
    const t = this.t;
    this.negAt = i;
    this.strong = STRONG_NEGATORS.has(w);
    const start =
      i === 0 ||
      PUNCTUATION.has(prev) ||
      prev === 'please' ||
      (prev === 'do' && (i === 1 || PUNCTUATION.has(t[i - 2]!.w)));
    this.imperative = start && (w === 'dont' || w === 'never' || (w === 'not' && prev === 'do'));
    this.push(w, 1, 0);
  }

  private readNumber(w: string, i: number): void {
    const points = rating(this.t, i) ?? fraction(w);
    if (points === undefined) return;
    this.hits++;
    this.push('RATING', points, LOGIT_PER_POINT);
  }

  private readWord(w: string, i: number, prev: string, next: string): void {
    const t = this.t;
    if (IRREALIS.has(w) || (w === 'have' && (prev === 'would' || prev === 'should' || prev === 'could')))
      this.irrealis = true;
    const { key, valence, negated, deniedComparison } = this.sense(w, i, prev, next);
    if (this.complained && MANNER.has(w)) {
      this.push('MANNER', this.clause[i]!, -LOGIT_PER_POINT);
      this.hits++;
      return;
    }
    let m = this.clause[i]!;
    if (t[i]!.caps && !this.shouting) m *= CAPS_EMPHASIS;
    m *= 1 + (BOOSTERS.get(prev) ?? 0);
    if (this.irrealis && valence !== undefined && valence > 0 && !negated && !deniedComparison) m = 0;
    if (valence !== undefined) this.hits++;

    if (prev === 'too' && (valence === undefined || valence > 0) && next !== '')
      this.push('TOO_X', m, LOGIT_PER_POINT * TOO_POINTS);
    if (
      (w === 'again' || (w === 'back' && BACK_VERBS.has(prev))) &&
      t.slice(Math.max(0, i - 4), i).some((x) => REPEAT_VERBS.has(x.w))
    ) {
      this.hits++;
      this.push(negated ? 'NEG_REPEAT' : 'REPEAT', m, (negated ? -1 : 1) * LOGIT_PER_POINT * REPEAT_POINTS);
    }
    if (valence !== undefined && valence < 0 && !negated) this.complained = true;
    this.pushWord(key, valence, negated, m);
  }

  /** The word's own feature, keyed by how it is denied. */
  private pushWord(key: string, valence: number | undefined, negated: boolean, m: number): void {
    const prior = valence === undefined ? 0 : LOGIT_PER_POINT * valence;
    if (!negated) this.push(key, m, prior);
    else if (valence === undefined || valence > 0)
      this.push(`NEG_${key}`, m, valence === undefined ? 0 : NEGATED_POSITIVE * prior);
    else if (this.imperative) this.push(`IMP_${key}`, m, IMPERATIVE_NEGATIVE * prior);
    // A denied complaint has no fixed sign ("no problems" praises, "didn't bother to call" does not): prior 0, the
    // weight is learned. Flipping it like VADER does measured worse on the held-out files.
    else this.push(`${this.strong ? 'NO' : 'NEG'}_${key}`, m, 0);
  }

  private sense(w: string, i: number, prev: string, next: string): Sense {
    const t = this.t;
    let negated = this.negatedAt(i);
    let valence = lookup(w, this.lexicon, this.speller);
    let key = w;
    if (valence !== undefined && notAnOpinion(w, prev, next, this.lexicon)) {
      valence = undefined;
      key = `${w}~`;
    }
    let deniedComparison = false;
    if (
      negated &&
      valence !== undefined &&
      valence > 0 &&
      (w.endsWith('er') || prev === 'more') &&
      t.slice(this.negAt, i).some((x) => x.w === 'be')
    ) {
      negated = false;
      deniedComparison = true;
    }
    // "sounds better than these": the comparison goes against the thing reviewed.
    if (valence !== undefined && valence > 0 && next === 'than' && COMPARED_SELF.has(t[i + 2]?.w ?? ''))
      negated = !negated;
    return { key, valence, negated, deniedComparison };
  }
}

/** Negation-marked content words: what the fallback model reads when no opinion word was found. */
function contentWords(t: Token[]): string[] {
  const out: string[] = [];
  let negated = false;
  for (const { w } of t) {
    if (isBreak(w)) negated = false;
    else if (isNegator(w)) {
      negated = true;
      out.push('NEG');
    } else if (!FUNCTION_WORDS.has(w) && !isNumber(w)) out.push(negated ? `NEG_${w}` : w);
  }
  return out;
}
