// The aspect and entity sections: tallies, quarterly trends, strongest quotes and review ids, counted from the
// judged reviews' typed arrays in a pass or two, with each output list allocated at its final size.
import { meanRating } from '../../reviews/rating.js';
import { AspectId } from '../../reviews/schemas.js';
import { round2 } from './figures.js';
import { ASPECT_LABELS, MIN_MENTIONS, type AspectInsight, type EntityInsight, type Quote, type Tally } from './insights.js';
import { sign, type Judged } from './judged.js';

const QUOTES = 3;
const ASPECTS = AspectId.options;

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
      return { reviewId: review.id, date: review.date, rating: review.rating, text: judged.evidence(k).evidence, score: Math.round(Math.max(-1, Math.min(1, score)) * 100) / 100 };
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

/** The eight aspect sections: one pass to count and pick quotes, one to list the review ids. */
export function aspectInsights(judged: Judged): AspectInsight[] {
  const quarters = judged.quarters.length;
  const judgements = judged.from[judged.ids.length]!;
  const totals = new Int32Array(ASPECTS.length * 3);
  const byQuarter = new Int32Array(ASPECTS.length * quarters * 3);
  const positive = ASPECTS.map(() => new Strongest(judged, 1));
  const negative = ASPECTS.map(() => new Strongest(judged, -1));
  for (let k = 0; k < judgements; k++) {
    const a = judged.aspect[k]!;
    const score = judged.score[k]!;
    count(totals, a * 3, score);
    count(byQuarter, (a * quarters + judged.quarterOf[judged.owner[k]!]!) * 3, score);
    positive[a]!.offer(k);
    negative[a]!.offer(k);
  }
  const reviewIds = ASPECTS.map((_, a): AspectInsight['reviewIds'] => {
    const [mentions, positive, negative] = totals.subarray(a * 3, a * 3 + 3);
    return { positive: new Array<string>(positive!), negative: new Array<string>(negative!), neutral: new Array<string>(mentions! - positive! - negative!) };
  });
  const filled = new Int32Array(ASPECTS.length * 3);
  for (let k = 0; k < judgements; k++) {
    const a = judged.aspect[k]!;
    const direction = sign(judged.score[k]!);
    const ids = reviewIds[a]!;
    const list = direction > 0 ? ids.positive : direction < 0 ? ids.negative : ids.neutral;
    list[filled[a * 3 + direction + 1]!++] = judged.ids[judged.owner[k]!]!;
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
export function entityInsight(judged: Judged, reviews: ArrayLike<number>): EntityInsight {
  const counts = new Int32Array(ASPECTS.length * 3);
  const positive = new Strongest(judged, 1);
  const negative = new Strongest(judged, -1);
  const reviewIds = new Array<string>(reviews.length);
  let ratings = 0;
  for (let r = 0; r < reviews.length; r++) {
    const i = reviews[r]!;
    reviewIds[r] = judged.ids[i]!;
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
    reviewIds,
  };
}
