// Exact RFC 9110 conditional GET over encoded representations: content-coding negotiation, validators, 304.
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import type { Coding, ComposedBody, Representation } from '../publishing/representation.js';
import { EVERY_RESPONSE_HEADERS } from './cors.js';

/**
 * Negotiations remembered by list of codings offered (one of OFFERS below) and header: clients send a handful of
 * distinct Accept-Encoding values. A request costs two lookups and builds no string.
 */
const negotiated = new WeakMap<readonly Coding[], Map<string, Coding>>();
const NEGOTIATIONS_KEPT = 256;

/** Parses Accept-Encoding and picks the acceptable coding with the highest q; ties prefer br, then gzip, then identity. */
export function negotiateCoding(header: string | undefined, available: readonly Coding[]): Coding {
  if (header === undefined) return 'identity';
  let byHeader = negotiated.get(available);
  if (!byHeader) negotiated.set(available, (byHeader = new Map()));
  let coding = byHeader.get(header);
  if (coding === undefined) {
    coding = pickCoding(header, available);
    if (byHeader.size >= NEGOTIATIONS_KEPT) byHeader.clear();
    byHeader.set(header, coding);
  }
  return coding;
}

function pickCoding(header: string, available: readonly Coding[]): Coding {
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
  // The common case, a client sending back the one tag it was given, needs no parsing.
  if (header === etag) return true;
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = opaque(etag);
  const tags = header.match(/(?:W\/)?"[^"]*"/g) ?? [];
  return tags.some((t) => opaque(t) === wanted);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const HTTP_DATE_FORMATS: {
  pattern: RegExp;
  fields: (m: RegExpExecArray) => [day: string, month: string, year: string, time: string];
}[] = [
  // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
  {
    pattern: /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{2}) ([A-Z][a-z]{2}) (\d{4}) (\d{2}:\d{2}:\d{2}) GMT$/,
    fields: (m) => [m[1]!, m[2]!, m[3]!, m[4]!],
  },
  // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
  {
    pattern:
      /^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\d{2})-([A-Z][a-z]{2})-(\d{2}) (\d{2}:\d{2}:\d{2}) GMT$/,
    fields: (m) => [m[1]!, m[2]!, m[3]!, m[4]!],
  },
  // asctime: Sun Nov  6 08:49:37 1994
  {
    pattern: /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ([A-Z][a-z]{2}) ([ \d]\d) (\d{2}:\d{2}:\d{2}) (\d{4})$/,
    fields: (m) => [m[2]!, m[1]!, m[4]!, m[3]!],
  },
];

/** RFC 9110 §5.6.7: a two-digit year more than 50 years ahead is the most recent past year with those digits. */
function fullYear(digits: string): number {
  if (digits.length === 4) return Number(digits);
  const now = new Date().getUTCFullYear();
  const year = Math.floor(now / 100) * 100 + Number(digits);
  return year > now + 50 ? year - 100 : year;
}

/**
 * IMF-fixdate and the two obsolete formats RFC 9110 §5.6.7 requires recipients to accept. A date that does not
 * exist (31 February, hour 24) is invalid, not rolled over into another: an invalid If-Modified-Since is ignored.
 */
function parseHttpDate(value: string): number | null {
  const v = value.trim();
  for (const format of HTTP_DATE_FORMATS) {
    const m = format.pattern.exec(v);
    if (!m) continue;
    const [dayText, monthText, yearText, timeText] = format.fields(m);
    const month = MONTHS.indexOf(monthText);
    const [hours, minutes, seconds] = timeText.split(':').map(Number) as [number, number, number];
    const day = Number(dayText.trim());
    const year = fullYear(yearText);
    if (month < 0) return null;
    const date = new Date(Date.UTC(year, month, day, hours, minutes, seconds));
    const exact =
      date.getUTCFullYear() === year &&
      date.getUTCMonth() === month &&
      date.getUTCDate() === day &&
      date.getUTCHours() === hours &&
      date.getUTCMinutes() === minutes &&
      date.getUTCSeconds() === seconds;
    return exact ? date.getTime() : null;
  }
  return null;
}

