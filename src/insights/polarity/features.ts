// Turns a sentence into weighted polarity features: lexicon words in their context (negation, contrast, emphasis,
// wishes), general review patterns, and plain content words for the learned fallback. Pure; no model needed.
import {
  BACK_VERBS,
  BOOSTERS,
  CONTRAST,
  FUNCTION_WORDS,
  IRREALIS,
  LIKE_SUBJECTS,
  REPEAT_VERBS,
  STRONG_NEGATORS,
  SUBORDINATORS,
  WEAK_NEGATORS,
} from './lexicon.js';
import { tokenize, type Token } from './tokenize.js';

/** Logit per lexicon point (VADER's −4..4 scale): the rule-based prior the learned weights start from. */
export const LOGIT_PER_POINT = 0.7;
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
  /** Content words (negation-marked) for the fallback model, used only when `hits` is zero. */
  readonly content: string[];
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

export function extractFeatures(text: string, lexicon: ReadonlyMap<string, number>): Features {
  const t = expand(tokenize(text), lexicon);
  const keys: string[] = [];
  const values: number[] = [];
  const priors: number[] = [];
  const push = (key: string, value: number, prior: number): void => {
    keys.push(key);
    values.push(value);
    priors.push(prior);
  };

  const clause = new Float64Array(t.length).fill(1);
  for (let i = 1; i < t.length; i++) {
    if (!CONTRAST.has(t[i]!.w)) continue;
    for (let j = 0; j < i; j++) clause[j]! *= BEFORE_CONTRAST;
    for (let j = i + 1; j < t.length; j++) clause[j]! *= AFTER_CONTRAST;
  }
  // Capitals emphasise only against lower case; a sentence shouted whole is just shouted.
  const shouting = t.every((x) => x.caps || !/[a-z]/.test(x.w));

  let hits = 0;
  let negAt = -1;
  let strong = false;
  let imperative = false;
  let irrealis = false;
  for (let i = 0; i < t.length; i++) {
    const w = t[i]!.w;
    const prev = i > 0 ? t[i - 1]!.w : '';
    const next = t[i + 1]?.w ?? '';
    if (isBreak(w)) {
      negAt = -1;
      irrealis = false;
      if (w === '!' || w === '?') push(w, 1, 0);
      continue;
    }
    if (isNegator(w)) {
      negAt = i;
      strong = STRONG_NEGATORS.has(w);
      const start = i === 0 || PUNCTUATION.has(prev) || prev === 'please' || (prev === 'do' && (i === 1 || PUNCTUATION.has(t[i - 2]!.w)));
      imperative = start && (w === 'dont' || w === 'never' || (w === 'not' && prev === 'do'));
      push(w, 1, 0);
      continue;
    }
    if (isNumber(w)) {
      const points = rating(t, i) ?? fraction(w);
      if (points !== undefined) {
        hits++;
        push('RATING', points, LOGIT_PER_POINT);
      }
      continue;
    }
    if (IRREALIS.has(w) || (w === 'have' && (prev === 'would' || prev === 'should' || prev === 'could'))) irrealis = true;

    let negated = negAt >= 0 && i - negAt <= NEGATION_WINDOW;
    let valence = lexicon.get(w);
    let key = w;
    if (valence !== undefined && notAnOpinion(w, prev, next, lexicon)) {
      valence = undefined;
      key = `${w}~`;
    }
    // "could not be happier": a denied comparison praises.
    if (negated && valence !== undefined && valence > 0 && (w.endsWith('er') || prev === 'more') && t.slice(negAt, i).some((x) => x.w === 'be')) {
      negated = false;
    }
    let m = clause[i]!;
    if (t[i]!.caps && !shouting) m *= CAPS_EMPHASIS;
    m *= 1 + (BOOSTERS.get(prev) ?? 0);
    if (irrealis && valence !== undefined && valence > 0 && !negated) m = 0;
    if (valence !== undefined) hits++;
    const prior = valence === undefined ? 0 : LOGIT_PER_POINT * valence;

    if (prev === 'too' && (valence === undefined || valence > 0) && next !== '') push('TOO_X', m, LOGIT_PER_POINT * TOO_POINTS);
    if ((w === 'again' || (w === 'back' && BACK_VERBS.has(prev))) && t.slice(Math.max(0, i - 4), i).some((x) => REPEAT_VERBS.has(x.w))) {
      hits++;
      push(negated ? 'NEG_REPEAT' : 'REPEAT', m, (negated ? -1 : 1) * LOGIT_PER_POINT * REPEAT_POINTS);
    }
    if (!negated) push(key, m, prior);
    else if (valence === undefined || valence > 0) push(`NEG_${key}`, m, valence === undefined ? 0 : NEGATED_POSITIVE * prior);
    else if (imperative) push(`IMP_${key}`, m, IMPERATIVE_NEGATIVE * prior);
    else push(`${strong ? 'NO' : 'NEG'}_${key}`, m, 0);
  }
  return { keys, values, priors, hits, content: hits > 0 ? [] : contentWords(t) };
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
