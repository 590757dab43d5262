// Throughput of the service against its twin (bench/twin-server.ts: the same answers from a bare node:http
// server), in alternating rounds whose medians are compared: the machine's noise moves a single round by ±20%.
import { fork, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pin, SERVER_CORE, wrk } from './wrk.js';
import type { Exchange } from './twin-server.js';

export interface Load {
  rps: number;
  /** ms */
  p99: number;
  /** Answers outside 2xx and 3xx, and socket errors: a load with any measured refusals, and its row is void. */
  refused: number;
}

/** A request of the load: path and the headers that decide the answer; a POST's headers and body. */
export interface Probe {
  path: string;
  headers?: { 'if-none-match'?: string; 'accept-encoding'?: string };
  post?: { headers: Record<string, string>; body: string };
}

/** Headers that describe the connection, not the answer: left to the twin's own server. */
const HOP_BY_HOP = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** One raw exchange with the service: the bytes as sent, compressed or not. */
export function capture(base: string, probe: Probe): Promise<Exchange> {
  return new Promise((done, fail) => {
    const method = probe.post ? 'POST' : 'GET';
    const headers = { ...probe.headers, ...probe.post?.headers };
    const req = request(`${base}${probe.path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers))
          if (!HOP_BY_HOP.has(name) && value !== undefined)
            headers[name] = Array.isArray(value) ? value.join(', ') : value;
        done({
          method,
          path: probe.path,
          ...(probe.headers?.['if-none-match'] ? { ifNoneMatch: probe.headers['if-none-match'] } : {}),
          ...(probe.headers?.['accept-encoding'] ? { acceptEncoding: probe.headers['accept-encoding'] } : {}),
          status: res.statusCode ?? 0,
          headers,
          body: Buffer.concat(chunks).toString('base64'),
        });
      });
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end(probe.post?.body);
  });
}

/** A bench server (a file of dist/bench/) started with `args`, pinned to the server's core once it says it is ready. */
function startPinned(root: string, file: string, args: string[]): Promise<ChildProcess> {
  return new Promise((done, fail) => {
    const child = fork(join(root, 'dist/bench', file), args, { stdio: 'ignore' });
    child.once('message', () => {
      pin(child.pid!, SERVER_CORE);
      done(child);
    });
    child.once('error', fail);
  });
}

/** Starts the twin of the captured exchanges on `port`. */
export function startTwin(root: string, work: string, exchanges: Exchange[], port: number): Promise<ChildProcess> {
  const file = join(work, `twin-${port}.json`);
  writeFileSync(file, JSON.stringify(exchanges));
  return startPinned(root, 'twin-server.js', [file, String(port)]);
}

/** The generator's ceiling: the same wrk against bench/ceiling-server.ts, a median of three rounds. */
export async function measureCeiling(root: string, work: string, port: number, duration: number): Promise<Load> {
  const server = await startPinned(root, 'ceiling-server.js', [String(port)]);
  try {
    const rounds: Load[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await wrk(work, { base: `http://127.0.0.1:${port}`, paths: ['/'], seconds: duration });
      rounds.push({ rps: r.rps, p99: r.p99, refused: r.refused });
    }
    return rounds.sort((a, b) => a.rps - b.rps)[1]!;
  } finally {
    server.kill();
  }
}

/** The status of one request sent with exactly these headers (fetch would add an Accept-Encoding of its own). */
function statusOf(url: string, options: { method?: string; headers?: Record<string, string>; body?: string }) {
  return new Promise<number>((done, fail) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers ?? {} }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode ?? 0));
    });
    req.on('error', fail);
    req.end(options.body);
  });
}

/**
 * One load from wrk (bench/wrk.ts), after one request of each of its paths was answered with the expected status:
 * wrk counts only answers outside 2xx and 3xx, so a 304 row whose answers were 200s would otherwise go unseen.
 */
export async function load(
  work: string,
  url: string,
  duration: number,
  options: {
    headers?: Record<string, string>;
    /** Paths asked in turn, on `url`'s origin; `url`'s own path when not given. */
    paths?: readonly string[];
    method?: 'POST';
    body?: string;
    status?: number;
    connections?: number;
  } = {},
): Promise<Load> {
  const { status = 200, paths, ...rest } = options;
  const { origin, pathname, search } = new URL(url);
  const asked = paths ?? [`${pathname}${search}`];
  for (const path of asked) {
    const answered = await statusOf(`${origin}${path}`, rest);
    if (answered !== status) throw new Error(`${origin}${path}: expected ${status}, got ${answered}`);
  }
  const r = await wrk(work, { base: origin, paths: asked, seconds: duration, ...rest });
  return { rps: r.rps, p99: r.p99, refused: r.refused };
}

/**
 * Medians of several rounds of each load, run in turn (a, b, c, a, b, c, …), after one round of each that is not
 * counted: the first sight of a search URL is the route's, and the first seconds of any load run code V8 has not
 * optimised yet (a first round's p99 was 45–300 ms where the next ones' were 3–5 ms).
 */
export async function alternate<K extends string>(
  rounds: number,
  loads: Record<K, () => Promise<Load>>,
): Promise<Record<K, Load>> {
  const runs = Object.fromEntries(Object.keys(loads).map((k) => [k, [] as Load[]])) as Record<K, Load[]>;
  for (const key of Object.keys(loads) as K[]) await loads[key]();
  for (let round = 0; round < rounds; round++)
    for (const key of Object.keys(loads) as K[]) runs[key].push(await loads[key]());
  const middle = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return Object.fromEntries(
    Object.entries(runs).map(([k, r]) => [
      k,
      {
        rps: middle((r as Load[]).map((x) => x.rps)),
        p99: middle((r as Load[]).map((x) => x.p99)),
        refused: (r as Load[]).reduce((n, x) => n + x.refused, 0),
      },
    ]),
  ) as Record<K, Load>;
}

/** A load within this factor of the generator's ceiling (measureCeiling) may measure wrk, not the server. */
const GENERATOR_MARGIN = 1.5;

const cell = (load: Load, ceiling: Load | undefined) =>
  `${load.rps.toFixed(0)} (${load.p99.toFixed(2)})${ceiling && load.rps * GENERATOR_MARGIN > ceiling.rps ? ' generator-bound' : ''}`;

/** "ours (p99)", "twin (p99)", "ratio r, p99 ×" cells; void when either load had refusals. */
export function versus(ours: Load, floor: Load, what = 'twin', ceiling?: Load): [string, string, string] {
  const refused = ours.refused + floor.refused;
  return [
    cell(ours, ceiling),
    `${what} ${cell(floor, ceiling)}`,
    refused > 0
      ? `void: ${refused} answers outside 2xx/3xx`
      : `ratio ${(ours.rps / floor.rps).toFixed(2)}, p99 ${(ours.p99 / floor.p99).toFixed(1)}×`,
  ];
}
