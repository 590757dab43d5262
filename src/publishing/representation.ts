// Encoded representations: a body rendered once with its gzip and brotli variants, strong ETags and caching fields.
import { createHash } from 'node:crypto';
import { compress, compressTo, type Compressed, type Effort } from '../compress.js';

export type Coding = 'br' | 'gzip' | 'identity';

export interface Variant {
  body: Buffer;
  /** Strong, distinct per content-coding. */
  etag: string;
}

export interface Representation {
  contentType: string;
  cacheControl: string;
  /** Second precision, as HTTP dates carry; null when the data was never published. */
  lastModified: Date | null;
  variants: Partial<Record<Coding, Variant>> & { identity: Variant };
  /** Compressed copies of a large body, made when first asked for: their tags are known before their bytes. */
  deferred?: DeferredCompression;
  /** Sent as Retry-After: the body is a placeholder for content still being made. */
  retryAfterSeconds?: number;
  /**
   * Another body of this resource was served under the same Last-Modified (both made within one second): that
   * date cannot tell them apart, so an If-Modified-Since equal to it is no match.
   */
  lastModifiedShared?: boolean;
}

/** A body made only when it is sent (after the 304 check, in the coding asked for), in parts that are not joined. */
export interface ComposedBody {
  etag: string;
  parts: () => Promise<readonly Buffer[]>;
}

/** Caching of what is not a catalogue document (those carry their own policy). */
export const CACHE_CONTROL = {
  /** Search and since: a minute, as a query's answer moves with every import. */
  queries: 'public, max-age=60',
  static: 'public, max-age=3600',
  /** Insights not built yet: nothing a cache should keep. */
  none: 'no-store',
} as const;

export interface EncodeOptions {
  contentType: string;
  cacheControl: string;
  lastModified: Date | null;
  /** Pre-rendered documents use the best (slow) settings; per-request bodies use fast ones. */
  effort: Effort;
  /** The body's contentTag, when the caller already computed it. */
  tag?: string;
  /** Where a large body's compressed copies are kept once made, and found after a restart. */
  copies?: CompressedCopies;
}

/** Compressed copies kept outside the process (the store), by the tag of the bytes they are made from. */
export interface CompressedCopies {
  find(tag: string, coding: 'gzip' | 'br'): Promise<Uint8Array | undefined>;
  /** Keeps a copy; it may fail or keep nothing, and the copy is served anyway. */
  save(tag: string, coding: 'gzip' | 'br', bytes: Buffer): void;
}

/** Bytes as a Buffer without copying them (stores hand back Buffers or plain Uint8Arrays, by engine). */
export const asBuffer = (bytes: Uint8Array): Buffer =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** The content hash behind every ETag of a body: the same bytes get the same tags, in any process. */
export function contentTag(body: Buffer): string {
  return createHash('sha256').update(body).digest('base64url').slice(0, 27);
}

/** HTTP dates carry whole seconds; comparisons with If-Modified-Since must use the same precision. */
function toSeconds(date: Date | null): Date | null {
  return date ? new Date(Math.floor(date.getTime() / 1000) * 1000) : null;
}

/**
 * Whether a Last-Modified is shared by different bodies: the same second as the one before it, with other bytes
 * (or the same bytes, when that one was already shared).
 */
export function sharesLastModified(
  next: Date | null,
  previous: Date | null,
  bytesChanged: boolean,
  previousShared = false,
): boolean {
  const next_ = toSeconds(next);
  const previous_ = toSeconds(previous);
  if (!next_ || !previous_ || next_.getTime() !== previous_.getTime()) return false;
  return bytesChanged || previousShared;
}

/** `next` as what replaces `previous` for the same resource, marked when their Last-Modified is shared. */
export function succeeding(next: Representation, previous: Representation | undefined): Representation {
  if (!previous) return next;
  const shared = sharesLastModified(
    next.lastModified,
    previous.lastModified,
    next.variants.identity.etag !== previous.variants.identity.etag,
    previous.lastModifiedShared,
  );
  return shared === (next.lastModifiedShared ?? false) ? next : { ...next, lastModifiedShared: shared };
}

/** The same bytes and tags under a new Last-Modified: no re-encoding. */
export function withLastModified(rep: Representation, lastModified: Date | null): Representation {
  return { ...rep, lastModified: toSeconds(lastModified) };
}

/**
 * Above this size a document's compressed copies are made when a client first asks for that coding, not when the
 * version is built: a version is served sooner (the 44 MB reviews dataset at 100k reviews took 1 s of gzip 9 and
 * brotli 6 before its first answer), and a coding nobody asks for takes no memory.
 */
export const DEFER_ABOVE_BYTES = 1 << 20;

/** The compressed copies of one body, each made once, when first asked for; every copy of a representation shares them. */
export class DeferredCompression {
  private readonly made: Partial<Record<'gzip' | 'br', Promise<Variant>>> = {};

  constructor(
    private readonly body: Buffer,
    private readonly tag: string,
    private readonly effort: Effort,
    private readonly copies?: CompressedCopies,
  ) {}

  etag(coding: 'gzip' | 'br'): string {
    return `"${this.tag}-${coding}"`;
  }

  variant(coding: 'gzip' | 'br'): Promise<Variant> {
    const made = (this.made[coding] ??= this.copy(coding).then((body) => ({ body, etag: this.etag(coding) })));
    // A failure is not kept: the next request tries again.
    made.catch(() => {
      if (this.made[coding] === made) delete this.made[coding];
    });
    return made;
  }

  /** A copy kept from an earlier process (taken on trust: it is keyed by the tag of these bytes), or made now and kept. */
  private async copy(coding: 'gzip' | 'br'): Promise<Buffer> {
    const kept = await this.copies?.find(this.tag, coding).catch(() => undefined);
    if (kept) return asBuffer(kept);
    const made = await compressTo(coding, this.body, this.effort);
    this.copies?.save(this.tag, coding, made);
    return made;
  }

  /** Bytes of the copies made so far (for metrics and tests). */
  async bytes(): Promise<number> {
    const made = await Promise.all(Object.values(this.made).map((p) => p.catch(() => undefined)));
    return made.reduce((n, v) => n + (v?.body.length ?? 0), 0);
  }
}

/** A representation of a body and its compressed copies, made here or earlier (stored with the body). */
export function representationOf(
  body: Buffer,
  compressed: Compressed | undefined,
  options: Omit<EncodeOptions, 'effort'>,
): Representation {
  const tag = options.tag ?? contentTag(body);
  const variants: Representation['variants'] = { identity: { body, etag: `"${tag}"` } };
  if (compressed) {
    variants.gzip = { body: compressed.gzip, etag: `"${tag}-gzip"` };
    variants.br = { body: compressed.br, etag: `"${tag}-br"` };
  }
  return {
    contentType: options.contentType,
    cacheControl: options.cacheControl,
    lastModified: toSeconds(options.lastModified),
    variants,
  };
}

/** The body's representation; a large body's compressed copies are deferred to their first request. */
export async function encodeRepresentation(content: string | Buffer, options: EncodeOptions): Promise<Representation> {
  const body = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  if (body.length <= DEFER_ABOVE_BYTES) return representationOf(body, await compress(body, options.effort), options);
  const tag = options.tag ?? contentTag(body);
  return {
    ...representationOf(body, undefined, { ...options, tag }),
    deferred: new DeferredCompression(body, tag, options.effort, options.copies),
  };
}
