// What the benchmarks read off the processes they start: resident memory, waiting for a condition or an answer, and
// stopping them.
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Resident set of a process, MiB; 0 once it has exited. */
export function rssMiB(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** The RSS of a process and of every process it started (the service's insights process), MiB. */
export function treeRssMiB(pid: number): number {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    // Gone, or no children file: its own RSS alone.
  }
  return children.reduce((sum, child) => sum + treeRssMiB(child), rssMiB(pid));
}

/**
 * How long a process is left idle before its memory at rest is read: V8 gives memory back to the system only after
 * some seconds of little allocation (its memory reducer's compacting collections), not at the first idle moment.
 */
export const IDLE_MS = 45_000;

/** Resident set of a process after IDLE_MS without requests, MiB. */
export async function rssAtRestMiB(pid: number): Promise<number> {
  await new Promise((r) => setTimeout(r, IDLE_MS));
  return rssMiB(pid);
}

export async function until(
  test: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
  everyMs = 25,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Resolves once `url` answers 2xx (a server that has started listening). */
export function waitFor(url: string, timeoutMs = 120_000): Promise<void> {
  return until(
    async () => {
      try {
        return (await fetch(url, { method: 'HEAD' })).ok;
      } catch {
        return false;
      }
    },
    timeoutMs,
    `${url} to answer`,
    20,
  );
}

/** The ETag `url` answers a HEAD with (null without one). */
export async function etagOf(url: string): Promise<string | null> {
  return (await fetch(url, { method: 'HEAD' })).headers.get('etag');
}

/** Sends SIGTERM and resolves once the process has exited (at once if it had already). */
export async function stop(child: ChildProcess): Promise<void> {
  const exited =
    child.exitCode === null && child.signalCode === null
      ? new Promise<void>((done) => child.once('exit', () => done()))
      : undefined;
  child.kill('SIGTERM');
  await exited;
}
