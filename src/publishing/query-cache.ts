// A small LRU of encoded query responses (search, since) of one data version, bounded by entries and bytes.
import type { Representation } from './representation.js';

export class RepresentationCache {
  private readonly entries = new Map<string, Promise<Representation>>();
  private bytes = 0;
  constructor(
    private readonly maxEntries = 2000,
    private readonly maxBytes = 64 << 20,
  ) {}

  get(key: string, make: () => Promise<Representation>): Promise<Representation> {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const made = make();
    this.entries.set(key, made);
    made.then(
      (rep) => {
        this.bytes += Object.values(rep.variants).reduce((n, v) => n + v.body.length, 0);
        this.evict();
      },
      () => this.entries.delete(key),
    );
    return made;
  }

  private evict(): void {
    for (const [key, rep] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) return;
      this.entries.delete(key);
      void rep.then((r) => {
        this.bytes -= Object.values(r.variants).reduce((n, v) => n + v.body.length, 0);
      });
    }
  }
}
