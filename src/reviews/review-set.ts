// The published reviews kept in step by deltas: a process that holds them applies what changed instead of reading
// or sending 100,000 reviews again (the server after an import, the insights process after each build request).
import { compareNewestFirst, type PublishedReview } from './published.js';

export interface ReviewDelta {
  /** Start afresh: `upsert` holds every review. */
  reset: boolean;
  /** New reviews and new versions of known ones. */
  upsert: PublishedReview[];
  /** Ids no longer published. */
  remove: string[];
}

/** Past this many upserts a full sort beats inserting each in place. */
const SORT_ABOVE = 1000;

/** The reviews newest first, with each version applied as a delta; every apply returns a new array. */
export class ReviewSet {
  private readonly byId = new Map<string, PublishedReview>();
  private ordered: readonly PublishedReview[] = [];

  /** The ids held now: what a delta is computed against. */
  get ids(): ReadonlyMap<string, unknown> {
    return this.byId;
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  apply(delta: ReviewDelta): readonly PublishedReview[] {
    if (delta.reset) this.byId.clear();
    const gone = new Set(delta.remove);
    for (const id of delta.remove) this.byId.delete(id);
    for (const r of delta.upsert) {
      if (this.byId.has(r.id)) gone.add(r.id);
      this.byId.set(r.id, r);
    }
    if (delta.reset || delta.upsert.length > SORT_ABOVE) {
      const all = [...this.byId.values()];
      // The store reads every review newest first: checking that order is a tenth of sorting 100,000 reviews again.
      this.ordered = isNewestFirst(all) ? all : all.sort(compareNewestFirst);
      return this.ordered;
    }
    // A few changes: drop the old versions and insert the new ones in place.
    const kept = gone.size ? this.ordered.filter((r) => !gone.has(r.id)) : this.ordered.slice();
    for (const r of delta.upsert) {
      let lo = 0;
      let hi = kept.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (compareNewestFirst(kept[mid]!, r) < 0) lo = mid + 1;
        else hi = mid;
      }
      kept.splice(lo, 0, r);
    }
    this.ordered = kept;
    return this.ordered;
  }
}

function isNewestFirst(reviews: readonly PublishedReview[]): boolean {
  for (let i = 1; i < reviews.length; i++) if (compareNewestFirst(reviews[i - 1]!, reviews[i]!) > 0) return false;
  return true;
}
