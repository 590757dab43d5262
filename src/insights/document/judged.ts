// The published reviews read once per build into flat arrays: per review its id, rating, quarter and analysis, its
// aspect judgements (one per aspect), and the technicians, services and area it names. The sections count from
// these numbers and read review objects and analyses only for what the document prints.
import { AspectId } from '../../reviews/schemas.js';
import type { PublishedReview } from '../../reviews/published.js';
import type { AspectJudgement, ReviewAnalysis } from '../analysis/analyzer.js';
import { quarterOf } from './figures.js';

const ASPECTS = AspectId.options.length;
const ASPECT_INDEX = new Map(AspectId.options.map((id, i) => [id, i]));

/** Each review's analysis by review id (a Map will do). */
export type AnalysisLookup = Pick<ReadonlyMap<string, ReviewAnalysis>, 'get'>;

/** Judgements that cancel out (0.8 − 0.8) are neutral, floating-point dust included. */
export const sign = (score: number) => (Math.abs(score) < 1e-9 ? 0 : Math.sign(score));

/** Reviews by key (technician, service, area): each review once per key, review indices in review order. */
class Grouping {
  private readonly keyIds = new Map<string, number>();
  private readonly keys: string[] = [];
  /** (key id, review) pairs, in review order. */
  private pairs = new Int32Array(1024);
  private size = 0;

  add(keys: readonly string[], review: number): void {
    keys.forEach((key, n) => {
      if (keys.indexOf(key) !== n) return;
      let id = this.keyIds.get(key);
      if (id === undefined) {
        id = this.keys.length;
        this.keyIds.set(key, id);
        this.keys.push(key);
      }
      if (this.size + 2 > this.pairs.length) {
        const grown = new Int32Array(this.pairs.length * 2);
        grown.set(this.pairs);
        this.pairs = grown;
      }
      this.pairs[this.size++] = id;
      this.pairs[this.size++] = review;
    });
  }

  /** Key → its reviews, all in one typed array (a counting sort keeps review order within a key). */
  groups(): Map<string, Int32Array> {
    const start = new Int32Array(this.keys.length + 1);
    for (let p = 0; p < this.size; p += 2) start[this.pairs[p]! + 1]!++;
    for (let k = 0; k < this.keys.length; k++) start[k + 1]! += start[k]!;
    const next = start.slice(0, this.keys.length);
    const reviews = new Int32Array(this.size / 2);
    for (let p = 0; p < this.size; p += 2) reviews[next[this.pairs[p]!]!++] = this.pairs[p + 1]!;
    return new Map(this.keys.map((key, k) => [key, reviews.subarray(start[k]!, start[k + 1]!)]));
  }
}

/**
 * Review i owns judgements from[i]..from[i + 1]: one per aspect it judges (several mentions in a review add up, the
 * strongest is the evidence). Typed arrays sized up front and no object per review or judgement: a build over
 * 100,000 reviews leaves little for the garbage collector, whose full collections of a large heap cost the most.
 */
export class Judged {
  readonly ids: string[];
  readonly analyses: ReviewAnalysis[];
  readonly ratings: Float64Array;
  /** Per review: the index of its calendar quarter in `quarters` (sorted) and of its date among the dates. */
  readonly quarterOf: Int32Array;
  readonly quarters: string[];
  readonly dateRank: Int32Array;
  readonly from: Int32Array;
  /** Per judgement: its aspect's index in AspectId order, its summed score, its review and its evidence. */
  readonly aspect: Uint8Array;
  readonly score: Float64Array;
  readonly owner: Int32Array;
  /** Index of the evidence in the owner's analysis.aspects. */
  private readonly evidenceAt: Int32Array;
  readonly technicians: Map<string, Int32Array>;
  readonly services: Map<string, Int32Array>;
  readonly areas: Map<string, Int32Array>;

  constructor(
    readonly reviews: readonly PublishedReview[],
    analyses: AnalysisLookup,
  ) {
    const n = reviews.length;
    this.ids = reviews.map((r) => r.id);
    this.analyses = this.ids.map((id) => analyses.get(id)!);
    this.ratings = new Float64Array(n);
    this.from = new Int32Array(n + 1);
    // Room for every mention: combining mentions of one aspect only leaves some of it unused.
    let mentions = 0;
    for (const analysis of this.analyses) mentions += analysis.aspects.length;
    this.aspect = new Uint8Array(mentions);
    this.score = new Float64Array(mentions);
    this.owner = new Int32Array(mentions);
    this.evidenceAt = new Int32Array(mentions);
    const strongest = new Float64Array(ASPECTS);
    const slot = new Int32Array(ASPECTS).fill(-1);
    const technicians = new Grouping();
    const services = new Grouping();
    const areas = new Grouping();
    let m = 0;
    for (let i = 0; i < n; i++) {
      const analysis = this.analyses[i]!;
      this.ratings[i] = reviews[i]!.rating;
      const area = reviews[i]!.serviceArea;
      if (area) areas.add([area], i);
      technicians.add(analysis.technicians, i);
      services.add(analysis.services, i);
      const first = (this.from[i] = m);
      analysis.aspects.forEach((j, e) => {
        const a = ASPECT_INDEX.get(j.aspect)!;
        const at = slot[a]!;
        if (at < 0) {
          slot[a] = m;
          strongest[a] = Math.abs(j.score);
          this.aspect[m] = a;
          this.score[m] = j.score;
          this.owner[m] = i;
          this.evidenceAt[m++] = e;
        } else {
          this.score[at]! += j.score;
          if (Math.abs(j.score) > strongest[a]!) {
            strongest[a] = Math.abs(j.score);
            this.evidenceAt[at] = e;
          }
        }
      });
      for (let k = first; k < m; k++) slot[this.aspect[k]!] = -1;
    }
    this.from[n] = m;
    this.technicians = technicians.groups();
    this.services = services.groups();
    this.areas = areas.groups();

    const dates = [...new Set(reviews.map((r) => r.date))].sort();
    const rank = new Map(dates.map((d, r) => [d, r]));
    this.quarters = [...new Set(dates.map(quarterOf))].sort();
    const quarterIndex = new Map(this.quarters.map((q, i) => [q, i]));
    const quarterOfRank = dates.map((d) => quarterIndex.get(quarterOf(d))!);
    this.dateRank = new Int32Array(n);
    this.quarterOf = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const r = rank.get(reviews[i]!.date)!;
      this.dateRank[i] = r;
      this.quarterOf[i] = quarterOfRank[r]!;
    }
  }

  /** The clause that decided judgement k. */
  evidence(k: number): AspectJudgement {
    return this.analyses[this.owner[k]!]!.aspects[this.evidenceAt[k]!]!;
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
