// A list of contributions in review order (newest first), as the document lists review ids. Changes are collected
// and applied when the list is next read: a few in place (binary search), many by one sort and merge, so a build
// from nothing costs a sort and a one-review change costs a splice.
import { compareNewestFirst } from '../../reviews/published.js';
import type { Contribution } from './contribution.js';

/** Up to this many pending changes are applied one by one; more, in one pass over the list. */
const IN_PLACE = 16;

const byReview = (a: Contribution, b: Contribution) => compareNewestFirst(a.review, b.review);

export class OrderedReviews {
  private items: Contribution[] = [];
  private added: Contribution[] = [];
  private removed = new Set<Contribution>();
  private idList: string[] | undefined;

  /** How many contributions the list holds, pending changes included. */
  get size(): number {
    return this.items.length + this.added.length - this.removed.size;
  }

  add(contribution: Contribution): void {
    this.added.push(contribution);
    this.idList = undefined;
  }

  /** `contribution` must be in the list (added earlier, and not removed since). */
  remove(contribution: Contribution): void {
    this.removed.add(contribution);
    this.idList = undefined;
  }

  /** The contributions in review order. Read-only: the array is the list's own. */
  contributions(): readonly Contribution[] {
    this.settle();
    return this.items;
  }

  /**
   * The review ids in review order: the same array until the list changes (a new one then), so an unchanged list
   * costs nothing. Shared with every document printed since: never to be changed.
   */
  ids(): string[] {
    return (this.idList ??= this.contributions().map((c) => c.id));
  }

  private settle(): void {
    const { removed, added } = this;
    if (removed.size === 0 && added.length === 0) return;
    // A contribution added and removed before the list was read never enters it.
    const entering = removed.size ? added.filter((c) => !removed.delete(c)) : added;
    if (removed.size > IN_PLACE) this.items = this.items.filter((c) => !removed.has(c));
    else {
      for (const c of removed) {
        const at = this.indexOf(c);
        if (this.items[at] !== c) throw new Error(`review ${c.review.id} is not in the list`);
        this.items.splice(at, 1);
      }
    }
    if (entering.length > IN_PLACE) this.items = merge(this.items, entering.sort(byReview));
    else for (const c of entering) this.items.splice(this.indexOf(c), 0, c);
    this.added = [];
    this.removed = new Set();
  }

  /** Where `c` is, or would be, in the list: the first item not before it. */
  private indexOf(c: Contribution): number {
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (byReview(this.items[mid]!, c) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** Two lists in review order as one. */
function merge(a: readonly Contribution[], b: readonly Contribution[]): Contribution[] {
  const out: Contribution[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(byReview(a[i]!, b[j]!) <= 0 ? a[i++]! : b[j++]!);
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}
