// Runs a task now and then every interval in the background; failures are logged, never thrown, and never stop it.
import type { FastifyBaseLogger } from 'fastify';

/** Consecutive failures logged once in this many. */
const REPEATS_LOGGED = 100;

/** Awaits the first run (so start-up fails loudly), then repeats; returns the function that stops it. */
export async function startPolling(
  task: () => Promise<void>,
  intervalMs: number,
  log: FastifyBaseLogger,
  failure: string,
): Promise<() => void> {
  await task();
  // Runs never overlap: a slow run makes the next tick skip, so results cannot land out of order.
  let running = false;
  // A store that stays away (PostgreSQL restarting) fails every run: the first failure is logged, then one in
  // REPEATS_LOGGED, and the first success after them.
  let failures = 0;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    task()
      .then(
        () => {
          if (failures > 0) log.info({ failures }, `${failure}; it works again`);
          failures = 0;
        },
        (error: unknown) => {
          if (failures++ % REPEATS_LOGGED === 0) log.error({ err: error, failures }, failure);
        },
      )
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  // A poll alone must not keep the process alive.
  timer.unref();
  return () => clearInterval(timer);
}
