// PostgreSQL change notices: one connection per process LISTENs on the store's channel and tells the watchers what
// changed. A lost connection is reconnected with growing pauses, saying so in the log; once listening again the
// watchers are told `resumed`, since whatever committed meanwhile sent its notice to nobody.
import pg from 'pg';
import { CHANGE_CHANNEL, parseChange, type StoreChange } from '../dialect.js';
import type { StoreLog } from './log.js';

/** Pauses between reconnection attempts grow from the first to the last. */
const FIRST_PAUSE_MS = 100;
const LAST_PAUSE_MS = 5000;

export class ChangeNotices {
  private readonly listeners = new Set<(change: StoreChange) => void>();
  private client: pg.Client | undefined;
  private failures = 0;
  private retry: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly connection: pg.ClientConfig,
    private readonly schema: string,
    private readonly log: StoreLog,
  ) {}

  /** Adds a watcher (the first one opens the connection); returns the function that removes it. */
  watch(listener: (change: StoreChange) => void): () => void {
    this.listeners.add(listener);
    if (!this.client && !this.retry && !this.closed) void this.connect();
    return () => {
      this.listeners.delete(listener);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    this.retry = undefined;
    // TCP keep-alive probes after 10 s of silence find a connection a network failure left half-open (no notice
    // would ever come on it, and only the poll would see changes).
    const client = new pg.Client({ ...this.connection, keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      if (this.client === client) this.client = undefined;
      client.end().catch(() => undefined);
      this.reconnectLater(error);
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (message) => {
      const change = message.channel === CHANGE_CHANNEL ? parseChange(message.payload, this.schema) : undefined;
      if (change) this.emit(change);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
    } catch (error) {
      onLost(error as Error);
      return;
    }
    if (this.closed || lost) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    if (this.failures > 0) {
      this.log.info({ attempts: this.failures }, 'store notices: listening again; looking for changes made meanwhile');
      this.emit({ kind: 'resumed' });
    }
    this.failures = 0;
  }

  private reconnectLater(error: Error | undefined): void {
    if (this.closed) return;
    this.failures++;
    const pauseMs = Math.min(LAST_PAUSE_MS, FIRST_PAUSE_MS * 2 ** (this.failures - 1));
    const fields = { err: error?.message ?? 'connection ended', attempt: this.failures, retryInMs: pauseMs };
    // While PostgreSQL stays away the attempts go on every few seconds; the log hears of the first few, then every tenth.
    if (this.failures <= 5 || this.failures % 10 === 0)
      this.log.warn(
        fields,
        'store notices: connection to PostgreSQL lost; reconnecting (changes are still found by polling)',
      );
    this.retry = setTimeout(() => void this.connect(), pauseMs);
    this.retry.unref();
  }

  private emit(change: StoreChange): void {
    for (const listener of this.listeners) listener(change);
  }
}
