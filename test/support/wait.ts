// Waiting in tests: poll a condition with a deadline, never a bare sleep where a condition can be named.

/** Polls `probe` until it returns a value other than undefined/false, or fails after `timeoutMs` naming `what`. */
export async function until<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs: number,
  what: string | (() => string),
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}`);
    await sleep(20);
  }
}

/** Only to prove that nothing more arrives during a quiet period. */
export const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));
