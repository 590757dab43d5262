// Ended MCP sessions. Each check is one indexed lookup in the store, remembered for a while: an ended session
// stays ended (remembered until it would have expired anyway), and a live one is looked up again after
// `recheckMs`, so a session ended on another replica is refused here within that time (at once where the store
// sends notices: PostgreSQL tells every replica which session ended). Nothing is ever re-read whole: one client
// ending sessions by the hundred thousand costs each check no more.
import type { Store } from '../store/types.js';

/** Answers remembered at most; the oldest are forgotten first (and looked up again if asked). */
const REMEMBERED = 50_000;

export class RevokedSessions {
  /** Session id → until when (ms) the answer holds, and the answer. */
  private readonly answers = new Map<string, { until: number; revoked: boolean }>();

  private readonly stopWatching: () => void;

  constructor(
    private readonly store: Store,
    private readonly recheckMs: number,
  ) {
    this.stopWatching = store.watch((change) => {
      if (change.kind === 'revoked') this.answers.delete(change.id);
      // Notices sent while this process was not listening are lost: every remembered "live" is looked up again.
      else if (change.kind === 'resumed') this.forgetLive();
    });
  }

  stop(): void {
    this.stopWatching();
  }

  async has(sessionId: string): Promise<boolean> {
    const now = Date.now();
    const known = this.answers.get(sessionId);
    if (known && known.until > now) return known.revoked;
    const expiresAt = await this.store.sessionRevokedUntil(sessionId, new Date(now).toISOString());
    this.remember(
      sessionId,
      expiresAt === undefined
        ? { until: now + this.recheckMs, revoked: false }
        : { until: Date.parse(expiresAt), revoked: true },
    );
    return expiresAt !== undefined;
  }

  async revoke(sessionId: string, expiresAtSeconds: number): Promise<void> {
    await this.store.revokeSession(sessionId, new Date(expiresAtSeconds * 1000).toISOString());
    this.remember(sessionId, { until: expiresAtSeconds * 1000, revoked: true });
  }

  private forgetLive(): void {
    for (const [id, answer] of this.answers) if (!answer.revoked) this.answers.delete(id);
  }

  private remember(sessionId: string, answer: { until: number; revoked: boolean }): void {
    this.answers.delete(sessionId);
    this.answers.set(sessionId, answer);
    if (this.answers.size > REMEMBERED) this.answers.delete(this.answers.keys().next().value!);
  }
}
