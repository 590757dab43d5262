// Abuse probes against a running server on loopback: what one client costs it. Each probe prints its figures as
// one JSON line. Run against any build of the service (they speak only HTTP and read /proc/<pid>):
//
//   node dist/bench/probes.js batch  <baseUrl> <serverPid>            MCP JSON-RPC batch of resources/read: reply
//                                                                      size, server memory for 1 and 10 at once
//   node dist/bench/probes.js ended  <baseUrl> <serverPid> <dbPath>   DELETE /mcp rate for 5 s, then a cached GET's
//                                                                      latency with 500,000 ended sessions stored
//   node dist/bench/probes.js since  <baseUrl> <serverPid>            server CPU per distinct since-date, memory
//                                                                      after 2,000 of them, a cached feed's p95 meanwhile
//                                                                      (SINCE_DATES=2000, a day apart: SINCE_STEP_DAYS=1)
//
// Start the server with rate limits raised (RATE_LIMIT_QUERIES_PER_MINUTE, RATE_LIMIT_MCP_PER_MINUTE) when the
// figure wanted is the work per request rather than the limit.
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { request } from 'undici';
import { keepingStatements } from '../src/store/sqlite/open.js';
import { rssMiB } from './process.js';

const ACCEPT = 'application/json, text/event-stream';

function peakMiB(pid: number): number {
  return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
}

