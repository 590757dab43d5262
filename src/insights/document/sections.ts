// The aspect and entity sections, kept as running counts: each contribution is counted in when its review comes and
// out when it goes, so a one-review change costs a few additions, and the sections are printed from the counts.
import { meanRating } from '../../reviews/rating.js';
import { AspectId } from '../../reviews/schemas.js';
import { sign, stronger, type Contribution, type Judgement } from './contribution.js';
import { round2 } from './figures.js';
import {
  ASPECT_LABELS,
  MIN_MENTIONS,
  type AspectInsight,
  type EntityInsight,
  type Quote,
  type Tally,
} from './insights.js';
import { OrderedReviews } from './ordered.js';

const QUOTES = 3;
const ASPECTS = AspectId.options;

/** The strongest few judgements of one sign; when one of them goes, the next read looks through the candidates again. */
class Strongest {
  private best: Judgement[] = [];
  private stale = false;

  constructor(private readonly direction: 1 | -1) {}

  offer(j: Judgement): void {
    const { best } = this;
    if (this.stale || sign(j.score) !== this.direction) return;
    if (best.length === QUOTES && stronger(j, best[QUOTES - 1]!) >= 0) return;
    best.push(j);
    best.sort(stronger);
    if (best.length > QUOTES) best.pop();
  }

  withdraw(j: Judgement): void {
    if (!this.stale && this.best.includes(j)) this.stale = true;
  }

  /** `candidates` gives every judgement that may be offered now (read only after a withdrawal). */
  quotes(candidates: () => Iterable<Judgement>): Quote[] {
    if (this.stale) {
      this.stale = false;
      this.best = [];
      for (const j of candidates()) this.offer(j);
    }
    return this.best.map((j) => {
      const { id, review } = j.owner;
      return {
        reviewId: id,
        date: review.date,
        rating: review.rating,
        text: j.evidence.evidence,
        score: round2(Math.max(-1, Math.min(1, j.score))),
      };
    });
  }
}

/** Mentions, positive and negative counts, three numbers per tally, several tallies to an array; `by` is 1 or −1. */
function count(counts: Int32Array, at: number, score: number, by: 1 | -1): void {
  const direction = sign(score);
  counts[at]! += by;
  if (direction > 0) counts[at + 1]! += by;
  else if (direction < 0) counts[at + 2]! += by;
}

function tally(counts: Int32Array, at: number): Tally {
  const mentions = counts[at]!;
  const positive = counts[at + 1]!;
  const negative = counts[at + 2]!;
  return {
    mentions,
    positive,
    negative,
    neutral: mentions - positive - negative,
    score: mentions >= MIN_MENTIONS ? round2((positive - negative) / mentions) : null,
  };
}

/** Per aspect: its tallies in all and by quarter, its strongest quotes, and its reviews by the sign of their judgement. */
export class AspectSections {
  private readonly totals = new Int32Array(ASPECTS.length * 3);
  private readonly byQuarter = new Map<string, Int32Array>();
  private readonly positive = ASPECTS.map(() => new Strongest(1));
  private readonly negative = ASPECTS.map(() => new Strongest(-1));
  /** Per aspect: negative, neutral and positive reviews (index: sign + 1). */
  private readonly lists = ASPECTS.map(
    () => [new OrderedReviews(), new OrderedReviews(), new OrderedReviews()] as const,
  );

  add(c: Contribution): void {
    this.count(c, 1);
    for (const j of c.judgements) {
      this.lists[j.aspect]![sign(j.score) + 1]!.add(c);
      this.positive[j.aspect]!.offer(j);
      this.negative[j.aspect]!.offer(j);
    }
  }

  remove(c: Contribution): void {
    this.count(c, -1);
    for (const j of c.judgements) {
      this.lists[j.aspect]![sign(j.score) + 1]!.remove(c);
      this.positive[j.aspect]!.withdraw(j);
      this.negative[j.aspect]!.withdraw(j);
    }
  }

