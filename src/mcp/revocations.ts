// Ended MCP sessions, mirrored from the store: every replica refuses a session ended on any of them within a poll.
import type { FastifyBaseLogger } from 'fastify';
import type { Store } from '../store/types.js';

export class RevokedSessions {
  private ids = new Set<string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: Store,
    private readonly intervalMs: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  async start(): Promise<void> {
    await this.reload();
    this.timer = setInterval(() => {
      this.reload().catch((error: unknown) => this.log.error({ err: error }, 'reading ended MCP sessions failed'));
    }, this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
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
