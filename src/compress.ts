// gzip and brotli copies of a body, made on libuv's thread pool, with settings chosen by size and effort.
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';

/** Pre-rendered documents use the best (slow) settings; per-request bodies use fast ones. */
export type Effort = 'best' | 'fast';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** Below this size a compressed copy saves too little to be worth a variant. */
const MIN_COMPRESS_BYTES = 512;

/** A body's compressed copies, or none when it is too small for them to be worth a variant. */
export interface Compressed {
  gzip: Buffer;
  br: Buffer;
}

/** Brotli quality and gzip level for a body of this size (see `compress`). */
function settings(size: number, effort: Effort): { brotli: number; gzip: number } {
  const large = size > 1 << 20;
  if (effort === 'fast') return { brotli: large ? 1 : 4, gzip: large ? 1 : 6 };
  return { brotli: !large ? 11 : size <= 8 << 20 ? 9 : 6, gzip: 9 };
}

/** One compressed copy, made on libuv's thread pool (this thread only waits for it). */
export function compressTo(coding: 'gzip' | 'br', body: Buffer, effort: Effort): Promise<Buffer> {
  const { brotli, gzip: level } = settings(body.length, effort);
  if (coding === 'gzip') return gzipAsync(body, { level });
  return brotliAsync(body, {
    params: {
      [zlib.BROTLI_PARAM_QUALITY]: brotli,
      [zlib.BROTLI_PARAM_SIZE_HINT]: body.length,
      [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
    },
  });
}

// Best effort (documents made once per version): brotli's best quality costs seconds on multi-megabyte bodies, and
// every import re-encodes the reviews dataset: quality 11 up to 1 MiB, 9 up to 8 MiB, 6 above (45 MiB, 100k
// reviews: 1.2 s instead of 3.9 s, 15% larger).
// Fast effort (bodies made per request, and a new insights document that should be served at once): gzip 6 and
// brotli 4, and above 1 MiB gzip 1 and brotli 1 (7.8 MB of insights: 41 and 32 ms instead of 209 and 124 for
// gzip 6 and brotli 4; 16% and 19% larger).
export async function compress(body: Buffer, effort: Effort): Promise<Compressed | undefined> {
  if (body.length < MIN_COMPRESS_BYTES) return undefined;
  const [gz, br] = await Promise.all([compressTo('gzip', body, effort), compressTo('br', body, effort)]);
  return { gzip: gz, br };
}
