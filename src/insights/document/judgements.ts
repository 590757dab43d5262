// Every review's aspect judgements, one per aspect, laid out flat in review order, and the figures built from them:
// tallies, trends, strongest quotes, and the aspect and entity sections. Sections read numbers from typed arrays
// and touch review objects only for what they print, so a build over 100,000 reviews stays a few passes of arithmetic.
import { AspectId } from '../../reviews/schemas.js';
import type { PublishedReview } from '../../store/types.js';
import type { AspectJudgement, ReviewAnalysis } from '../analysis/analyzer.js';
import { averageRating, quarterOf, round2 } from './figures.js';
import { ASPECT_LABELS, MIN_MENTIONS, type AspectInsight, type EntityInsight, type Quote, type Tally } from './insights.js';

const QUOTES = 3;
const ASPECTS = AspectId.options;
const ASPECT_INDEX = new Map(ASPECTS.map((id, i) => [id, i]));

/** One judgement per review and aspect: several mentions in a review add up, the strongest is the evidence. */
interface ReviewAspect {
  review: PublishedReview;
  score: number;
  evidence: AspectJudgement;
}

/** Judgements that cancel out (0.8 − 0.8) are neutral, floating-point dust included. */
const sign = (score: number) => (Math.abs(score) < 1e-9 ? 0 : Math.sign(score));

/** Reviews, their analyses and quarters, and their judgements flattened: review i owns judgements from[i]..from[i + 1]. */
export class Judged {
  readonly analyses: ReviewAnalysis[];
  /** Per review: the index of its quarter in `quarters` (sorted, so indices order like the labels). */
  readonly quarterOf: Int32Array;
  readonly quarters: string[];
  readonly from: Int32Array;
  /** Per judgement: its aspect's index in AspectId order, its sign and its strength (|score|). */
  readonly aspect: Uint8Array;
  readonly direction: Int8Array;
  readonly strength: Float64Array;
  readonly items: ReviewAspect[] = [];
  /** Per judgement, its review; per review, its date's rank among the dates: quotes are ordered without reading reviews. */
  private readonly owner: Int32Array;
  private readonly dateRank: Int32Array;

  constructor(
    readonly reviews: readonly PublishedReview[],
    analyses: ReadonlyMap<string, ReviewAnalysis>,
  ) {
    const n = reviews.length;
    this.analyses = reviews.map((r) => analyses.get(r.id)!);
    const dates = [...new Set(reviews.map((r) => r.date))].sort();
    const dateIndex = new Map(dates.map((d, i) => [d, i]));
    this.dateRank = Int32Array.from(reviews, (r) => dateIndex.get(r.date)!);
    this.quarters = [...new Set(dates.map(quarterOf))].sort();
    const quarterIndex = new Map(this.quarters.map((q, i) => [q, i]));
    const quarterOfDate = Int32Array.from(dates, (d) => quarterIndex.get(quarterOf(d))!);
    this.quarterOf = this.dateRank.map((d) => quarterOfDate[d]!);

    this.from = new Int32Array(n + 1);
    const slot = new Int32Array(ASPECTS.length).fill(-1);
    const aspects: number[] = [];
    const owners: number[] = [];
    for (let i = 0; i < n; i++) {
      this.from[i] = this.items.length;
      for (const j of this.analyses[i]!.aspects) {
        const a = ASPECT_INDEX.get(j.aspect)!;
        const at = slot[a]!;
        if (at < 0) {
          slot[a] = this.items.length;
          this.items.push({ review: reviews[i]!, score: j.score, evidence: j });
          aspects.push(a);
          owners.push(i);
          continue;
        }
        const item = this.items[at]!;
        item.score += j.score;
        if (Math.abs(j.score) > Math.abs(item.evidence.score)) item.evidence = j;
      }
      for (let k = this.from[i]!; k < this.items.length; k++) slot[aspects[k]!] = -1;
    }
    this.from[n] = this.items.length;
    this.aspect = Uint8Array.from(aspects);
    this.owner = Int32Array.from(owners);
    this.direction = Int8Array.from(this.items, (item) => sign(item.score));
    this.strength = Float64Array.from(this.items, (item) => Math.abs(item.score));
  }

  /** Stronger first, then newer, then the larger id: a total order, so the same reviews give the same quotes. */
  stronger(a: number, b: number): number {
    return (
      this.strength[b]! - this.strength[a]! ||
      this.dateRank[this.owner[b]!]! - this.dateRank[this.owner[a]!]! ||
      (this.items[a]!.review.id < this.items[b]!.review.id ? 1 : -1)
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
    if (judged.direction[k] !== this.direction) return;
    if (best.length === QUOTES && judged.stronger(k, best[QUOTES - 1]!) >= 0) return;
    best.push(k);
    best.sort((a, b) => judged.stronger(a, b));
    if (best.length > QUOTES) best.pop();
  }

  quotes(): Quote[] {
    return this.best.map((k) => {
      const { review, evidence, score } = this.judged.items[k]!;
      return { reviewId: review.id, date: review.date, rating: review.rating, text: evidence.evidence, score: Math.round(Math.max(-1, Math.min(1, score)) * 100) / 100 };
    });
  }
}

/** Mentions, positive and negative counts, three numbers per tally, several tallies to an array. */
function count(counts: Int32Array, at: number, direction: number): void {
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
  for (let i = 0; i < judged.reviews.length; i++) {
    const id = judged.reviews[i]!.id;
    const quarter = judged.quarterOf[i]!;
    for (let k = judged.from[i]!; k < judged.from[i + 1]!; k++) {
      const a = judged.aspect[k]!;
      const direction = judged.direction[k]!;
      count(totals, a * 3, direction);
      count(byQuarter, (a * quarters + quarter) * 3, direction);
      const ids = reviewIds[a]!;
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
  for (const i of reviews) {
    for (let k = judged.from[i]!; k < judged.from[i + 1]!; k++) {
      count(counts, judged.aspect[k]! * 3, judged.direction[k]!);
      positive.offer(k);
      negative.offer(k);
    }
  }
  const own = reviews.map((i) => judged.reviews[i]!);
  return {
    mentions: reviews.length,
    averageRating: averageRating(own),
    aspects: ASPECTS.flatMap((aspect, a) => (counts[a * 3]! > 0 ? [{ aspect, ...tally(counts, a * 3) }] : [])),
    quotes: { positive: positive.quotes(), negative: negative.quotes() },
    reviewIds: own.map((r) => r.id),
  };
}
