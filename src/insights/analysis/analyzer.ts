// Per-review analysis: sentences (wink-nlp), clauses split on contrast, aspect terms with nearby opinions and
// negation, technicians and services recognised; every judgement carries the words that decided it.
import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import type { AspectId, Business } from '../../reviews/schemas.js';
import { EntityMatcher } from './entities.js';
import { foldedText } from './fold.js';
import { CONTRAST_MARKERS, DOWNTONERS, INTENSIFIERS, MODIFIER_PHRASES, NEGATION_STOPS, NEGATORS, RECURRENCE } from './lexicon.js';
import { PhraseMatcher, type Match } from './phrases.js';
import { textPolarity } from './polarity/index.js';
import { aspectFeatures, predictAspects, type AspectModel } from './aspect-model.js';
import shippedAspectModel from './aspect-model.json' with { type: 'json' };

export type Label = 'positive' | 'negative' | 'neutral';

export interface AspectJudgement {
  aspect: AspectId;
  polarity: Label;
  /** −1..1: how strongly the evidence judges the aspect. */
  score: number;
  /** The clause that decided it, as written. */
  evidence: string;
  /** The lexicon words that decided it, with negation and modifiers marked ("not→on time"). */
  cues: string[];
}

export interface ReviewAnalysis {
  id: string;
  sentiment: { label: Label; score: number };
  aspects: AspectJudgement[];
  technicians: string[];
  services: string[];
}

export interface AnalyzerInput {
  id: string;
  text: string;
  rating?: number;
  technicians?: readonly string[];
  services?: readonly string[];
}

interface Token {
  norm: string;
  start: number;
  end: number;
  /** Punctuation stands between this token and the one before: negation and opinions do not reach across it. */
  breakBefore: boolean;
  /** Written in quotation marks: scare quotes make a word mean its opposite ("fixed", "diagnostic fee"). */
  quoted: boolean;
}

/** How far (in tokens) an opinion reaches for its target, and a negator for what it negates. */
const OPINION_REACH = 6;
const NEGATION_REACH = 3;
/** Below this, a score says nothing. */
const NEUTRAL_BAND = 0.05;
/** The clause after a contrast weighs more in the overall sentiment; the one before, less. */
const AFTER_CONTRAST = 1.5;
const BEFORE_CONTRAST = 0.6;
/** The star rating nudges the overall sentiment only (never an aspect): a weak prior. */
const RATING_PRIOR = 0.15;

const nlp = winkNLP(model, ['sbd']);

const COMPARATIVE_NEGATORS = new Set(['couldnt', 'cant', 'cannot', 'wouldnt']);
const DETERMINERS = new Set(['a', 'an', 'the', 'my', 'our', 'his', 'her', 'their', 'some', 'this', 'that', 'one', 'another']);
/** A pure target negated with no opinion about it means the act did not happen: "nobody told me", "zero communication". */
const NEGATED_TARGET = -0.6;
/** A target's clause must lean at least this far for its general polarity to judge the target. */
const CLAUSE_FALLBACK = 0.25;
/** A model-found aspect needs a clause that clearly leans one way. */
const MODEL_POLARITY = 0.15;

const TOKEN = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;

