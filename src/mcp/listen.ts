// subscriptions/listen streams held to a bound: at most `perClient` open per client address and `max` in all (the
// SDK refuses past `max` itself), each ended cleanly after `lifetimeMs` with the listen request's own result, which
// tells the client to listen again. Streams that never ended held memory and file descriptors for good.
import { PassThrough, Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { SERVER_INFO_META_KEY, SUBSCRIPTION_ID_META_KEY, type Implementation } from '@modelcontextprotocol/server';

export interface ListenBounds {
  perClient: number;
  max: number;
  lifetimeMs: number;
}

export class ListenStreams {
  private readonly byClient = new Map<string, number>();
  private total = 0;

  constructor(
    private readonly bounds: ListenBounds,
    private readonly info: Implementation,
  ) {}

  /** Streams open now, all clients together. */
  get open(): number {
    return this.total;
  }

  /** Whether `client` may open one more stream. */
  admits(client: string): boolean {
    return (this.byClient.get(client) ?? 0) < this.bounds.perClient;
  }

  get perClient(): number {
    return this.bounds.perClient;
  }

  /**
   * The SDK's event stream for one listen request, counted against `client` while it is open and ended after the
   * lifetime: the SDK's stream is cancelled (it unsubscribes) and the request's result closes the stream, as the
   * SDK's own graceful end writes it.
   */
  stream(body: ReadableStream<Uint8Array>, client: string, subscriptionId: string | number): Readable {
    this.byClient.set(client, (this.byClient.get(client) ?? 0) + 1);
    this.total++;
    const source = Readable.fromWeb(body as NodeReadableStream<Uint8Array>);
    const out = new PassThrough();
    source.pipe(out);
    const lifetime = setTimeout(() => {
      source.unpipe(out);
      source.destroy();
      const result = { resultType: 'complete', _meta: { [SUBSCRIPTION_ID_META_KEY]: subscriptionId, [SERVER_INFO_META_KEY]: this.info } };
      out.end(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: subscriptionId, result })}\n\n`);
    }, this.bounds.lifetimeMs);
    let counted = true;
    out.on('close', () => {
      clearTimeout(lifetime);
      source.destroy();
      if (!counted) return;
      counted = false;
      this.total--;
      const left = (this.byClient.get(client) ?? 1) - 1;
      if (left > 0) this.byClient.set(client, left);
      else this.byClient.delete(client);
    });
    return out;
  }
}