/** CPU time the process has used, ms (user + system). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks of 10 ms
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

const round = (x: number) => Math.round(x * 10) / 10;
const print = (figures: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(figures)}\n`);
const fail = (message: string): never => {
  process.stderr.write(`${message}\n`);
  process.exit(2);
};

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers },
    body: JSON.stringify(body),
    headersTimeout: 600_000,
    bodyTimeout: 600_000,
  });
  let bytes = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes < 1 << 20) chunks.push(chunk);
  }
  return { status: res.statusCode, headers: res.headers, bytes, text: Buffer.concat(chunks).toString('utf8') };
}

async function openSession(base: string, protocolVersion: string): Promise<Record<string, string>> {
  const init = await post(`${base}/mcp`, {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion, capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
  });
  const sessionId = String(init.headers['mcp-session-id'] ?? '');
  const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': protocolVersion };
  await post(`${base}/mcp`, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
  return headers;
}

async function batchProbe(base: string, pid: number) {
  const headers = await openSession(base, '2024-11-05');
  const list = await post(`${base}/mcp`, { jsonrpc: '2.0', id: 2, method: 'resources/list' }, headers);
  const uris = [...list.text.matchAll(/"uri":"([^"]+)"/g)].map((m) => m[1]!);
  const batch: unknown[] = [];
  while (JSON.stringify(batch).length < 10_700 && batch.length < 100)
    batch.push({
      jsonrpc: '2.0',
      id: batch.length + 10,
      method: 'resources/read',
      params: { uri: uris[batch.length % uris.length] },
    });
  const rssBefore = rssMiB(pid);
  const one = await post(`${base}/mcp`, batch, headers);
  const peakOne = peakMiB(pid);
  const ten = await Promise.all(Array.from({ length: 10 }, () => post(`${base}/mcp`, batch, headers)));
  print({
    probe: 'batch',
    batchBytes: JSON.stringify(batch).length,
    messages: batch.length,
    status: one.status,
    replyMB: round(one.bytes / 2 ** 20),
    reply: one.text.slice(0, 160),
    rssBeforeMiB: round(rssBefore),
    peakAfterOneMiB: round(peakOne),
    peakAfterTenMiB: round(peakMiB(pid)),
    tenStatuses: [...new Set(ten.map((r) => r.status))],
  });
}

async function endedProbe(base: string, pid: number, dbPath: string) {
  const statuses = new Map<number, number>();
  const deadline = Date.now() + 5000;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (Date.now() < deadline) {
        const headers = await openSession(base, '2025-06-18');
        const res = await request(`${base}/mcp`, { method: 'DELETE', headers });
        await res.body.dump();
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      }
    }),
  );
  const db = keepingStatements(new Database(dbPath));
  const insert = db.prepare('INSERT OR IGNORE INTO mcp_revoked_sessions (id, expires_at) VALUES (?, ?)');
  const expires = new Date(Date.now() + 3_600_000).toISOString();
  db.transaction(() => {
    for (let i = 0; i < 500_000; i++) insert.run(`probe-${i}`, expires);
  })();
  db.close();
  await new Promise((r) => setTimeout(r, 2000));
  const first = await request(`${base}/reviews.json`);
  await first.body.dump();
  const etag = String(first.headers.etag);
  const latencies: number[] = [];
  const cpuBefore = cpuMs(pid);
  const end = Date.now() + 5000;
  while (Date.now() < end) {
    const started = performance.now();
    const res = await request(`${base}/reviews.json`, { headers: { 'if-none-match': etag } });
    await res.body.dump();
    latencies.push(performance.now() - started);
  }
  print({
    probe: 'ended',
    deletesPerSecond: round((statuses.get(204) ?? 0) / 5),
    statuses: Object.fromEntries(statuses),
    with500kEnded: {
      requests: latencies.length,
      p50ms: round(percentile(latencies, 50)),
      p99ms: round(percentile(latencies, 99)),
      maxMs: round(Math.max(...latencies)),
    },
    serverCpuShareOfCore: round((cpuMs(pid) - cpuBefore) / 5000),
  });
}

async function sinceProbe(base: string, pid: number) {
  const get = async (path: string) => {
    const started = performance.now();
    const res = await request(`${base}${path}`, { headers: { 'accept-encoding': 'gzip, br' } });
    await res.body.dump();
    return { status: res.statusCode, ms: performance.now() - started };
  };
  const feedLatencies = async (until: () => boolean) => {
    const out: number[] = [];
    while (!until()) out.push((await get('/api/feed.json')).ms);
    return out;
  };
  let idleDone = false;
  setTimeout(() => (idleDone = true), 3000);
  const idle = await feedLatencies(() => idleDone);

  // The cost of a cached since-date: the same date 200 times.
  await get('/api/reviews/since/2024-01-01');
  let cpu = cpuMs(pid);
  for (let i = 0; i < 200; i++) await get('/api/reviews/since/2024-01-01');
  const cachedCpuMs = (cpuMs(pid) - cpu) / 200;

  const rssBefore = rssMiB(pid);
  const count = Number(process.env.SINCE_DATES ?? 2000);
  const stepDays = Number(process.env.SINCE_STEP_DAYS ?? 1);
  const dates = Array.from({ length: count }, (_, i) =>
    new Date(Date.UTC(2015, 0, 1) + i * stepDays * 86_400_000).toISOString().slice(0, 10),
  );
  let next = 0;
  let done = false;
  const statuses = new Map<number, number>();
  cpu = cpuMs(pid);
  const started = performance.now();
  const during = feedLatencies(() => done);
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      while (next < dates.length) {
        const { status } = await get(`/api/reviews/since/${dates[next++]}`);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  done = true;
  const loaded = await during;
  const distinctCpuMs = (cpuMs(pid) - cpu) / dates.length;
  print({
    probe: 'since',
    statuses: Object.fromEntries(statuses),
    seconds: round((performance.now() - started) / 1000),
    cpuMsPerDistinctDate: round(distinctCpuMs),
    cpuMsPerCachedDate: round(cachedCpuMs),
    rssBeforeMiB: round(rssBefore),
    rssAfterMiB: round(rssMiB(pid)),
    peakMiB: round(peakMiB(pid)),
    feedP95ms: { idle: round(percentile(idle, 95)), during: round(percentile(loaded, 95)) },
  });
}

const [probe, base = '', pid = '', dbPath = ''] = process.argv.slice(2);
if (!base || !pid) fail('usage: node dist/bench/probes.js batch|ended|since <baseUrl> <serverPid> [dbPath]');
if (probe === 'batch') await batchProbe(base, Number(pid));
else if (probe === 'ended') await endedProbe(base, Number(pid), dbPath);
else if (probe === 'since') await sinceProbe(base, Number(pid));
else fail(`unknown probe ${probe}`);