/** RFC 9110 §13.2.2: If-None-Match, when present, decides alone; otherwise If-Modified-Since (GET and HEAD only). */
export function isNotModified(
  headers: IncomingHttpHeaders,
  etag: string,
  fields: Pick<Representation, 'lastModified' | 'lastModifiedShared'>,
): boolean {
  const inm = headers['if-none-match'];
  if (inm !== undefined) return ifNoneMatchMatches(Array.isArray(inm) ? inm.join(',') : inm, etag);
  const ims = headers['if-modified-since'];
  if (ims === undefined || fields.lastModified === null) return false;
  const since = parseHttpDate(ims);
  if (since === null) return false;
  // HTTP dates carry whole seconds: compare at that precision. A date two bodies were served under names neither.
  const modified = Math.floor(fields.lastModified.getTime() / 1000) * 1000;
  return fields.lastModifiedShared ? modified < since : modified <= since;
}

/** What a response says about its body besides the bytes. */
type BodyFields = Pick<
  Representation,
  'contentType' | 'cacheControl' | 'lastModified' | 'retryAfterSeconds' | 'lastModifiedShared'
>;

/** The tag of every coding a body is offered in. */
export type Etags = Partial<Record<Coding, string>> & { identity: string };

/** Every list of codings a body can be offered in, made once: the negotiations above are remembered per list. */
const OFFERS = {
  identity: ['identity'],
  gzip: ['identity', 'gzip'],
  br: ['identity', 'br'],
  both: ['identity', 'gzip', 'br'],
} as const satisfies Record<string, readonly Coding[]>;

function codingsOf(etags: Etags): readonly Coding[] {
  if (etags.gzip === undefined) return etags.br === undefined ? OFFERS.identity : OFFERS.br;
  return etags.br === undefined ? OFFERS.gzip : OFFERS.both;
}

/** What a request gets: the coding negotiated, its tag, and whether the client's copy is current (a 304). */
export function decide(
  headers: IncomingHttpHeaders,
  fields: BodyFields,
  etags: Etags,
): { coding: Coding; etag: string; notModified: boolean } {
  const coding = negotiateCoding(headers['accept-encoding'], codingsOf(etags));
  const etag = etags[coding] ?? etags.identity;
  return { coding, etag, notModified: isNotModified(headers, etag, fields) };
}

/** The header fields of a 304 (RFC 9110 §15.4.5): those every answer carries, then the validator and caching fields a 200 would send. */
function notModifiedFields(
  fields: Pick<BodyFields, 'cacheControl' | 'retryAfterSeconds'>,
  etag: string,
): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {
    ...EVERY_RESPONSE_HEADERS,
    vary: 'Accept-Encoding',
    etag,
    'cache-control': fields.cacheControl,
  };
  if (fields.retryAfterSeconds !== undefined) headers['retry-after'] = String(fields.retryAfterSeconds);
  return headers;
}

/** A representation never changes once made: its 304's headers are listed once per tag. */
const notModifiedByRepresentation = new WeakMap<Representation, Map<string, Readonly<Record<string, string>>>>();

/**
 * Every header of a 304 for a representation under one of its tags. Both answers of a revalidation use it: the
 * route's (its hooks set those every answer carries, the same) and the fast path's (src/api/fast-path.ts), which
 * sends these alone.
 */
export function notModifiedHeaders(rep: Representation, etag: string): Readonly<Record<string, string>> {
  let byTag = notModifiedByRepresentation.get(rep);
  if (!byTag) notModifiedByRepresentation.set(rep, (byTag = new Map()));
  let headers = byTag.get(etag);
  if (!headers) byTag.set(etag, (headers = notModifiedFields(rep, etag)));
  return headers;
}

/** The 200's headers of a representation by coding and tag, listed once: what the answer ahead of Fastify sends. */
const okByRepresentation = new WeakMap<Representation, Map<string, Readonly<Record<string, string>>>>();

/**
 * Every header of a 200 for a representation in one of its made codings, in the order the route sets them
 * (negotiate below, then Fastify's Content-Length): src/api/fast-path.ts sends these alone.
 */
export function okHeaders(rep: Representation, coding: Coding, etag: string): Readonly<Record<string, string>> {
  let byTag = okByRepresentation.get(rep);
  if (!byTag) okByRepresentation.set(rep, (byTag = new Map()));
  let headers = byTag.get(etag);
  if (!headers) {
    const made: Record<string, string> = { ...notModifiedHeaders(rep, etag) };
    if (rep.lastModified) made['last-modified'] = rep.lastModified.toUTCString();
    if (coding !== 'identity') made['content-encoding'] = coding;
    made['content-type'] = rep.contentType;
    made['content-length'] = String((rep.variants[coding] ?? rep.variants.identity).body.length);
    byTag.set(etag, (headers = made));
  }
  return headers;
}

