// What the insights thread holds, seen from the server: each build request sends only the difference, since sending
// 100,000 reviews to a thread on every import would stall the server for a second or more.
import type { PublishedReview } from '../reviews/published.js';
import type { ReviewDelta } from '../reviews/review-set.js';

/** The server's side: what the thread holds (id → updatedAt), so each build sends only the difference. */
export class ReviewDeltas {
  private sent = new Map<string, string>();

  /** The thread was replaced: the next delta sends everything. */
  forget(): void {
    this.sent.clear();
  }

  /** Updated in place: a one-review change costs a lookup per review, and no new map of them all. */
  next(reviews: readonly PublishedReview[]): ReviewDelta {
    const reset = this.sent.size === 0;
    const upsert: PublishedReview[] = [];
    for (const r of reviews) {
      if (this.sent.get(r.id) === r.updatedAt) continue;
      upsert.push(r);
      this.sent.set(r.id, r.updatedAt);
    }
    // Every review is in `sent` now; anything more was removed (rare: only then are the current ids collected).
    const remove: string[] = [];
    if (this.sent.size > reviews.length) {
      const current = new Set(reviews.map((r) => r.id));
      for (const id of this.sent.keys()) {
        if (current.has(id)) continue;
        remove.push(id);
        this.sent.delete(id);
      }
    }
    return { reset, upsert, remove };
  }
}
