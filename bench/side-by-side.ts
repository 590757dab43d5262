// Throughput of the service against its twin (bench/twin-server.ts: the same answers from a bare node:http
// server), in alternating rounds whose medians are compared: the machine's noise moves a single round by ±20%.
import { fork, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import type { Exchange } from './twin-server.js';

export interface Load {
  rps: number;
  p99: number;
}

/** A request of the load: path and the headers that decide the answer. */
export interface Probe {
  path: string;
  headers?: { 'if-none-match'?: string; 'accept-encoding'?: string };
}

/** Headers that describe the connection, not the answer: left to the twin's own server. */
const HOP_BY_HOP = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** One raw exchange with the service: the bytes as sent, compressed or not. */
export function capture(base: string, probe: Probe): Promise<Exchange> {
  return new Promise((done, fail) => {
    const req = request(`${base}${probe.path}`, { headers: probe.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers))
          if (!HOP_BY_HOP.has(name) && value !== undefined)
            headers[name] = Array.isArray(value) ? value.join(', ') : value;
        done({
          method: 'GET',
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
    req.end();
  });
}

/** Starts the twin of the captured exchanges on `port`. */
export function startTwin(root: string, work: string, exchanges: Exchange[], port: number): Promise<ChildProcess> {
  const file = join(work, `twin-${port}.json`);
  writeFileSync(file, JSON.stringify(exchanges));
  return new Promise((done, fail) => {
    const child = fork(join(root, 'dist/bench/twin-server.js'), [file, String(port)], { stdio: 'ignore' });
    child.once('message', () => done(child));
    child.once('error', fail);
  });
}

/** Load with autocannon; every answer must have the expected status, or the figure would measure refusals. */
export async function load(
  url: string,
  duration: number,
  options: {
    headers?: Record<string, string>;
    requests?: autocannon.Request[];
    method?: 'POST';
    body?: string;
    status?: number;
    connections?: number;
  } = {},
): Promise<Load> {
  const { status = 200, connections = 10, ...rest } = options;
  const result = await autocannon({ url, connections, duration, ...rest });
  const other = Object.entries(result.statusCodeStats ?? {}).filter(([code]) => Number(code) !== status);
  if (other.length > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `${url}: expected only ${status}, got ${JSON.stringify(result.statusCodeStats)}, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  return { rps: result.requests.average, p99: result.latency.p99 };
}

/** Medians of several rounds of each load, run in turn (a, b, c, a, b, c, …). */
export async function alternate<K extends string>(
  rounds: number,
  loads: Record<K, () => Promise<Load>>,
): Promise<Record<K, Load>> {
  const runs = Object.fromEntries(Object.keys(loads).map((k) => [k, [] as Load[]])) as Record<K, Load[]>;
  for (let round = 0; round < rounds; round++)
    for (const key of Object.keys(loads) as K[]) runs[key].push(await loads[key]());
  const middle = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return Object.fromEntries(
    Object.entries(runs).map(([k, r]) => [
      k,
      { rps: middle((r as Load[]).map((x) => x.rps)), p99: middle((r as Load[]).map((x) => x.p99)) },
    ]),
  ) as Record<K, Load>;
}

/** "ours (p99)", "twin (p99)", "ratio r, p99 ×" cells. */
export function versus(ours: Load, floor: Load, what = 'twin'): [string, string, string] {
  return [
    `${ours.rps.toFixed(0)} (${ours.p99})`,
    `${what} ${floor.rps.toFixed(0)} (${floor.p99})`,
    `ratio ${(ours.rps / floor.rps).toFixed(2)}, p99 ${(ours.p99 / Math.max(floor.p99, 1)).toFixed(1)}×`,
  ];
}
