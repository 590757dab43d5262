// Signed MCP session ids: any replica with the same secret accepts them; nothing per session is kept in memory.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Sessions last at most a day from initialize; then the client gets 404 and initializes again. */
export const SESSION_LIFETIME_SECONDS = 24 * 60 * 60;

export interface SessionClaims {
  /** Random id, the key of a revocation (DELETE /mcp). */
  sid: string;
  /** Protocol version negotiated at initialize. */
  pv: string;
  /** Issued at and expires at, seconds since the epoch. */
  iat: number;
  exp: number;
}

export type SessionCheck =
  { ok: true; claims: SessionClaims } | { ok: false; reason: 'malformed' | 'bad-signature' | 'expired' };

const sign = (payload: string, secret: string) => createHmac('sha256', secret).update(payload).digest('base64url');

export function issueSession(
  protocolVersion: string,
  secret: string,
  nowMs = Date.now(),
): { token: string; claims: SessionClaims } {
  const iat = Math.floor(nowMs / 1000);
  const claims: SessionClaims = {
    sid: randomBytes(16).toString('base64url'),
    pv: protocolVersion,
    iat,
    exp: iat + SESSION_LIFETIME_SECONDS,
  };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return { token: `${payload}.${sign(payload, secret)}`, claims };
}

export function checkSession(token: string, secret: string, nowMs = Date.now()): SessionCheck {
  // Session ids are visible ASCII (MCP transport spec); anything else is not ours.
  const match = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return { ok: false, reason: 'malformed' };
  const [, payload, signature] = match as unknown as [string, string, string];
  const expected = Buffer.from(sign(payload, secret));
  if (!timingSafeEqual(expected, Buffer.from(signature))) return { ok: false, reason: 'bad-signature' };
  let claims: SessionClaims;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as SessionClaims;
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (typeof claims.exp !== 'number' || typeof claims.sid !== 'string' || typeof claims.pv !== 'string') {
    return { ok: false, reason: 'malformed' };
  }
  if (claims.exp * 1000 <= nowMs) return { ok: false, reason: 'expired' };
  return { ok: true, claims };
}

/** Signatures checked and remembered at most; the oldest are forgotten first (and checked again if sent). */
const REMEMBERED_SIGNATURES = 10_000;

/**
 * checkSession with the signatures it verified remembered: a session sends its id on every request, and the HMAC
 * was a tenth of a tools/call's time. Expiry is still checked on every request.
 */
export function sessionChecker(secret: string): (token: string, nowMs?: number) => SessionCheck {
  const verified = new Map<string, SessionClaims>();
  return (token, nowMs = Date.now()) => {
    const claims = verified.get(token);
    if (claims) return claims.exp * 1000 <= nowMs ? { ok: false, reason: 'expired' } : { ok: true, claims };
    const check = checkSession(token, secret, nowMs);
    if (check.ok) {
      verified.set(token, check.claims);
      if (verified.size > REMEMBERED_SIGNATURES) verified.delete(verified.keys().next().value!);
    }
    return check;
  };
}
