// The lexicon's judgement of one clause: which aspects its words judge and how (negation, modifiers, an opinion
// reaching for the nearest aspect it can describe), each with the words that decided it.
import type { AspectId } from '../../reviews/schemas.js';
import type { Token } from './clauses.js';
import { DOWNTONERS, INTENSIFIERS, NEGATION_STOPS, NEGATORS, RECURRENCE } from './lexicon.js';
import type { Match } from './phrases.js';
import { textPolarity } from './polarity/index.js';

/** How far (in tokens) an opinion reaches for its target, and a negator for what it negates. */
const OPINION_REACH = 6;
const NEGATION_REACH = 3;

const COMPARATIVE_NEGATORS = new Set(['couldnt', 'cant', 'cannot', 'wouldnt']);
const DETERMINERS = new Set([
  'a',
  'an',
  'the',
  'my',
  'our',
  'his',
  'her',
  'their',
  'some',
  'this',
  'that',
  'one',
  'another',
]);
/** A pure target negated with no opinion about it means the act did not happen: "nobody told me", "zero communication". */
const NEGATED_TARGET = -0.6;
/** A target's clause must lean at least this far for its general polarity to judge the target. */
const CLAUSE_FALLBACK = 0.25;

export const clamp = (x: number) => Math.max(-1, Math.min(1, x));

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
      if (
        COMPARATIVE_NEGATORS.has(word) &&
        (judged === 'better' || /er$/.test(judged) || tokens[match.start - 1]?.norm === 'more')
      ) {
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

export interface ClauseJudgement {
  aspect: AspectId;
  score: number;
  cues: string[];
}

/** Aspects judged in one clause: judged words stand alone; general opinions judge the nearest target. */
export function judgeClause(tokens: Token[], all: Match[], clauseText: string): ClauseJudgement[] {
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
      ? nearestTarget(
          m,
          (t) =>
            pure(t) && entry.by![t.entry.aspect!] !== undefined && (entry.aspect === undefined || distance(m, t) <= 1),
        )
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
        add(
          target.entry.aspect!,
          (target.entry.aspect && entry.by?.[target.entry.aspect]) ?? entry.valence * factor,
          cue,
        );
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
  const unjudged = targets.filter(
    (t) =>
      !judgedTargets.has(t) &&
      t.entry.valence === undefined &&
      !found.has(t.entry.aspect!) &&
      t.entry.aspect !== 'quality',
  );
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
