// A small LRU of encoded search answers of one data version, bounded by entries and bytes.
import type { Representation } from './representation.js';

interface Entry {
  made: Promise<Representation>;
  /** Once made: what a request answered ahead of Fastify reads (peek). */
  rep?: Representation;
  /** Bytes of every encoding, counted once made (an answer being made holds no encodings yet). */
  bytes: number;
}

const sizeOf = (rep: Representation) => Object.values(rep.variants).reduce((n, v) => n + v.body.length, 0);

/** Request URLs remembered per cache, each with the key of its answer; all forgotten at once when full. */
const URLS_KEPT = 4096;

export class RepresentationCache {
  private readonly entries = new Map<string, Entry>();
  /** Request URL (path and query as sent) → key of its answer: a repeated request needs no parsing to be found. */
  private readonly keysByUrl = new Map<string, string>();
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
        entry.rep = rep;
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

  /** Remembers that requests for `url` are answered by the entry `key` (a URL whose parameters were valid). */
  rememberUrl(url: string, key: string): void {
    if (this.keysByUrl.size >= URLS_KEPT) this.keysByUrl.clear();
    this.keysByUrl.set(url, key);
  }

  /** The made answer for a remembered URL, if it is still held (and marked as recently used). */
  peekUrl(url: string): Representation | undefined {
    const key = this.keysByUrl.get(url);
    const hit = key === undefined ? undefined : this.entries.get(key);
    if (!hit?.rep) return undefined;
    this.entries.delete(key!);
    this.entries.set(key!, hit);
    return hit.rep;
  }

  private evict(): void {
    for (const [key, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) return;
      this.entries.delete(key);
      this.bytes -= entry.bytes;
    }
  }
}
