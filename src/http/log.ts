// Log lines a client can cause, bounded: the first of a kind in a minute is a warning, the rest are counted into the
// next one, so that a client repeating a mistake cannot flood the log.
import type { FastifyBaseLogger } from 'fastify';

const QUIET_MS = 60_000;

/** A warning logged at most once a minute (without a stack: the message is the client's mistake, not ours). */
export function throttledWarning(log: FastifyBaseLogger, msg: string, quietMs = QUIET_MS): (reason: string) => void {
  let lastAt = -Infinity;
  let suppressed = 0;
  return (reason) => {
    const now = Date.now();
    if (now - lastAt < quietMs) {
      suppressed++;
      return;
    }
    lastAt = now;
    log.warn({ reason, ...(suppressed > 0 ? { suppressed } : {}) }, msg);
    suppressed = 0;
  };
}
