// Who may read /metrics: everyone while neither METRICS_ALLOW nor METRICS_TOKEN is set; otherwise a client whose
// address (request.ip, which honours TRUST_PROXY) is in an allowed address or CIDR block, or that sends the token.
import { createHash, timingSafeEqual } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';

/** The message of a refusal: it names the settings, never their values. */
export const METRICS_FORBIDDEN =
  'The metrics are open only to the addresses of METRICS_ALLOW and to the bearer token of METRICS_TOKEN';

/** Whether this request may read the metrics. */
export type MetricsReader = (request: FastifyRequest) => boolean;

const family = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

const digest = (text: string) => createHash('sha256').update(text).digest();

/** The rule of these settings; undefined when everyone may read. The entries were validated when the config loaded. */
export function metricsReader(settings: Config['metrics']): MetricsReader | undefined {
  if (!settings.allow.length && settings.token === null) return undefined;
  // BlockList matches an IPv4 rule against an IPv4-mapped IPv6 client (::ffff:10.1.2.3) too, as a dual-stack
  // listener reports IPv4 clients.
  const allowed = new BlockList();
  for (const entry of settings.allow) {
    const [address = '', prefix] = entry.split('/');
    if (prefix === undefined) allowed.addAddress(address, family(address));
    else allowed.addSubnet(address, Number(prefix), family(address));
  }
  const token = settings.token === null ? undefined : digest(settings.token);
  return (request) => {
    // A link-local client's zone (fe80::1%eth0) names an interface, not an address.
    const ip = (request.ip ?? '').replace(/%.*$/, '');
    if (isIP(ip) && allowed.check(ip, family(ip))) return true;
    return token !== undefined && bearerMatches(request.headers.authorization, token);
  };
}

/** Compared as digests of equal length, so neither the token's characters nor its length show in the time taken. */
function bearerMatches(header: string | undefined, token: Buffer): boolean {
  const sent = header === undefined ? null : /^Bearer +(\S+) *$/i.exec(header);
  return sent !== null && timingSafeEqual(digest(sent[1]!), token);
}