  sections(): AspectInsight[] {
    const quarters = [...this.byQuarter.keys()].sort();
    return ASPECTS.map((id, a) => {
      const [negative, neutral, positive] = this.lists[a]!;
      const judgements = (list: OrderedReviews) => () =>
        list.contributions().map((c) => c.judgements.find((j) => j.aspect === a)!);
      return {
        id,
        label: ASPECT_LABELS[id],
        ...tally(this.totals, a * 3),
        trend: quarters.flatMap((quarter) => {
          const counts = this.byQuarter.get(quarter)!;
          return counts[a * 3]! > 0 ? [{ quarter, ...tally(counts, a * 3) }] : [];
        }),
        quotes: {
          positive: this.positive[a]!.quotes(judgements(positive)),
          negative: this.negative[a]!.quotes(judgements(negative)),
        },
        reviewIds: { positive: positive.ids(), negative: negative.ids(), neutral: neutral.ids() },
      };
    });
  }

  private count(c: Contribution, by: 1 | -1): void {
    let quarter = this.byQuarter.get(c.quarter);
    if (!quarter) this.byQuarter.set(c.quarter, (quarter = new Int32Array(ASPECTS.length * 3)));
    for (const j of c.judgements) {
      count(this.totals, j.aspect * 3, j.score, by);
      count(quarter, j.aspect * 3, j.score, by);
    }
  }
}

/** One technician's, service's or area's reviews and what they add up to. */
class Group {
  readonly reviews = new OrderedReviews();
  private ratings = 0;
  private readonly counts = new Int32Array(ASPECTS.length * 3);
  private readonly positive = new Strongest(1);
  private readonly negative = new Strongest(-1);

  add(c: Contribution): void {
    this.reviews.add(c);
    this.ratings += c.review.rating;
    for (const j of c.judgements) {
      count(this.counts, j.aspect * 3, j.score, 1);
      this.positive.offer(j);
      this.negative.offer(j);
    }
  }

  remove(c: Contribution): void {
    this.reviews.remove(c);
    this.ratings -= c.review.rating;
    for (const j of c.judgements) {
      count(this.counts, j.aspect * 3, j.score, -1);
      this.positive.withdraw(j);
      this.negative.withdraw(j);
    }
  }

  insight(): EntityInsight {
    const judgements = () => this.reviews.contributions().flatMap((c) => c.judgements);
    return {
      mentions: this.reviews.size,
      averageRating: meanRating(this.ratings, this.reviews.size),
      aspects: ASPECTS.flatMap((aspect, a) =>
        this.counts[a * 3]! > 0 ? [{ aspect, ...tally(this.counts, a * 3) }] : [],
      ),
      quotes: { positive: this.positive.quotes(judgements), negative: this.negative.quotes(judgements) },
      reviewIds: this.reviews.ids(),
    };
  }
}

/** The reviews grouped by a key they name (technician, service, area): each review once per key. */
export class EntityGroups {
  private readonly groups = new Map<string, Group>();

  constructor(private readonly keysOf: (c: Contribution) => readonly string[]) {}

  add(c: Contribution): void {
    for (const key of new Set(this.keysOf(c))) {
      let group = this.groups.get(key);
      if (!group) this.groups.set(key, (group = new Group()));
      group.add(c);
    }
  }

  remove(c: Contribution): void {
    for (const key of new Set(this.keysOf(c))) {
      const group = this.groups.get(key)!;
      group.remove(c);
      if (group.reviews.size === 0) this.groups.delete(key);
    }
  }

  /**
   * The groups of at least MIN_MENTIONS reviews, ordered by `order` (the catalogue; unknown keys after), then by
   * size, then by key: stable whatever the counts.
   */
  sections(order: readonly string[]): [string, EntityInsight][] {
    const position = (key: string) => {
      const i = order.indexOf(key);
      return i < 0 ? Infinity : i;
    };
    return [...this.groups]
      .filter(([, group]) => group.reviews.size >= MIN_MENTIONS)
      .sort(([a, ga], [b, gb]) => position(a) - position(b) || gb.reviews.size - ga.reviews.size || (a < b ? -1 : 1))
      .map(([key, group]) => [key, group.insight()]);
  }
}
