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

/** One stream's place in the counts: the stream that takes it, or its release. */
export interface ListenPlace {
  stream(body: ReadableStream<Uint8Array>, subscriptionId: string | number): Readable;
  release(): void;
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

  get perClient(): number {
    return this.bounds.perClient;
  }

  /**
   * A place for one more stream of `client`, taken at once (so that listen requests arriving together cannot all
   * pass the check before any stream is counted), or undefined when the client holds its share. The place is given
   * back when the stream ends, or by `release` when no stream came of the request.
   */
  admit(client: string): ListenPlace | undefined {
    const held = this.byClient.get(client) ?? 0;
    if (held >= this.bounds.perClient) return undefined;
    this.byClient.set(client, held + 1);
    this.total++;
    let given = false;
    const release = () => {
      if (given) return;
      given = true;
      this.total--;
      const left = (this.byClient.get(client) ?? 1) - 1;
      if (left > 0) this.byClient.set(client, left);
      else this.byClient.delete(client);
    };
    return { release, stream: (body, subscriptionId) => this.stream(body, subscriptionId, release) };
  }

  /**
   * The SDK's event stream for one listen request, ended after the lifetime: the SDK's stream is cancelled (it
   * unsubscribes) and the request's result closes the stream, as the SDK's own graceful end writes it.
   */
  private stream(body: ReadableStream<Uint8Array>, subscriptionId: string | number, release: () => void): Readable {
    const source = Readable.fromWeb(body as NodeReadableStream<Uint8Array>);
    const out = new PassThrough();
    source.pipe(out);
    const lifetime = setTimeout(() => {
      source.unpipe(out);
      source.destroy();
      const result = {
        resultType: 'complete',
        _meta: { [SUBSCRIPTION_ID_META_KEY]: subscriptionId, [SERVER_INFO_META_KEY]: this.info },
      };
      out.end(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: subscriptionId, result })}\n\n`);
    }, this.bounds.lifetimeMs);
    out.on('close', () => {
      clearTimeout(lifetime);
      source.destroy();
      release();
    });
    return out;
  }
}
