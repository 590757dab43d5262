// What one abusive client costs everyone else, from outside: the server pinned to core 0, every client on core 1.
// The cost of one completion/complete of a review id; a paced client's search latency alone, beside completion
// batches from another address, and beside as many subscriptions/listen streams as that address can open.
// Run by bench/run.ts (`--only abuse`); run as `node abuse.js idle <base> <seconds>` it is the paced client's process.
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateDemo } from '../src/demo/generate.js';
import { rssMiB, until, waitFor } from './process.js';

export interface AbuseBenchOptions {
  root: string;
  work: string;
  port: number;
  size: number;
  /** Seconds of each paced search stream, and of the load beside it. */
  duration: number;
  /** A store of `size` reviews whose insights are built and stored, if the run has one; else one is made here. */
  store?: string;
  /** A server's environment (rate limits lifted) with these settings added. */
  env: (extra: Record<string, string>) => NodeJS.ProcessEnv;
  row: (...cells: (string | number)[]) => void;
}

const SERVER_CORE = '0';
const CLIENT_CORE = '1';
/** The paced client: one cheap search, 50 a second, from its own address (127.0.0.1), on kept-alive connections. */
const SEARCH = '/api/reviews/search?query=water%20heater&limit=20';
const SEARCH_RATE = 50;
const PACED_CONNECTIONS = 16;
/** The server limits per address: the abusive client is one address, the one that asks after it another. */
const ABUSER = '127.0.0.2';
const SECOND = '127.0.0.3';
/** Prefixes of review ids (rv-000001 …): none matches, ten match (rv-000010 … rv-000019), every id does. */
const PREFIXES = [
  { value: 'zz', what: 'no id matches' },
  { value: 'rv-00001', what: '10 ids match' },
  { value: '', what: 'every id matches' },
];
/** The most messages a batch may hold, and the batches kept in flight. */
const BATCH = 8;
const IN_FLIGHT = 3;
/** A refused sender waits this long before its next batch, so that refusals do not take core 1 from the paced client. */
const REFUSED_PAUSE_MS = 10;
const LISTEN_ASKED = 1100;
const LISTEN_WAVE = 50;
const MODERN = '2026-07-28';
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'bench-abuse', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

interface Answer {
  /** 0: no answer; `text` then says why. */
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** Outcomes and how often each came. */
type Tally = Map<string, number>;
const count = (tally: Tally, outcome: string) => tally.set(outcome, (tally.get(outcome) ?? 0) + 1);
const tallyText = (tally: Tally | [string, number][]) =>
  [...tally].map(([outcome, n]) => `${outcome} ×${n}`).join(', ');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const errorText = (error: Error) => (error as NodeJS.ErrnoException).code ?? error.message;

/** One request and its whole answer; a connection that fails is an answer too. */
function send(base: URL, agent: Agent, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((done) => {
    const failed = (error: Error) => done({ status: 0, headers: {}, text: errorText(error) });
    const length = body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) };
    const req = request(
      {
        host: base.hostname,
        port: base.port,
        path,
        method: body === undefined ? 'GET' : 'POST',
        agent,
        headers: { ...headers, ...length },
        timeout: 120_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          done({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString() }),
        );
        res.on('error', failed);
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer in 120 s')));
    req.on('error', failed);
    req.end(body);
  });
}

/** A JSON-RPC error's code and message, for a refusal's label. */
function rpcErrorText(text: string): string {
  try {
    const { error } = JSON.parse(text) as { error?: { code?: number; message?: string } };
    return error ? ` rpc ${error.code} ${String(error.message).slice(0, 60)}` : '';
  } catch {
    return text ? ` ${text.slice(0, 60)}` : '';
  }
}

const outcomeOf = (answer: Answer) =>
  answer.status === 0
    ? `error ${answer.text}`
    : answer.status === 200
      ? '200'
      : `${answer.status}${rpcErrorText(answer.text)}`;

function quantile(values: readonly number[], q: number): number | undefined {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}
const msText = (value: number | undefined) =>
  value === undefined ? '–' : value < 10 ? value.toFixed(2) : value.toFixed(0);

