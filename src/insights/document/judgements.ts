// Every review's aspect judgements, one per aspect, laid out flat in review order, and the figures built from them:
// tallies, trends, strongest quotes, and the aspect and entity sections. Sections read numbers from typed arrays
// and touch review objects only for what they print, so a build over 100,000 reviews stays a few passes of arithmetic.
import { AspectId } from '../../reviews/schemas.js';
import type { PublishedReview } from '../../store/types.js';
import type { AspectJudgement, ReviewAnalysis } from '../analysis/analyzer.js';
import { meanRating } from '../../reviews/rating.js';
import { quarterOf, round2 } from './figures.js';
import { ASPECT_LABELS, MIN_MENTIONS, type AspectInsight, type EntityInsight, type Quote, type Tally } from './insights.js';

const QUOTES = 3;
const ASPECTS = AspectId.options;
const ASPECT_INDEX = new Map(ASPECTS.map((id, i) => [id, i]));

/** Judgements that cancel out (0.8 − 0.8) are neutral, floating-point dust included. */
const sign = (score: number) => (Math.abs(score) < 1e-9 ? 0 : Math.sign(score));

function push(groups: Map<string, number[]>, key: string, review: number): void {
  const group = groups.get(key);
  if (group) group.push(review);
  else groups.set(key, [review]);
}

/**
 * The reviews read once per build, as plain numbers where the sections only count: review i's id, rating, quarter
 * (an index into the sorted `quarters`) and analysis; and its judgements from[i]..from[i + 1], one per aspect
 * (several mentions in a review add up, the strongest is the evidence). Each review object and analysis is read
 * here and, later, only for what the document prints.
 */
export class Judged {
  readonly ids: string[] = [];
  readonly ratings: number[] = [];
  readonly analyses: ReviewAnalysis[] = [];
  readonly quarterOf: number[] = [];
  readonly quarters: string[];
  readonly from: number[] = [];
  /** Per judgement: its aspect's index in AspectId order, its summed score, its evidence and its review. */
  readonly aspect: number[] = [];
  readonly score: number[] = [];
  readonly evidence: AspectJudgement[] = [];
  readonly owner: number[] = [];
  /** Reviews (indices, in order) by the technicians, services and service area they name. */
  readonly technicians = new Map<string, number[]>();
  readonly services = new Map<string, number[]>();
  readonly areas = new Map<string, number[]>();
  /** Per review: its date's rank among the dates, so quotes are ordered without reading reviews. */
  private readonly dateRank: number[] = [];

  constructor(
    readonly reviews: readonly PublishedReview[],
    analyses: ReadonlyMap<string, ReviewAnalysis>,
  ) {
    const dates: string[] = [];
    const slot = new Int32Array(ASPECTS.length).fill(-1);
    reviews.forEach((review, i) => {
      const analysis = analyses.get(review.id)!;
      this.ids.push(review.id);
      this.ratings.push(review.rating);
      this.analyses.push(analysis);
      dates.push(review.date);
      if (review.serviceArea) push(this.areas, review.serviceArea, i);
      for (const key of analysis.technicians.length > 1 ? new Set(analysis.technicians) : analysis.technicians) push(this.technicians, key, i);
      for (const key of analysis.services.length > 1 ? new Set(analysis.services) : analysis.services) push(this.services, key, i);
      const first = this.aspect.length;
      this.from.push(first);
      for (const j of analysis.aspects) {
        const a = ASPECT_INDEX.get(j.aspect)!;
        const at = slot[a]!;
        if (at < 0) {
          slot[a] = this.aspect.length;
          this.aspect.push(a);
          this.score.push(j.score);
          this.evidence.push(j);
          this.owner.push(i);
        } else {
          this.score[at]! += j.score;
          if (Math.abs(j.score) > Math.abs(this.evidence[at]!.score)) this.evidence[at] = j;
        }
      }
      for (let k = first; k < this.aspect.length; k++) slot[this.aspect[k]!] = -1;
    });
    this.from.push(this.aspect.length);
    const sorted = [...new Set(dates)].sort();
    const rank = new Map(sorted.map((d, r) => [d, r]));
    this.quarters = [...new Set(sorted.map(quarterOf))].sort();
    const quarterIndex = new Map(this.quarters.map((q, i) => [q, i]));
    const quarterOfRank = sorted.map((d) => quarterIndex.get(quarterOf(d))!);
    for (const date of dates) {
      const r = rank.get(date)!;
      this.dateRank.push(r);
      this.quarterOf.push(quarterOfRank[r]!);
    }
  }

