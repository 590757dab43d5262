// The since-date listings of one version. Every date maps to a position in the reviews (newest first), and the
// listing's reviews are rendered and compressed once per position: all dates before the oldest review share one
// part, and a new date costs a small prefix, not the whole dataset again. The envelope echoes the date, so
// each body is composed of parts: `{"since":…,"count":…,"reviews":` + the shared part + `}`; its gzip copy
// is one gzip member of independently compressed deflate segments (each ends on a full flush, so they join).
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, crc32, deflateRaw, deflateRawSync } from 'node:zlib';
import { reviewsJson } from '../reviews/documents.js';
import type { SearchIndex } from '../reviews/search.js';
import type { ComposedBody } from './representation.js';

const deflateRawAsync = promisify(deflateRaw);
const brotliAsync = promisify(brotliCompress);

/** The largest listing offered in br: compressed once per date asked, at quality 4 (about 10 ms a MiB). */
const BROTLI_MAX_BYTES = 1 << 20;
/** A 1 MiB window (the listing's size at most): each compression under way holds a few MiB, not the 4 MiB default's 20. */
const BROTLI = {
  params: {
    [zlib.BROTLI_PARAM_QUALITY]: 4,
    [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
    [zlib.BROTLI_PARAM_LGWIN]: 20,
  },
};
/** gzip trailers kept per version (8 bytes each): the checksum of a large listing takes milliseconds. */
const TRAILERS_KEPT = 10_000;
/** br copies kept per version, by date, least recently used dropped first. */
const BROTLI_CACHE_BYTES = 8 << 20;
/** br compressions under way at once in the process; more wait their turn (each holds its encoder's memory). */
const BROTLI_AT_ONCE = 2;

let brotliRunning = 0;
const brotliWaiting: (() => void)[] = [];

/** Compresses in br with at most BROTLI_AT_ONCE compressions under way: 50 dates asked at once once held 50 encoders. */
async function brotliInTurn(bytes: () => Buffer): Promise<Buffer> {
  if (brotliRunning >= BROTLI_AT_ONCE) await new Promise<void>((go) => brotliWaiting.push(go));
  else brotliRunning++;
  try {
    return await brotliAsync(bytes(), BROTLI);
  } finally {
    const next = brotliWaiting.shift();
    if (next)
      next(); // the slot passes on
    else brotliRunning--;
  }
}

/** The shared part of the listings of one position: the reviews array, as JSON and as a deflate segment. */
interface ReviewsPart {
  json: Buffer;
  tag: string;
  count: number;
  deflated: Promise<Buffer>;
  /** What the entry holds in memory (the deflated size is added once known). */
  bytes: number;
}

/** gzip's fixed header (RFC 1952): deflate, no flags, no time, unknown OS. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** Level 4: 43 MB of reviews in about 0.3 s, 10% larger than level 9 at a third of its time. */
const LEVEL = 4;

const segment = (bytes: Buffer, last: boolean) =>
  deflateRawSync(bytes, { level: LEVEL, finishFlush: last ? zlib.Z_FINISH : zlib.Z_FULL_FLUSH });

/** Shared parts by position, least recently used dropped first once they hold more than `maxBytes`. */
export class SinceListings {
  private readonly parts = new Map<number, ReviewsPart>();
  private bytes = 0;
  private readonly brotli = new Map<string, { body: Promise<Buffer>; bytes: number }>();
  private readonly trailers = new Map<string, Buffer>();
  private brotliBytes = 0;

  constructor(
    private readonly index: SearchIndex,
    private readonly maxBytes = 64 << 20,
  ) {}

  /** Entries and bytes held, for metrics and tests. */
  get size(): { entries: number; bytes: number } {
    return { entries: this.parts.size, bytes: this.bytes };
  }

  /**
   * The listing of reviews dated on or after `since`: its bodies, made only when sent. Brotli cannot join
   * separately compressed parts, so a br copy is offered only up to BROTLI_MAX_BYTES, compressed for the request.
   */
  listing(since: string): { identity: ComposedBody; gzip: ComposedBody; br?: ComposedBody } {
    const part = this.part(this.index.sinceCount(since));
    const prefix = Buffer.from(`{"since":${JSON.stringify(since)},"count":${part.count},"reviews":`, 'utf8');
    const suffix = Buffer.from('}', 'utf8');
    const tag = createHash('sha256').update(prefix).update(part.tag).digest('base64url').slice(0, 27);
    const identity = [prefix, part.json, suffix];
    const size = prefix.length + part.json.length + suffix.length;
    const br: ComposedBody = {
      etag: `"${tag}-br"`,
      parts: async () => [await this.brotliOf(since, tag, () => Buffer.concat(identity, size))],
    };
    return {
      ...(size <= BROTLI_MAX_BYTES ? { br } : {}),
      identity: { etag: `"${tag}"`, parts: async () => identity },
      gzip: {
        etag: `"${tag}-gzip"`,
        parts: async () => {
          const deflated = await part.deflated;
          return [
            GZIP_HEADER,
            segment(prefix, false),
            deflated,
            segment(suffix, true),
            this.gzipTrailer(tag, identity, size),
          ];
        },
      },
    };
  }

  /** gzip's trailer (the checksum and length of the whole body) of one date's listing, computed once per date. */
  private gzipTrailer(tag: string, [prefix, json, suffix]: Buffer[], size: number): Buffer {
    let trailer = this.trailers.get(tag);
    if (!trailer) {
      trailer = Buffer.alloc(8);
      trailer.writeUInt32LE(crc32(suffix!, crc32(json!, crc32(prefix!))) >>> 0, 0);
      trailer.writeUInt32LE(size % 2 ** 32, 4);
      if (this.trailers.size >= TRAILERS_KEPT) this.trailers.delete(this.trailers.keys().next().value!);
      this.trailers.set(tag, trailer);
    }
    return trailer;
  }

  /** The br body of one date's listing: compressed when first asked, then kept while it is among the recent ones. */
  private brotliOf(since: string, tag: string, identity: () => Buffer): Promise<Buffer> {
    const key = `${since} ${tag}`;
    const cached = this.brotli.get(key);
    if (cached) {
      this.brotli.delete(key);
      this.brotli.set(key, cached);
      return cached.body;
    }
    const entry = { body: brotliInTurn(identity), bytes: 0 };
    this.brotli.set(key, entry);
    entry.body.then(
      (body) => {
        if (this.brotli.get(key) !== entry) return;
        entry.bytes = body.length;
        this.brotliBytes += body.length;
        for (const [k, e] of this.brotli) {
          if (this.brotliBytes <= BROTLI_CACHE_BYTES) break;
          if (e === entry) continue;
          this.brotli.delete(k);
          this.brotliBytes -= e.bytes;
        }
      },
      () => this.brotli.delete(key),
    );
    return entry.body;
  }

  private part(count: number): ReviewsPart {
    const cached = this.parts.get(count);
    if (cached) {
      this.parts.delete(count);
      this.parts.set(count, cached);
      return cached;
    }
    const json = Buffer.concat(reviewsJson(this.index.newest(count)));
    const part: ReviewsPart = {
      json,
      tag: createHash('sha256').update(json).digest('base64url'),
      count,
      deflated: deflateRawAsync(json, { level: LEVEL, finishFlush: zlib.Z_FULL_FLUSH }),
      bytes: json.length,
    };
    // Counted as soon as it exists; its compressed copy is counted when made, if the entry is still held.
    this.parts.set(count, part);
    this.bytes += part.bytes;
    void part.deflated.then(
      (deflated) => {
        if (this.parts.get(count) !== part) return;
        part.bytes += deflated.length;
        this.bytes += deflated.length;
        this.evict(part);
      },
      () => undefined,
    );
    this.evict(part);
    return part;
  }

  /** Drops the least recently used parts beyond the byte bound (never the one just asked for). */
  private evict(keep: ReviewsPart): void {
    for (const [count, part] of this.parts) {
      if (this.bytes <= this.maxBytes) return;
      if (part === keep) continue;
      this.parts.delete(count);
      this.bytes -= part.bytes;
    }
  }
}
