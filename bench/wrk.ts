// Load from wrk (Debian's), a process of its own pinned to the core the measured server is not on: the bench's own
// Node process cannot generate load faster than a bare node:http server answers, so it could not measure a ratio
// against one. Each load's requests are formatted once by a Lua script; wrk's own summary is read back as JSON.
import { execFile, execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The core the measured servers run on, and the one wrk runs on. */
export const SERVER_CORE = 0;
export const GENERATOR_CORE = 1;

export interface WrkLoad {
  /** Origin, `http://127.0.0.1:<port>`. */
  base: string;
  /** Paths requested in turn (each connection takes the next). */
  paths: readonly string[];
  method?: 'GET' | 'POST';
  headers?: Readonly<Record<string, string>>;
  body?: string;
  seconds: number;
  connections?: number;
}

export interface WrkResult {
  rps: number;
  /** Latency percentiles, ms. */
  p50: number;
  p99: number;
  requests: number;
  /** Mean bytes read per answer (headers and body): a 304 row whose answers were 200s shows it here. */
  bytesPerAnswer: number;
  /** Answers that were not 2xx or 3xx, and socket errors: a row with any measured refusals, not serving. */
  refused: number;
}

/** Installs wrk from Debian's packages when it is missing (the bench needs it; the tests do not). */
export function ensureWrk(): void {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
  } catch (error) {
    // `wrk --version` prints its usage and exits 1: only a missing binary is a reason to install.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return;
    process.stderr.write('wrk is missing: installing it from Debian (apt-get install wrk)\n');
    execFileSync('apt-get', ['install', '-y', 'wrk'], { stdio: 'inherit' });
  }
}

/** Pins a running process, every thread of it, to one core. */
export function pin(pid: number, core: number): void {
  execFileSync('taskset', ['-a', '-p', '-c', String(core), String(pid)], { stdio: 'ignore' });
}

/** Lets a process run on every core again. */
export function unpin(pid: number): void {
  execFileSync('taskset', ['-a', '-p', '-c', '0-1023', String(pid)], { stdio: 'ignore' });
}

const lua = (value: string) => JSON.stringify(value); // a JSON string literal is a valid Lua string literal here

function script(load: WrkLoad): string {
  const headers = Object.entries(load.headers ?? {})
    .map(([name, value]) => `[${lua(name)}] = ${lua(value)}`)
    .join(', ');
  const body = load.body === undefined ? 'nil' : lua(load.body);
  return `
local paths = { ${load.paths.map(lua).join(', ')} }
local requests = {}
local at = 0
init = function()
  for i, path in ipairs(paths) do
    requests[i] = wrk.format(${lua(load.method ?? 'GET')}, path, { ${headers} }, ${body})
  end
end
request = function()
  at = at % #requests + 1
  return requests[at]
end
done = function(summary, latency)
  local e = summary.errors
  io.write(string.format('{"requests":%d,"micros":%d,"bytes":%d,"p50":%d,"p99":%d,"refused":%d}\\n',
    summary.requests, summary.duration, summary.bytes, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.status + e.timeout))
end
`;
}

/** One load: wrk on GENERATOR_CORE with one thread, 50 connections unless told. */
export async function wrk(work: string, load: WrkLoad): Promise<WrkResult> {
  const file = join(work, 'load.lua');
  // Lua's string literals take JSON's escapes but for \u: the bench's paths and bodies are ASCII.
  if ([...load.paths, load.body ?? ''].some((s) => /[^\x20-\x7e]/.test(s))) throw new Error('wrk loads are ASCII');
  writeFileSync(file, script(load));
  const { stdout } = await run('taskset', [
    '-c',
    String(GENERATOR_CORE),
    'wrk',
    '-t1',
    `-c${load.connections ?? 50}`,
    `-d${load.seconds}s`,
    '--timeout',
    '10s',
    '-s',
    file,
    `${load.base}${load.paths[0]}`,
  ]);
  const line = stdout.split('\n').find((l) => l.startsWith('{"requests"'));
  if (!line) throw new Error(`wrk printed no summary:\n${stdout}`);
  const s = JSON.parse(line) as {
    requests: number;
    micros: number;
    bytes: number;
    p50: number;
    p99: number;
    refused: number;
  };
  return {
    rps: s.requests / (s.micros / 1e6),
    p50: s.p50 / 1000,
    p99: s.p99 / 1000,
    requests: s.requests,
    bytesPerAnswer: s.requests > 0 ? s.bytes / s.requests : 0,
    refused: s.refused,
  };
}
