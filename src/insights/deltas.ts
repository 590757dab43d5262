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