/** Clock ticks a second in /proc (USER_HZ, 100 on Linux). */
const TICKS = 100;

/** Seconds core `SERVER_CORE` was busy (steal included: time it was not ours), and the server's own CPU seconds. */
function cpuSeconds(pid: number): { core: number; server: number } {
  const line =
    readFileSync('/proc/stat', 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`cpu${SERVER_CORE} `)) ?? '';
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = line
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  return {
    core: (user + nice + system + irq + softirq + steal) / TICKS,
    server: ((fields[11] ?? 0) + (fields[12] ?? 0)) / TICKS,
  };
}

/** Milliseconds the main thread of a process (its event loop) has spent ready to run but waiting for a core. */
function waitedMs(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[1] ?? 0) / 1e6;
}

/**
 * From now until called: how much of the server's core the server had and every other process took, and how long
 * the server's event loop (and the paced client's, if given) waited for a core while it was ready to run.
 */
function watchCores(server: number, client?: number): () => string {
  const started = performance.now();
  const before = cpuSeconds(server);
  const waited = [server, client].map((pid) => (pid === undefined ? 0 : waitedMs(pid)));
  return () => {
    const after = cpuSeconds(server);
    const wall = (performance.now() - started) / 1000;
    const share = (seconds: number) => `${Math.max(0, (100 * seconds) / wall).toFixed(0)}%`;
    const waits = [
      `server ${(waitedMs(server) - waited[0]!).toFixed(0)} ms`,
      ...(client === undefined ? [] : [`paced client ${(waitedMs(client) - waited[1]!).toFixed(0)} ms`]),
    ];
    return `core ${SERVER_CORE}: server ${share(after.server - before.server)}, other processes ${share(after.core - before.core - (after.server - before.server))}; waited for a core: ${waits.join(', ')}`;
  };
}

/**
 * Waits (up to 15 s) until the server spends under a fifth of its core, half a second at a time: what a phase left
 * behind (collections of its garbage, answers still being written) must not be measured as the next one's.
 */
async function settle(pid: number): Promise<void> {
  const deadline = performance.now() + 15_000;
  for (let before = cpuSeconds(pid).server; performance.now() < deadline;) {
    await sleep(500);
    const now = cpuSeconds(pid).server;
    if (now - before < 0.1) return;
    before = now;
  }
}

/** initialize, then notifications/initialized: the headers every later request of the session carries. */
async function openSession(base: URL, agent: Agent, version: string): Promise<Record<string, string>> {
  const init = await send(
    base,
    agent,
    '/mcp',
    MCP_HEADERS,
    JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'bench-abuse', version: '1' } },
    }),
  );
  const session = init.headers['mcp-session-id'];
  const negotiated =
    init.status === 200
      ? (JSON.parse(init.text) as { result?: { protocolVersion?: string } }).result?.protocolVersion
      : undefined;
  if (typeof session !== 'string' || negotiated !== version)
    throw new Error(`initialize ${version}: ${init.status} ${init.text.slice(0, 300)}`);
  const headers = { ...MCP_HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': version };
  const initialized = await send(
    base,
    agent,
    '/mcp',
    headers,
    JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  );
  if (initialized.status !== 202)
    throw new Error(`notifications/initialized ${version}: ${initialized.status} ${initialized.text.slice(0, 300)}`);
  return headers;
}

const completion = (id: number, value: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'completion/complete',
  params: { ref: { type: 'ref/resource', uri: 'reviews://review/{id}' }, argument: { name: 'id', value } },
});

/** One completion's outcome ('200': a result) and how many values it answered. */
function completionOutcome(answer: Answer): { outcome: string; values?: number } {
  if (answer.status !== 200) return { outcome: outcomeOf(answer) };
  const body = JSON.parse(answer.text) as {
    result?: { completion?: { values?: unknown[] } };
    error?: { code: number };
  };
  const values = body.result?.completion?.values;
  return values ? { outcome: '200', values: values.length } : { outcome: `200 rpc ${body.error?.code ?? '?'}` };
}

