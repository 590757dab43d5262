// A small LRU of encoded search answers of one data version, bounded by entries and bytes.
import type { Representation } from './representation.js';

interface Entry {
  made: Promise<Representation>;
  /** Bytes of every encoding, counted once made (an answer being made holds no encodings yet). */
  bytes: number;
}

const sizeOf = (rep: Representation) => Object.values(rep.variants).reduce((n, v) => n + v.body.length, 0);

export class RepresentationCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  constructor(
    private readonly maxEntries = 2000,
    private readonly maxBytes = 64 << 20,
  ) {}

  /** Entries and bytes held, for metrics and tests. */
  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  /** The cached answer, or `make()`'s; callers asking while it is made share it. */
  get(key: string, make: () => Promise<Representation>): Promise<Representation> {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.made;
    }
    const entry: Entry = { made: make(), bytes: 0 };
    this.entries.set(key, entry);
    entry.made.then(
      (rep) => {
        // Counted only while held: an entry evicted while being made never adds its bytes.
        if (this.entries.get(key) !== entry) return;
        entry.bytes = sizeOf(rep);
        this.bytes += entry.bytes;
        this.evict();
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    this.evict();
    return entry.made;
  }

  private evict(): void {
    for (const [key, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) return;
      this.entries.delete(key);
      this.bytes -= entry.bytes;
    }
  }
}
