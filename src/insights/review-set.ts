// The published reviews as the insights thread holds them, kept in step by deltas: sending 100,000 reviews to a
// thread on every import would stall the server for a second or more, sending what changed costs next to nothing.
import { compareNewestFirst, type PublishedReview } from '../reviews/published.js';

export interface ReviewDelta {
  /** The thread's copy was lost (a new thread): `upsert` holds every review. */
  reset: boolean;
  /** New reviews and new versions of known ones. */
  upsert: PublishedReview[];
  /** Ids no longer published. */
  remove: string[];
}


/** The thread's side: applies deltas to a copy kept newest first. */
export class ReviewSet {
  private byId = new Map<string, PublishedReview>();
  private ordered: PublishedReview[] = [];

  apply(delta: ReviewDelta): readonly PublishedReview[] {
    if (delta.reset) this.byId.clear();
    const gone = new Set(delta.remove);
    for (const id of delta.remove) this.byId.delete(id);
    for (const r of delta.upsert) {
      if (this.byId.has(r.id)) gone.add(r.id);
      this.byId.set(r.id, r);
    }
    if (delta.reset || delta.upsert.length > 1000) {
      this.ordered = [...this.byId.values()].sort(compareNewestFirst);
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

/** The server's side: what the thread holds (id → updatedAt), so each build sends only the difference. */
export class ReviewDeltas {
  private sent = new Map<string, string>();

  /** The thread was replaced: the next delta sends everything. */
  forget(): void {
    this.sent.clear();
  }

  next(reviews: readonly PublishedReview[]): ReviewDelta {
    const reset = this.sent.size === 0;
    const upsert: PublishedReview[] = [];
    const current = new Map<string, string>();
    for (const r of reviews) {
      current.set(r.id, r.updatedAt);
      if (this.sent.get(r.id) !== r.updatedAt) upsert.push(r);
    }
    const remove = reset ? [] : [...this.sent.keys()].filter((id) => !current.has(id));
    this.sent = current;
    return { reset, upsert, remove };
  }
}