/** Numbers match as "#", so one entry covers "3 hours late" and "three hours late". */
const NUMBER_WORDS = new Set(['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'fifteen', 'twenty', 'thirty', 'forty', 'fifty', 'several', 'few', 'couple']);

/** Inside a short double-quoted span of the same sentence ("fixed", "tune-up special"): an odd number of quotes before, one soon after. */
function insideQuotes(text: string, at: number): boolean {
  const before = text.slice(Math.max(0, at - 40), at);
  const after = text.slice(at, at + 40);
  return (before.match(/["“”]/g)?.length ?? 0) % 2 === 1 && /["“”]/.test(after);
}

const MODIFIERS: [string[], string][] = Object.entries(MODIFIER_PHRASES)
  .map(([phrase, replacement]): [string[], string] => [phrase.split(' '), replacement])
  .sort((a, b) => b[0].length - a[0].length);

function tokenize(text: string, offset: number): Token[] {
  const tokens: Token[] = [];
  let previousEnd = 0;
  for (const m of text.matchAll(TOKEN)) {
    const word = foldedText(m[0]);
    const norm = /^\d+(st|nd|rd|th|am|pm|ish)?$/.test(word) || NUMBER_WORDS.has(word) ? '#' : word;
    const breakBefore = /[,.!?:;()]/.test(text.slice(previousEnd, m.index));
    tokens.push({ norm, start: offset + m.index, end: offset + m.index + m[0].length, breakBefore, quoted: insideQuotes(text, m.index) });
    previousEnd = m.index + m[0].length;
  }
  // Multi-word modifiers become one token, so "kind of late" reads as a softened "late".
  for (let i = 0; i < tokens.length - 1; i++) {
    for (const [words, replacement] of MODIFIERS) {
      if (words[0] === tokens[i]!.norm && words.every((w, k) => tokens[i + k]?.norm === w)) {
        tokens.splice(i, words.length, { norm: replacement, start: tokens[i]!.start, end: tokens[i + words.length - 1]!.end, breakBefore: tokens[i]!.breakBefore, quoted: false });
        break;
      }
    }
  }
  return tokens;
}

const label = (score: number): Label => (score > NEUTRAL_BAND ? 'positive' : score < -NEUTRAL_BAND ? 'negative' : 'neutral');
const clamp = (x: number) => Math.max(-1, Math.min(1, x));

/** The sign and strength a match's context gives it: negation (within reach, not across a clause word) and modifiers. */
function modifiers(tokens: Token[], match: Match): { factor: number; marks: string[] } {
  let factor = 1;
  const marks: string[] = [];
  for (let i = match.start - 1, seen = 0; i >= 0 && seen < NEGATION_REACH; i--, seen++) {
    if (tokens[i + 1]!.breakBefore) break;
    const word = tokens[i]!.norm;
    if (NEGATION_STOPS.has(word)) break;
    if (NEGATORS.has(word)) {
      // "Couldn't have been nicer" praises: a negated comparative is a superlative.
      const judged = tokens[match.start]!.norm;
      if (COMPARATIVE_NEGATORS.has(word) && (judged === 'better' || /er$/.test(judged) || tokens[match.start - 1]?.norm === 'more')) {
        factor *= 1.3;
        marks.push(`${word}(comparative)`);
        break;
      }
      // Negation flips and softens: "not great" is bad, but less than "terrible".
      factor *= -0.75;
      marks.push(word);
      break;
    }
  }
  if (tokens[match.start]!.quoted) {
    factor *= -1;
    marks.push('"quoted"');
  }
  const before = tokens[match.start]!.breakBefore ? undefined : tokens[match.start - 1]?.norm;
  if (before !== undefined) {
    const scale = INTENSIFIERS[before] ?? DOWNTONERS[before];
    if (scale !== undefined) {
      factor *= scale;
      marks.push(before);
    }
  }
  return { factor, marks };
}

interface ClauseJudgement {
  aspect: AspectId;
  score: number;
  cues: string[];
}

/** Aspects judged in one clause: judged words stand alone; general opinions judge the nearest target. */
function judgeClause(tokens: Token[], all: Match[], clauseText: string): ClauseJudgement[] {
  // A fault judges the work only when the clause places it after the job; otherwise it is why they were called.
  const afterTheJob = tokens.some((t) => RECURRENCE.has(t.norm));
  const matches = all.filter((m) => !m.entry.malfunction || afterTheJob);
  const targets = matches.filter((m) => m.entry.aspect !== undefined);
  const found = new Map<AspectId, ClauseJudgement>();
  const add = (aspect: AspectId, score: number, cue: string) => {
    const j = found.get(aspect) ?? { aspect, score: 0, cues: [] };
    j.score += score;
    j.cues.push(cue);
    found.set(aspect, j);
  };
  const separated = (a: Match, b: Match) => {
    const [from, to] = a.start < b.start ? [a.end, b.start] : [b.end, a.start];
    for (let i = from; i <= to && i < tokens.length; i++) if (tokens[i]!.breakBefore) return true;
    return false;
  };
  const nearestTarget = (m: Match, fits: (t: Match) => boolean) => {
    let best: Match | undefined;
    let bestDistance = Infinity;
    for (const t of targets) {
      if (t === m || !fits(t) || separated(m, t)) continue;
      const distance = t.start > m.end ? t.start - m.end : m.start > t.end ? m.start - t.end : 0;
      // Ties go to the target after the opinion ("great price") over the one before.
      if (distance <= OPINION_REACH && (distance < bestDistance || (distance === bestDistance && t.start > m.start))) {
        best = t;
        bestDistance = distance;
      }
    }
    return best;
  };
  const judgedTargets = new Set<Match>();
  const pure = (t: Match) => t.entry.valence === undefined || t.entry.weak === true;
  const distance = (a: Match, b: Match) => (b.start > a.end ? b.start - a.end : a.start > b.end ? a.start - b.end : 0);
  for (const m of matches) {
    const { entry } = m;
    const { factor, marks } = modifiers(tokens, m);
    const cue = [...marks, m.text].join('→');
    // A word whose sense depends on a nearby aspect ("fair price", "fast response") judges that aspect; a word with
    // an aspect of its own ("honest") lends itself to another only when right next to it ("honest pricing").
    const conditioned = entry.by
      ? nearestTarget(m, (t) => pure(t) && entry.by![t.entry.aspect!] !== undefined && (entry.aspect === undefined || distance(m, t) <= 1))
      : undefined;
    if (conditioned && conditioned.entry.aspect !== entry.aspect) {
      add(conditioned.entry.aspect!, entry.by![conditioned.entry.aspect!]! * factor, cue);
      judgedTargets.add(conditioned);
      continue;
    }
    if (entry.weak) continue;
    if (entry.aspect !== undefined && entry.valence !== undefined) {
      add(entry.aspect, entry.valence * factor, cue);
      judgedTargets.add(m);
      continue;
    }
    if (entry.aspect === undefined && entry.valence !== undefined) {
      // "Diagnosed a bad sensor": an opinion after a target but with its own noun describes that noun, not the target.
      const describesNoun = DETERMINERS.has(tokens[m.start - 1]?.norm ?? '');
      const target = nearestTarget(m, (t) => pure(t) && !(describesNoun && t.end <= m.start));
      if (target) {
        add(target.entry.aspect!, (target.entry.aspect && entry.by?.[target.entry.aspect]) ?? entry.valence * factor, cue);
        judgedTargets.add(target);
      }
    }
  }
  // An act nobody judged keeps its own sense ("called back"); a negated target says it did not happen.
  for (const t of targets) {
    if (judgedTargets.has(t) || !pure(t) || found.has(t.entry.aspect!)) continue;
    const { factor, marks } = modifiers(tokens, t);
    if (t.entry.weak) {
      add(t.entry.aspect!, t.entry.valence! * factor, [...marks, t.text].join('→'));
      judgedTargets.add(t);
    } else if (factor < 0) {
      add(t.entry.aspect!, NEGATED_TARGET, [...marks, t.text].join('→'));
      judgedTargets.add(t);
    }
  }
  // A target nobody judged takes the clause's general polarity, when the clause is about that aspect alone.
  // Not for the work itself: a clause about the job ("replaced the burnt capacitor") leans on the fault it names.
  const unjudged = targets.filter((t) => !judgedTargets.has(t) && t.entry.valence === undefined && !found.has(t.entry.aspect!) && t.entry.aspect !== 'quality');
  const aspects = new Set(targets.map((t) => t.entry.aspect));
  if (unjudged.length > 0 && aspects.size === 1) {
    const general = textPolarity(clauseText);
    if (Math.abs(general.score) >= CLAUSE_FALLBACK) {
      const t = unjudged[0]!;
      add(t.entry.aspect!, general.score, [t.text, `(clause ${general.label})`].join('→'));
    }
  }
  return [...found.values()].map((j) => ({ ...j, score: clamp(j.score) }));
}

/** Splits a sentence into clauses at ";" and dashes, then before each contrast word. */
interface Clause {
  tokens: Token[];
  afterContrast: boolean;
  beforeContrast: boolean;
}

function clauses(sentence: string, offset: number): Clause[] {
  const pieces: { text: string; start: number }[] = [];
  let start = 0;
  for (const m of sentence.matchAll(/;|\s[-–—]\s/g)) {
    pieces.push({ text: sentence.slice(start, m.index), start });
    start = m.index + m[0].length;
  }
  pieces.push({ text: sentence.slice(start), start });
  const out: Clause[] = [];
  for (const piece of pieces) {
    const tokens = tokenize(piece.text, offset + piece.start);
    let from = 0;
    for (let i = 1; i <= tokens.length; i++) {
      if (i === tokens.length || CONTRAST_MARKERS.has(tokens[i]!.norm)) {
        const part = tokens.slice(from, i);
        if (part.length > 0) {
          const first = part[0]!;
          out.push({ tokens: part, afterContrast: CONTRAST_MARKERS.has(first.norm), beforeContrast: i < tokens.length });
        }
        from = i;
      }
    }
  }
  return out;
}

export class Analyzer {
  private readonly phrases = new PhraseMatcher();
  private readonly entities: EntityMatcher;

  private readonly model: AspectModel | null;

  /** `aspectModel: null` runs the lexicon alone (the evaluation's cross-validation passes its own models). */
  constructor(business: Business | null, options: { aspectModel?: AspectModel | null } = {}) {
    this.entities = new EntityMatcher(business);
    this.model = options.aspectModel === undefined ? (shippedAspectModel as AspectModel) : options.aspectModel;
  }

  /** The aspect model's features of a whole text (training examples are sentences). */
  features(text: string): string[] {
    const tokens = tokenize(text, 0);
    const matches = this.phrases.find(tokens.map((t) => t.norm));
    return aspectFeatures(tokens.map((t) => t.norm), matches.flatMap((m) => (m.entry.aspect ? [m.entry.aspect] : [])));
  }

  analyze(review: AnalyzerInput): ReviewAnalysis {
    const text = review.text;
    const judgements: AspectJudgement[] = [];
    let weighted = 0;
    let weights = 0;
    let cursor = 0;
    for (const sentence of nlp.readDoc(text).sentences().out() as string[]) {
      const at = text.indexOf(sentence, cursor);
      const offset = at >= 0 ? at : cursor;
      cursor = offset + sentence.length;
      for (const clause of clauses(sentence, offset)) {
        const first = clause.tokens[0]!;
        const last = clause.tokens[clause.tokens.length - 1]!;
        const clauseText = text.slice(first.start, last.end);
        const matches = this.phrases.find(clause.tokens.map((t) => t.norm)).map((m) => ({ ...m, text: text.slice(clause.tokens[m.start]!.start, clause.tokens[m.end - 1]!.end) }));
        const judged = judgeClause(clause.tokens, matches, clauseText);
        for (const j of judged) {
          judgements.push({ aspect: j.aspect, polarity: label(j.score), score: round(j.score), evidence: clauseText, cues: j.cues });
        }
        const general = textPolarity(clauseText);
        // The learned model adds aspects the lexicon missed, judged by the clause's general polarity.
        if (this.model && Math.abs(general.score) >= MODEL_POLARITY) {
          const lexiconAspects = matches.flatMap((m) => (m.entry.aspect ? [m.entry.aspect] : []));
          for (const p of predictAspects(this.model, aspectFeatures(clause.tokens.map((t) => t.norm), lexiconAspects))) {
            if (judged.some((j) => j.aspect === p.aspect)) continue;
            const score = general.score * p.probability;
            judgements.push({ aspect: p.aspect, polarity: label(score), score: round(score), evidence: clauseText, cues: [`model(${p.cues.join(', ')})`] });
          }
        }
        const weight = clause.afterContrast ? AFTER_CONTRAST : clause.beforeContrast ? BEFORE_CONTRAST : 1;
        weighted += general.score * weight;
        weights += weight;
      }
    }
    let score = weights > 0 ? weighted / weights : 0;
    if (review.rating !== undefined) score += RATING_PRIOR * ((review.rating - 3) / 2);
    score = clamp(score);
    return {
      id: review.id,
      sentiment: { label: label(score), score: round(score) },
      aspects: judgements.filter((j) => j.polarity !== 'neutral'),
      technicians: this.entities.technicians(text, review.technicians ?? []),
      services: this.entities.services(text, review.services ?? []),
    };
  }
}

const round = (x: number) => Math.round(x * 1000) / 1000;
