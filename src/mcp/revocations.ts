// Ended MCP sessions, mirrored from the store: every replica refuses a session ended on any of them within a poll.
import type { FastifyBaseLogger } from 'fastify';
import { startPolling } from '../poll.js';
import type { Store } from '../store/types.js';

export class RevokedSessions {
  private ids = new Set<string>();
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
    this.ids.add(sessionId);
  }

  private async reload(): Promise<void> {
    const ids = await this.store.revokedSessions(new Date().toISOString());
    this.ids = new Set(ids);
  }
}
