// Exact RFC 9110 conditional GET over encoded representations: content-coding negotiation, validators, 304.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Coding, Representation } from '../publishing/representation.js';

/** Parses Accept-Encoding and picks the acceptable coding with the highest q; ties prefer br, then gzip, then identity. */
export function negotiateCoding(header: string | undefined, available: readonly Coding[]): Coding {
  if (header === undefined) return 'identity';
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [rawName, ...params] = part.trim().split(';');
    const name = (rawName ?? '').trim().toLowerCase();
    if (!name) continue;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p);
      if (m) q = Math.min(1, Math.max(0, Number(m[1]) || 0));
    }
    weights.set(name === 'x-gzip' ? 'gzip' : name, q);
  }
  const star = weights.get('*');
  const weightOf = (coding: Coding): number => {
    const explicit = weights.get(coding);
    if (explicit !== undefined) return explicit;
    if (star !== undefined) return star;
    // Unlisted identity stays acceptable (unless "*;q=0"), but below every coding the client did weigh.
    return coding === 'identity' ? Number.MIN_VALUE : 0;
  };
  let best: Coding = 'identity';
  let bestQ = -1;
  for (const coding of ['br', 'gzip', 'identity'] as const) {
    if (!available.includes(coding)) continue;
    const q = weightOf(coding);
    if (q > 0 && q > bestQ) {
      best = coding;
      bestQ = q;
    }
  }
  // Nothing acceptable: RFC 9110 §12.5.3 lets the server send identity rather than fail.
  return best;
}

/** Weak comparison (RFC 9110 §8.8.3.2): opaque tags equal, W/ prefixes ignored. */
function ifNoneMatchMatches(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = opaque(etag);
  const tags = header.match(/(?:W\/)?"[^"]*"/g) ?? [];
  return tags.some((t) => opaque(t) === wanted);
}

/** IMF-fixdate and the two obsolete formats RFC 9110 §5.6.7 requires recipients to accept. */
function parseHttpDate(value: string): number | null {
  const v = value.trim();
  const valid =
    /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(v) ||
    /^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \d{2}-(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-\d{2} \d{2}:\d{2}:\d{2} GMT$/.test(v) ||
    /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/.test(v);
  if (!valid) return null;
  const time = Date.parse(/GMT$/.test(v) ? v : `${v} GMT`);
  return Number.isNaN(time) ? null : time;
}

/** RFC 9110 §13.2.2: If-None-Match, when present, decides alone; otherwise If-Modified-Since (GET and HEAD only). */
export function isNotModified(request: FastifyRequest, etag: string, lastModified: Date | null): boolean {
  const inm = request.headers['if-none-match'];
  if (inm !== undefined) return ifNoneMatchMatches(Array.isArray(inm) ? inm.join(',') : inm, etag);
  const ims = request.headers['if-modified-since'];
  if (ims === undefined || lastModified === null) return false;
  const since = parseHttpDate(ims);
  return since !== null && lastModified.getTime() <= since;
}

/** Sends a representation: 200 with the negotiated coding, or 304 with only the validators and caching fields. */
export function sendRepresentation(request: FastifyRequest, reply: FastifyReply, rep: Representation): FastifyReply {
  const codings = Object.keys(rep.variants) as Coding[];
  const coding = negotiateCoding(request.headers['accept-encoding'], codings);
  const variant = rep.variants[coding] ?? rep.variants.identity;
  reply.header('vary', 'Accept-Encoding');
  reply.header('etag', variant.etag);
  reply.header('cache-control', rep.cacheControl);
  if (rep.retryAfterSeconds !== undefined) reply.header('retry-after', String(rep.retryAfterSeconds));
  if (isNotModified(request, variant.etag, rep.lastModified)) {
    return reply.code(304).send();
  }
  if (rep.lastModified) reply.header('last-modified', rep.lastModified.toUTCString());
  if (coding !== 'identity') reply.header('content-encoding', coding);
  reply.header('content-type', rep.contentType);
  return reply.code(200).send(variant.body);
}
