// Ended MCP sessions, mirrored from the store: every replica refuses a session ended on any of them within a poll.
import type { FastifyBaseLogger } from 'fastify';
import { startPolling } from '../poll.js';
import type { Store } from '../store/types.js';

export class RevokedSessions {
  /** Session id → expiry in ms; an entry is dropped once its session would have expired anyway. */
  private readonly ids = new Map<string, number>();
  private stopPolling: () => void = () => undefined;

  constructor(
    private readonly store: Store,
    private readonly intervalMs: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  async start(): Promise<void> {
    this.stopPolling = await startPolling(() => this.reload(), this.intervalMs, this.log, 'reading ended MCP sessions failed');
  }

  stop(): void {
    this.stopPolling();
  }

  has(sessionId: string): boolean {
    return this.ids.has(sessionId);
  }

  async revoke(sessionId: string, expiresAtSeconds: number): Promise<void> {
    await this.store.revokeSession(sessionId, new Date(expiresAtSeconds * 1000).toISOString());
    this.ids.set(sessionId, expiresAtSeconds * 1000);
  }

  /** Merges what the store knows (never dropping an id a concurrent revoke() just added) and forgets expired ones. */
  private async reload(): Promise<void> {
    const now = Date.now();
    for (const { id, expiresAt } of await this.store.revokedSessions(new Date(now).toISOString())) this.ids.set(id, Date.parse(expiresAt));
    for (const [id, expires] of this.ids) if (expires <= now) this.ids.delete(id);
  }
}