/** Completions sent one at a time: at least 20, then for up to 3 s, at most 200; the latencies of those answered. */
async function completionCost(
  base: URL,
  agent: Agent,
  headers: Record<string, string>,
  value: string,
): Promise<{ times: number[]; outcomes: Tally; values: Set<number> }> {
  for (let i = 0; i < 2; i++) await send(base, agent, '/mcp', headers, JSON.stringify(completion(i + 1, value)));
  const times: number[] = [];
  const outcomes: Tally = new Map();
  const values = new Set<number>();
  const started = performance.now();
  for (let n = 0; n < 200 && (n < 20 || performance.now() - started < 3000); n++) {
    const sent = performance.now();
    const answer = await send(base, agent, '/mcp', headers, JSON.stringify(completion(n + 3, value)));
    const took = performance.now() - sent;
    const result = completionOutcome(answer);
    count(outcomes, result.outcome);
    if (result.values !== undefined) {
      times.push(took);
      values.add(result.values);
    }
  }
  return { times, outcomes, values };
}

/** What the paced client saw: the latencies of its 200s (from when each was due), and every outcome. */
export interface Paced {
  latencies: number[];
  outcomes: [string, number][];
}

/** `rate` searches a second for `seconds`, each sent when due whether or not the ones before were answered. */
async function pacedSearches(base: URL, agent: Agent, rate: number, seconds: number): Promise<Paced> {
  const latencies: number[] = [];
  const outcomes: Tally = new Map();
  const pending: Promise<void>[] = [];
  const start = performance.now();
  for (let i = 0; i < rate * seconds; i++) {
    const due = start + (i * 1000) / rate;
    if (due > performance.now()) await sleep(due - performance.now());
    pending.push(
      send(base, agent, SEARCH, {}).then((answer) => {
        count(outcomes, outcomeOf(answer));
        if (answer.status === 200) latencies.push(performance.now() - due);
      }),
    );
  }
  await Promise.all(pending);
  return { latencies, outcomes: [...outcomes] };
}

/** The paced client's process: opens its connections, then runs one paced stream each time it is asked. */
async function pacedClient(url: string, seconds: number): Promise<void> {
  const base = new URL(url);
  const agent = new Agent({ keepAlive: true, maxSockets: PACED_CONNECTIONS });
  await Promise.all(Array.from({ length: PACED_CONNECTIONS * 2 }, () => send(base, agent, SEARCH, {})));
  process.on('message', (message) => {
    if (message === 'run') void pacedSearches(base, agent, SEARCH_RATE, seconds).then((paced) => process.send!(paced));
  });
  process.on('disconnect', () => agent.destroy());
  process.send!('ready');
}

interface PacedClient {
  pid: number;
  run(): Promise<Paced>;
  stop(): void;
}

