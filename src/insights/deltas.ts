// What the insights process holds, seen from the server: each build request sends only the difference, since sending
// 100,000 reviews to a thread on every import would stall the server for a second or more.
import type { PublishedReview } from '../reviews/published.js';
import type { ReviewDelta } from '../reviews/review-set.js';

/** Reviews looked at between pauses. */
const SLICE = 20_000;

/** The server's side: what the thread holds (id → updatedAt), so each build sends only the difference. */
export class ReviewDeltas {
  private sent = new Map<string, string>();
  /** Counts `forget` calls: a delta computed across one is computed again. */
  private generation = 0;

  /** The thread was replaced: the next delta sends everything. */
  forget(): void {
    this.sent.clear();
    this.generation++;
  }

  /**
   * Updated in place: a one-review change costs a lookup per review, and no new map of them all. `pause` is awaited
   * every SLICE reviews (330,000 new ones take half a second).
   */
  async next(
    reviews: readonly PublishedReview[],
    pause: () => Promise<void> = async () => undefined,
  ): Promise<ReviewDelta> {
    const generation = this.generation;
    const reset = this.sent.size === 0;
    const upsert: PublishedReview[] = [];
    for (let i = 0; i < reviews.length; i++) {
      if (i > 0 && i % SLICE === 0) {
        await pause();
        if (this.generation !== generation) return this.next(reviews, pause);
      }
      const r = reviews[i]!;
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
