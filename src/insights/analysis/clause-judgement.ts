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
  const judging = new Judging(tokens, matches);
  for (const m of matches) judging.judge(m);
  judging.keepActs();
  judging.leanOnClause(clauseText);
  return [...judging.found.values()].map((j) => ({ ...j, score: clamp(j.score) }));
}

const pure = (t: Match) => t.entry.valence === undefined || t.entry.weak === true;
const distance = (a: Match, b: Match) => (b.start > a.end ? b.start - a.end : a.start > b.end ? a.start - b.end : 0);

/** The judgements of one clause as they are made, in order: each match's, then the acts nobody judged. */
class Judging {
  readonly found = new Map<AspectId, ClauseJudgement>();
  /** The matches that name an aspect: what an opinion may judge. */
  private readonly targets: Match[];
  private readonly judgedTargets = new Set<Match>();

  constructor(
    private readonly tokens: Token[],
    matches: Match[],
  ) {
    this.targets = matches.filter((m) => m.entry.aspect !== undefined);
  }

  /** One match's judgement, of its own aspect or of the target it describes. */
  judge(m: Match): void {
    const { entry } = m;
    const { factor, marks } = modifiers(this.tokens, m);
    const cue = [...marks, m.text].join('→');
    // A word whose sense depends on a nearby aspect ("fair price", "fast response") judges that aspect; a word with
    // an aspect of its own ("honest") lends itself to another only when right next to it ("honest pricing").
    const conditioned = entry.by
      ? this.nearestTarget(
          m,
          (t) =>
            pure(t) && entry.by![t.entry.aspect!] !== undefined && (entry.aspect === undefined || distance(m, t) <= 1),
        )
      : undefined;
    if (conditioned && conditioned.entry.aspect !== entry.aspect) {
      this.add(conditioned.entry.aspect!, entry.by![conditioned.entry.aspect!]! * factor, cue);
      this.judgedTargets.add(conditioned);
      return;
    }
    if (entry.weak) return;
    if (entry.aspect !== undefined && entry.valence !== undefined) {
      this.add(entry.aspect, entry.valence * factor, cue);
      this.judgedTargets.add(m);
      return;
    }
    if (entry.aspect === undefined && entry.valence !== undefined) {
      // "Diagnosed a bad sensor": an opinion after a target but with its own noun describes that noun, not the target.
      const describesNoun = DETERMINERS.has(this.tokens[m.start - 1]?.norm ?? '');
      const target = this.nearestTarget(m, (t) => pure(t) && !(describesNoun && t.end <= m.start));
      if (target) {
        this.add(
          target.entry.aspect!,
          (target.entry.aspect && entry.by?.[target.entry.aspect]) ?? entry.valence * factor,
          cue,
        );
        this.judgedTargets.add(target);
      }
    }
  }

  /** An act nobody judged keeps its own sense ("called back"); a negated target says it did not happen. */
  keepActs(): void {
    for (const t of this.targets) {
      if (this.judgedTargets.has(t) || !pure(t) || this.found.has(t.entry.aspect!)) continue;
      const { factor, marks } = modifiers(this.tokens, t);
      if (t.entry.weak) {
        this.add(t.entry.aspect!, t.entry.valence! * factor, [...marks, t.text].join('→'));
        this.judgedTargets.add(t);
      } else if (factor < 0) {
        this.add(t.entry.aspect!, NEGATED_TARGET, [...marks, t.text].join('→'));
        this.judgedTargets.add(t);
      }
    }
  }

  /**
   * A target nobody judged takes the clause's general polarity, when the clause is about that aspect alone.
   * Not for the work itself: a clause about the job ("replaced the burnt capacitor") leans on the fault it names.
   */
  leanOnClause(clauseText: string): void {
    const unjudged = this.targets.filter(
      (t) =>
        !this.judgedTargets.has(t) &&
        t.entry.valence === undefined &&
        !this.found.has(t.entry.aspect!) &&
        t.entry.aspect !== 'quality',
    );
    const aspects = new Set(this.targets.map((t) => t.entry.aspect));
    if (unjudged.length === 0 || aspects.size !== 1) return;
    const general = textPolarity(clauseText);
    if (Math.abs(general.score) < CLAUSE_FALLBACK) return;
    const t = unjudged[0]!;
    this.add(t.entry.aspect!, general.score, [t.text, `(clause ${general.label})`].join('→'));
  }

  private add(aspect: AspectId, score: number, cue: string): void {
    const j = this.found.get(aspect) ?? { aspect, score: 0, cues: [] };
    j.score += score;
    j.cues.push(cue);
    this.found.set(aspect, j);
  }

  /** Whether a clause word stands between two matches. */
  private separated(a: Match, b: Match): boolean {
    const [from, to] = a.start < b.start ? [a.end, b.start] : [b.end, a.start];
    for (let i = from; i <= to && i < this.tokens.length; i++) if (this.tokens[i]!.breakBefore) return true;
    return false;
  }

  /** The nearest target within reach that `fits`; ties go to the target after the opinion ("great price"). */
  private nearestTarget(m: Match, fits: (t: Match) => boolean): Match | undefined {
    let best: Match | undefined;
    let bestDistance = Infinity;
    for (const t of this.targets) {
      if (t === m || !fits(t) || this.separated(m, t)) continue;
      const d = distance(m, t);
      if (d <= OPINION_REACH && (d < bestDistance || (d === bestDistance && t.start > m.start))) {
        best = t;
        bestDistance = d;
      }
    }
    return best;
  }
}