  /** Stronger first, then newer, then the larger id: a total order, so the same reviews give the same quotes. */
  stronger(a: number, b: number): number {
    return (
      Math.abs(this.score[b]!) - Math.abs(this.score[a]!) ||
      this.dateRank[this.owner[b]!]! - this.dateRank[this.owner[a]!]! ||
      (this.ids[this.owner[a]!]! < this.ids[this.owner[b]!]! ? 1 : -1)
    );
  }
}

/** The strongest few judgements of one sign among those offered, in any order. */
class Strongest {
  private readonly best: number[] = [];

  constructor(
    private readonly judged: Judged,
    private readonly direction: 1 | -1,
  ) {}

  offer(k: number): void {
    const { best, judged } = this;
    if (sign(judged.score[k]!) !== this.direction) return;
    if (best.length === QUOTES && judged.stronger(k, best[QUOTES - 1]!) >= 0) return;
    best.push(k);
    best.sort((a, b) => judged.stronger(a, b));
    if (best.length > QUOTES) best.pop();
  }

  quotes(): Quote[] {
    const { judged } = this;
    return this.best.map((k) => {
      const review = judged.reviews[judged.owner[k]!]!;
      const score = judged.score[k]!;
      return { reviewId: review.id, date: review.date, rating: review.rating, text: judged.evidence[k]!.evidence, score: Math.round(Math.max(-1, Math.min(1, score)) * 100) / 100 };
    });
  }
}

/** Mentions, positive and negative counts, three numbers per tally, several tallies to an array. */
function count(counts: Int32Array, at: number, score: number): void {
  const direction = sign(score);
  counts[at]!++;
  if (direction > 0) counts[at + 1]!++;
  else if (direction < 0) counts[at + 2]!++;
}

function tally(counts: Int32Array, at: number): Tally {
  const mentions = counts[at]!;
  const positive = counts[at + 1]!;
  const negative = counts[at + 2]!;
  return { mentions, positive, negative, neutral: mentions - positive - negative, score: mentions >= MIN_MENTIONS ? round2((positive - negative) / mentions) : null };
}

/** The eight aspect sections, in one pass over every judgement. */
export function aspectInsights(judged: Judged): AspectInsight[] {
  const quarters = judged.quarters.length;
  const totals = new Int32Array(ASPECTS.length * 3);
  const byQuarter = new Int32Array(ASPECTS.length * quarters * 3);
  const reviewIds = ASPECTS.map((): AspectInsight['reviewIds'] => ({ positive: [], negative: [], neutral: [] }));
  const positive = ASPECTS.map(() => new Strongest(judged, 1));
  const negative = ASPECTS.map(() => new Strongest(judged, -1));
  for (let i = 0; i < judged.ids.length; i++) {
    const id = judged.ids[i]!;
    const quarter = judged.quarterOf[i]!;
    for (let k = judged.from[i]!; k < judged.from[i + 1]!; k++) {
      const a = judged.aspect[k]!;
      const score = judged.score[k]!;
      count(totals, a * 3, score);
      count(byQuarter, (a * quarters + quarter) * 3, score);
      const ids = reviewIds[a]!;
      const direction = sign(score);
      (direction > 0 ? ids.positive : direction < 0 ? ids.negative : ids.neutral).push(id);
      positive[a]!.offer(k);
      negative[a]!.offer(k);
    }
  }
  return ASPECTS.map((id, a) => ({
    id,
    label: ASPECT_LABELS[id],
    ...tally(totals, a * 3),
    trend: judged.quarters.flatMap((quarter, q) => {
      const at = (a * quarters + q) * 3;
      return byQuarter[at]! > 0 ? [{ quarter, ...tally(byQuarter, at) }] : [];
    }),
    quotes: { positive: positive[a]!.quotes(), negative: negative[a]!.quotes() },
    reviewIds: reviewIds[a]!,
  }));
}

/** The figures of one technician, service or area, from its reviews (indices, in review order). */
export function entityInsight(judged: Judged, reviews: readonly number[]): EntityInsight {
  const counts = new Int32Array(ASPECTS.length * 3);
  const positive = new Strongest(judged, 1);
  const negative = new Strongest(judged, -1);
  let ratings = 0;
  for (const i of reviews) {
    ratings += judged.ratings[i]!;
    for (let k = judged.from[i]!; k < judged.from[i + 1]!; k++) {
      count(counts, judged.aspect[k]! * 3, judged.score[k]!);
      positive.offer(k);
      negative.offer(k);
    }
  }
  return {
    mentions: reviews.length,
    averageRating: meanRating(ratings, reviews.length),
    aspects: ASPECTS.flatMap((aspect, a) => (counts[a * 3]! > 0 ? [{ aspect, ...tally(counts, a * 3) }] : [])),
    quotes: { positive: positive.quotes(), negative: negative.quotes() },
    reviewIds: reviews.map((i) => judged.ids[i]!),
  };
}
