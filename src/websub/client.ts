// The hub's outgoing HTTP: HTTPS only, every resolved address checked and the socket pinned to it, no redirects, capped reads.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, request } from 'undici';
import { isPublicAddress } from './address.js';

export interface CallbackClientOptions {
  timeoutMs: number;
  /** Tests only: let callbacks reach loopback and private addresses. */
  allowPrivate: boolean;
  /** As many as requests in flight, so one slow subscriber never holds up others on the same host. */
  connectionsPerOrigin: number;
}

export type CallbackResponse = { ok: true; status: number; body: string } | { ok: false; error: string };

/** Enough for any challenge echo; a subscriber's acknowledgement body is never needed. */
const MAX_RESPONSE_BYTES = 4096;

export class CallbackClient {
  private readonly agent: Agent;

  constructor(private readonly options: CallbackClientOptions) {
    const guardedLookup: LookupFunction = (hostname, lookupOptions, callback) => {
      dnsLookup(hostname, { ...lookupOptions, all: true }, (error, addresses: LookupAddress[]) => {
        if (error) return callback(error, '', 0);
        const refused = addresses.find((a) => !options.allowPrivate && !isPublicAddress(a.address));
        if (refused || addresses.length === 0) {
          return callback(
            Object.assign(new Error(`${hostname} resolves to a non-public address (${refused?.address ?? 'none'})`), {
              code: 'ECALLBACKADDRESS',
            }),
            '',
            0,
          );
        }
        // The socket connects to exactly the addresses checked here: a second lookup cannot swap them.
        if (lookupOptions.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
        const first = addresses[0]!;
        return callback(null, first.address, first.family);
      });
    };
    this.agent = new Agent({
      connect: { lookup: guardedLookup, timeout: options.timeoutMs },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      connections: options.connectionsPerOrigin,
    });
  }

  /** Why a callback URL may never be called, or undefined when it may (names are checked again at connect time). */
  refusal(url: URL): string | undefined {
    if (url.protocol !== 'https:') return 'hub.callback must be an https:// URL';
    if (url.username || url.password) return 'hub.callback must not carry credentials';
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && !this.options.allowPrivate && !isPublicAddress(host))
      return `hub.callback address ${host} is not a public address`;
    return undefined;
  }

  async send(
    url: URL,
    init: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: Buffer },
  ): Promise<CallbackResponse> {
    const refused = this.refusal(url);
    if (refused) return { ok: false, error: refused };
    try {
      const response = await request(url, {
        dispatcher: this.agent,
        method: init.method,
        headers: { 'user-agent': 'reviews-service-websub-hub', ...init.headers },
        body: init.body,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response.body) {
        const buffer = chunk as Buffer;
        chunks.push(buffer);
        size += buffer.length;
        if (size > MAX_RESPONSE_BYTES) {
          response.body.destroy();
          break;
        }
      }
      return {
        ok: true,
        status: response.statusCode,
        body: Buffer.concat(chunks).subarray(0, MAX_RESPONSE_BYTES).toString('utf8'),
      };
    } catch (error) {
      const e = error as { code?: string; message?: string; cause?: { message?: string } };
      return {
        ok: false,
        error: [e.code, e.cause?.message ?? e.message].filter(Boolean).join(': ') || 'request failed',
      };
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