/** Forks the paced client (it inherits this process's core). */
async function startPacedClient(base: string, seconds: number): Promise<PacedClient> {
  const child = fork(fileURLToPath(import.meta.url), ['idle', base, String(seconds)], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const reply = () =>
    new Promise<unknown>((done, fail) => {
      const exited = (code: number | null) => fail(new Error(`the paced client exited (${code})`));
      child.once('exit', exited);
      child.once('message', (message) => {
        child.off('exit', exited);
        done(message);
      });
    });
  await reply();
  return {
    pid: child.pid!,
    run: async () => {
      const answered = reply();
      child.send('run');
      return (await answered) as Paced;
    },
    stop: () => child.kill(),
  };
}

/** A batch's outcome: '200' when each of its messages has a result. */
function batchOutcome(answer: Answer): string {
  if (answer.status !== 200) return outcomeOf(answer);
  const replies = JSON.parse(answer.text) as { result?: unknown; error?: { code: number } }[];
  const errors = Array.isArray(replies) ? replies.filter((r) => r.result === undefined) : [];
  if (!Array.isArray(replies) || replies.length !== BATCH) return `200, not ${BATCH} replies`;
  return errors.length === 0
    ? '200'
    : `200 with ${errors.length} rpc errors (${[...new Set(errors.map((e) => e.error?.code))].join(', ')})`;
}

/**
 * The paced stream while a 2025-03-26 session keeps IN_FLIGHT batches of BATCH "zz" completions in flight, for as
 * long as the paced client sends (`seconds`): the searches still waiting then are answered once the batches in
 * flight are, which keeps the part bounded however far behind the server fell.
 */
async function besideBatches(
  base: URL,
  seconds: number,
  paced: PacedClient,
  watch: () => () => string,
): Promise<{ searches: Paced; core: string; batches: Tally; batchMs: number[] }> {
  const agent = new Agent({ keepAlive: true, localAddress: ABUSER });
  const headers = await openSession(base, agent, '2025-03-26');
  const body = JSON.stringify(Array.from({ length: BATCH }, (_, i) => completion(i + 1, 'zz')));
  const batches: Tally = new Map();
  const batchMs: number[] = [];
  let sending = true;
  const sender = async () => {
    while (sending) {
      const sent = performance.now();
      const outcome = batchOutcome(await send(base, agent, '/mcp', headers, body));
      count(batches, outcome);
      if (outcome === '200') batchMs.push(performance.now() - sent);
      else await sleep(REFUSED_PAUSE_MS);
    }
  };
  const senders = Array.from({ length: IN_FLIGHT }, sender);
  const core = watch();
  const stopping = setTimeout(() => (sending = false), seconds * 1000);
  const searches = await paced.run();
  const coreUse = core();
  clearTimeout(stopping);
  sending = false;
  await Promise.all(senders);
  agent.destroy();
  return { searches, core: coreUse, batches, batchMs };
}

interface ListenStream {
  /** 'open' once acknowledged; else why not. */
  outcome: string;
  held(): boolean;
  close(): void;
}

/** One subscriptions/listen request (2026-07-28, stateless) from `localAddress`, on a connection of its own. */
function listen(base: URL, localAddress: string, id: string): Promise<ListenStream> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'subscriptions/listen',
    params: { notifications: { resourceSubscriptions: [`${base.origin}/api/feed.json`] }, _meta: MODERN_META },
  });
  const headers = {
    ...MCP_HEADERS,
    'mcp-protocol-version': MODERN,
    'mcp-method': 'subscriptions/listen',
    'content-length': String(Buffer.byteLength(body)),
  };
  return new Promise((done) => {
    let open = false;
    const answer = (outcome: string) => done({ outcome, held: () => open, close: () => req.destroy() });
    const req = request(
      {
        host: base.hostname,
        port: base.port,
        path: '/mcp',
        method: 'POST',
        agent: false,
        localAddress,
        headers,
        timeout: 15_000,
      },
      (res) => {
        const stream = (res.headers['content-type'] ?? '').startsWith('text/event-stream');
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (open) return;
          text += chunk;
          if (stream && text.includes('notifications/subscriptions/acknowledged')) {
            open = true;
            req.setTimeout(0);
            answer('open');
          }
        });
        res.on('close', () => {
          if (!open)
            answer(
              stream
                ? `${res.statusCode} stream ended before its acknowledgement`
                : `${res.statusCode}${rpcErrorText(text)}`,
            );
          open = false;
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer in 15 s')));
    req.on('error', (error) => {
      open = false;
      answer(`error ${errorText(error)}`);
    });
    req.end(body);
  });
}

/** LISTEN_ASKED listen streams from one address, then one from another, the paced stream beside them, and closing. */
async function listenFlood(base: URL, pid: number, paced: PacedClient, watch: () => () => string) {
  const rssBefore = rssMiB(pid);
  const streams: ListenStream[] = [];
  for (let i = 0; i < LISTEN_ASKED; i += LISTEN_WAVE) {
    const wave = Array.from({ length: Math.min(LISTEN_WAVE, LISTEN_ASKED - i) }, (_, j) =>
      listen(base, ABUSER, `flood-${i + j}`),
    );
    streams.push(...(await Promise.all(wave)));
  }
  await sleep(1000);
  const held = streams.filter((s) => s.held()).length;
  const rssAfter = rssMiB(pid);
  const outcomes: Tally = new Map();
  for (const s of streams) count(outcomes, s.outcome);
  const second = await listen(base, SECOND, 'second');
  second.close();
  await settle(pid);
  const core = watch();
  const searches = await paced.run();
  const coreUse = core();
  const stillHeld = streams.filter((s) => s.held()).length;
  for (const s of streams) s.close();
  await sleep(1000);
  const afterClosing = await listen(base, SECOND, 'after-closing');
  afterClosing.close();
  return {
    rssBefore,
    rssAfter,
    held,
    stillHeld,
    outcomes,
    second: second.outcome,
    afterClosing: afterClosing.outcome,
    searches,
    core: coreUse,
  };
}

/** "p50 / p99" of the paced stream's 200s, and what it was answered (with who had the server's core meanwhile). */
function pacedCells(searches: Paced, core: string): [string, string] {
  return [
    `${msText(quantile(searches.latencies, 0.5))} / ${msText(quantile(searches.latencies, 0.99))}`,
    `${tallyText(searches.outcomes)}; ${core}`,
  ];
}

async function measure(o: AbuseBenchOptions, base: URL, pid: number, paced: PacedClient): Promise<void> {
  const agent = new Agent({ keepAlive: true, localAddress: ABUSER });
  const session = await openSession(base, agent, '2025-06-18');
  for (const { value, what } of PREFIXES) {
    await settle(pid);
    const core = watchCores(pid);
    const { times, outcomes, values } = await completionCost(base, agent, session, value);
    const n = [...outcomes.values()].reduce((a, b) => a + b, 0);
    o.row(
      o.size,
      `completion "${value}" (review ids, ${what}), one at a time: median / p99 ms`,
      `${msText(quantile(times, 0.5))} / ${msText(quantile(times, 0.99))}`,
      `${n} requests: ${tallyText(outcomes)}; ${[...values].join(', ')} values answered; ${core()}`,
    );
  }
  agent.destroy();

  const what = `${SEARCH_RATE}/s for ${o.duration} s`;
  const watch = () => watchCores(pid, paced.pid);
  await settle(pid);
  const aloneWatch = watch();
  const alone = await paced.run();
  const aloneCore = aloneWatch();
  const aloneP99 = quantile(alone.latencies, 0.99);
  const versusAlone = (searches: Paced, coreUse: string): [string, string, string] => {
    const [value, outcomes] = pacedCells(searches, coreUse);
    const p99 = quantile(searches.latencies, 0.99);
    return [
      value,
      `alone p99 ${msText(aloneP99)}; ${outcomes}`,
      p99 === undefined || aloneP99 === undefined ? '' : `p99 ${(p99 / aloneP99).toFixed(1)}×`,
    ];
  };
  o.row(o.size, `search p99 idle: a paced client alone (${what}), p50 / p99 ms`, ...pacedCells(alone, aloneCore));

  await settle(pid);
  const batches = await besideBatches(base, o.duration, paced, watch);
  o.row(
    o.size,
    `search p99 beside completion batches (${IN_FLIGHT} × ${BATCH} "zz" in flight, another address), p50 / p99 ms`,
    ...versusAlone(batches.searches, batches.core),
  );
  o.row(
    o.size,
    `completion batches of ${BATCH} "zz" (2025-03-26 session, ${IN_FLIGHT} in flight): answers`,
    tallyText(batches.batches),
    `a batch answered 200 in ${msText(quantile(batches.batchMs, 0.5))} ms (median)`,
  );

  await settle(pid);
  const flood = await listenFlood(base, pid, paced, watch);
  o.row(
    o.size,
    `listen streams held by one client (${LISTEN_ASKED.toLocaleString('en-US')} asked, ${LISTEN_WAVE} at a time)`,
    flood.held,
    `${tallyText(flood.outcomes)}; ${flood.stillHeld} still held after the search stream`,
  );
  o.row(
    o.size,
    'server RSS before / after the listen streams',
    `${flood.rssBefore.toFixed(0)} / ${flood.rssAfter.toFixed(0)} MiB`,
  );
  o.row(
    o.size,
    'listen stream from a second address while they are held',
    flood.second,
    `once all are closed: ${flood.afterClosing}`,
  );
  o.row(o.size, 'search p99 beside the listen streams, p50 / p99 ms', ...versusAlone(flood.searches, flood.core));
}

const insightsComplete = (base: string) => async () =>
  (await fetch(`${base}/insights.json`, { method: 'HEAD' })).headers.get('retry-after') === null;

function stop(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const kill = setTimeout(() => server.kill('SIGKILL'), 15_000);
    server.once('exit', () => {
      clearTimeout(kill);
      done();
    });
    server.kill('SIGTERM');
  });
}