/**
 * Negotiates the coding and sets the headers; answers 304 itself and returns undefined then, else returns the
 * coding whose body the caller sends. `fieldsOf` lists the 304's headers, which a 200 carries too.
 */
function negotiate<F extends BodyFields>(
  request: FastifyRequest,
  reply: FastifyReply,
  fields: F,
  etags: Etags,
  fieldsOf: (fields: F, etag: string) => Readonly<Record<string, string>>,
): Coding | undefined {
  const { coding, etag, notModified } = decide(request.headers, fields, etags);
  reply.headers(fieldsOf(fields, etag));
  if (notModified) {
    void reply.code(304).send();
    return undefined;
  }
  if (fields.lastModified) reply.header('last-modified', fields.lastModified.toUTCString());
  if (coding !== 'identity') reply.header('content-encoding', coding);
  reply.header('content-type', fields.contentType);
  return coding;
}

const etagsOf = <V extends { etag: string }>(variants: Partial<Record<Coding, V>> & { identity: V }) =>
  Object.fromEntries(Object.entries(variants).map(([coding, v]) => [coding, v.etag])) as Etags;

/** The tag of every coding a representation offers, its deferred ones included. */
export function etagsOfRepresentation(rep: Representation): Etags {
  let etags = etagsByRepresentation.get(rep);
  if (!etags) {
    etags = etagsOf(rep.variants);
    if (rep.deferred) for (const coding of ['gzip', 'br'] as const) etags[coding] ??= rep.deferred.etag(coding);
    etagsByRepresentation.set(rep, etags);
  }
  return etags;
}

/** A representation never changes once made: its tags are listed once. */
const etagsByRepresentation = new WeakMap<Representation, Etags>();

/**
 * Sends a representation: 200 with the negotiated coding, or 304 with only the validators and caching fields. A
 * deferred coding is made first (on the thread pool) by the first request that asks for it.
 */
export function sendRepresentation(request: FastifyRequest, reply: FastifyReply, rep: Representation): FastifyReply {
  const coding = negotiate(request, reply, rep, etagsOfRepresentation(rep), notModifiedHeaders);
  if (coding === undefined) return reply;
  const variant = rep.variants[coding];
  if (variant || coding === 'identity' || !rep.deferred)
    return reply.code(200).send((variant ?? rep.variants.identity).body);
  rep.deferred.variant(coding).then(
    (made) => reply.code(200).send(made.body),
    (error: unknown) => {
      // Compression failed (it should not): the body as it is, under its own tag, is still a right answer.
      request.log.error({ err: error, coding }, 'compressing a document failed');
      reply.removeHeader('content-encoding');
      void reply.code(200).header('etag', rep.variants.identity.etag).send(rep.variants.identity.body);
    },
  );
  return reply;
}

/** Bodies up to this size are sent as one buffer: a stream of parts costs a write (a syscall) per part. */
const JOIN_BELOW_BYTES = 1 << 20;

/**
 * A body made of parts, as Fastify (or a bare response) sends it: one part as it is (a concat would copy it), a few
 * joined when small, streamed without copying when large.
 */
export function bodyOfParts(parts: readonly Buffer[]): { body: Buffer | Readable; length: number } {
  const length = parts.reduce((n, part) => n + part.length, 0);
  if (parts.length === 1) return { body: parts[0]!, length };
  return { body: length <= JOIN_BELOW_BYTES ? Buffer.concat(parts, length) : Readable.from(parts), length };
}

/** The same for a body composed of parts when sent: only the coding asked for is made, and only for a 200. */
export async function sendComposed(
  request: FastifyRequest,
  reply: FastifyReply,
  fields: BodyFields,
  variants: Partial<Record<Coding, ComposedBody>> & { identity: ComposedBody },
): Promise<FastifyReply> {
  const coding = negotiate(request, reply, fields, etagsOf(variants), notModifiedFields);
  if (coding === undefined) return reply;
  const { body, length } = bodyOfParts(await (variants[coding] ?? variants.identity).parts());
  return reply.code(200).header('content-length', String(length)).send(body);
}
