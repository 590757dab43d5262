// Runs a task now and then every interval in the background; failures are logged, never thrown, and never stop it.
import type { FastifyBaseLogger } from 'fastify';

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
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    task()
      .catch((error: unknown) => log.error({ err: error }, failure))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  // A poll alone must not keep the process alive.
  timer.unref();
  return () => clearInterval(timer);
}