/** A demo store of `size` reviews, imported and started once (on every core) so that its insights are stored. */
async function builtStore(o: AbuseBenchOptions, main: string): Promise<string> {
  const file = join(o.work, `abuse-${o.size}.json`);
  writeFileSync(file, JSON.stringify(generateDemo({ reviews: o.size })));
  const db = `sqlite:${join(o.work, `abuse-${o.size}.db`)}`;
  const env = o.env({ DATABASE_URL: db, PORT: String(o.port), HOST: '127.0.0.1' });
  execFileSync(process.execPath, [join(o.root, 'dist/src/cli/main.js'), 'import', file], { env, stdio: 'ignore' });
  const server = spawn(process.execPath, [main], { env, stdio: 'ignore' });
  try {
    const base = `http://127.0.0.1:${o.port}`;
    await waitFor(`${base}/reviews.json`);
    await until(insightsComplete(base), 600_000, 'the first insights build', 250);
  } finally {
    await stop(server);
  }
  return db;
}

/** Sets the cores of every thread of a process; returns what puts the old ones back. */
function pin(pid: number, cores: string): () => void {
  const before = execFileSync('taskset', ['-c', '-p', String(pid)])
    .toString()
    .split(':')
    .pop()!
    .trim();
  execFileSync('taskset', ['-a', '-c', '-p', cores, String(pid)], { stdio: 'ignore' });
  return () => execFileSync('taskset', ['-a', '-c', '-p', before, String(pid)], { stdio: 'ignore' });
}

export async function benchAbuse(o: AbuseBenchOptions): Promise<void> {
  try {
    execFileSync('taskset', ['-c', '-p', String(process.pid)], { stdio: 'ignore' });
  } catch {
    o.row(o.size, 'abuse part skipped', 'taskset (util-linux) not found');
    return;
  }
  if (cpus().length < 2) {
    o.row(o.size, 'abuse part skipped', 'it needs two cores: the server on one, its clients on the other');
    return;
  }
  const main = join(o.root, 'dist/src/main.js');
  const db = o.store ?? (await builtStore(o, main));
  const base = `http://127.0.0.1:${o.port}`;
  // This process and the paced client it forks run on the client core; the server on the other.
  const unpin = pin(process.pid, CLIENT_CORE);
  let server: ChildProcess | undefined;
  let paced: PacedClient | undefined;
  try {
    server = spawn('taskset', ['-c', SERVER_CORE, process.execPath, main], {
      env: o.env({ DATABASE_URL: db, PORT: String(o.port), HOST: '127.0.0.1' }),
      stdio: 'ignore',
    });
    await waitFor(`${base}/reviews.json`);
    // Stored insights: nothing to build, so no build thread shares the server's core.
    await until(insightsComplete(base), 600_000, 'the stored insights', 250);
    paced = await startPacedClient(base, o.duration);
    await measure(o, new URL(base), server.pid!, paced);
  } finally {
    paced?.stop();
    if (server) await stop(server);
    unpin();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === 'idle') {
  await pacedClient(process.argv[3]!, Number(process.argv[4]));
}
