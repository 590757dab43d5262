// The server's handle on the insights process: builds run there, so analysing 100,000 reviews never blocks serving,
// and the memory a build takes goes back to the system when the process ends.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { StoredInsights } from '../store/types.js';
import type { BuildOutcome, BuildRequest, InsightsBuilds } from '../publishing/insights.js';
import { ReviewDeltas } from './deltas.js';
import type { ProcessData, ProcessMessage, ProcessRequest } from './build-process.js';
import { compiledInsightsDir, engineVersions } from './version.js';

interface Pending {
  resolve: (outcome: BuildOutcome) => void;
  reject: (e: Error) => void;
  onReady: (document: StoredInsights, analysed: number) => void;
  ready?: StoredInsights;
}

/** What the process sends: a built document once encoded, then the build's outcome (without that document again). */
type BuildMessage =
  | { id: number; ready: StoredInsights; analysed: number }
  | {
      id: number;
      ok: true;
      outcome:
        | Exclude<BuildOutcome, { kind: 'built' }>
        | (Omit<Extract<BuildOutcome, { kind: 'built' }>, 'document'> & { document: null });
    }
  | { id: number; ok: false; error: string };

/** Reviews per message when a delta crosses to the process in parts. */
const PART = 5000;

/** How long a stopping process may take to finish a write and close its store. */
const STOP_GRACE_MS = 10_000;

/**
 * A process idle this long after its last build is stopped, and the memory it holds goes with it (the engine, the
 * reviews and their analyses: some 700 MB after a first build of 100,000 reviews). The next build starts another,
 * which reads the stored analyses back: imports in a burst share one process, and a server at rest holds none, from
 * well within 30 s of its first build.
 */
export const RETIRE_IDLE_MS = 15_000;

/** A message to the process; one whose channel has closed is not sent (its exit fails what waits on it). */
function send(worker: ChildProcess, message: ProcessMessage): void {
  if (worker.connected) worker.send(message);
}

export class InsightsWorker implements InsightsBuilds {
  private worker: ChildProcess | undefined;
  private nextId = 0;
  private stopped = false;
  /** What the process holds, so each build sends only what changed. */
  private readonly deltas = new ReviewDeltas();
  private readonly pending = new Map<number, Pending>();
  private sending: Promise<void> = Promise.resolve();
  private idle: NodeJS.Timeout | undefined;

  constructor(
    private readonly databaseUrl: string,
    private readonly retireIdleMs = RETIRE_IDLE_MS,
  ) {}

  /** Whether the process is running now (started by a build, stopped when idle). */
  get running(): boolean {
    return this.worker !== undefined;
  }

  /** The engine version documents are keyed by (read from the compiled engine, as the process reads it). */
  get engineVersion(): string {
    return engineVersions().document;
  }

  /** `onReady` gets a built document as soon as it is encoded, before it is stored (see InsightsBuilder.build). */
  build(request: BuildRequest, onReady: Pending['onReady'] = () => undefined): Promise<BuildOutcome> {
    if (this.stopped) return Promise.reject(new Error('the insights worker has stopped'));
    clearTimeout(this.idle);
    const worker = this.start();
    // A build under way keeps the server's event loop alive, as an awaited answer must (a CLI may await it).
    worker.channel?.ref();
    const id = this.nextId++;
    const answered = new Promise<BuildOutcome>((resolve, reject) => this.pending.set(id, { resolve, reject, onReady }));
    // A large delta is computed and crosses in parts, turns of the event loop between them (copying 330,000 reviews
    // to the process in one message would hold this thread for a second); requests are sent one after another.
    const turn = () => new Promise<void>((done) => setImmediate(done));
    this.sending = this.sending.then(async () => {
      const { upsert, ...delta } = await this.deltas.next(request.reviews, turn);
      const ahead = Math.max(0, Math.ceil(upsert.length / PART) - 1);
      for (let part = 0; part < ahead; part++) {
        send(worker, { part: upsert.slice(part * PART, (part + 1) * PART) });
        await turn();
      }
      const message: ProcessRequest = {
        business: request.business,
        asOf: request.asOf,
        delta: { ...delta, upsert: upsert.slice(ahead * PART) },
      };
      send(worker, { id, request: message });
    });
    return answered;
  }

  /** Asks the process to stop (it closes its store); kills it if it has not within STOP_GRACE_MS. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.idle);
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return;
    const exited = new Promise<void>((done) =>
      worker.exitCode !== null || worker.signalCode !== null ? done() : worker.once('exit', () => done()),
    );
    send(worker, 'stop');
    const force = setTimeout(() => worker.kill('SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(force);
  }

  private retireWhenIdle(): void {
    clearTimeout(this.idle);
    this.idle = setTimeout(() => this.retire(), this.retireIdleMs);
    this.idle.unref();
  }

  /** Stops an idle process; its exit fails no build, and the next build starts a new one with everything sent again. */
  private retire(): void {
    const worker = this.worker;
    if (!worker || this.pending.size > 0) return;
    this.worker = undefined;
    this.deltas.forget();
    worker.removeAllListeners();
    worker.on('error', () => undefined);
    send(worker, 'stop');
    setTimeout(() => worker.kill('SIGKILL'), STOP_GRACE_MS).unref();
  }

  /** Started at the first build: a server whose stored insights are current never loads the engine. */
  private start(): ChildProcess {
    if (this.worker) return this.worker;
    const data: ProcessData = { databaseUrl: this.databaseUrl, versions: engineVersions() };
    // Structured clone over the channel, as between threads: Buffers, Maps and dates cross as they are.
    const worker = fork(fileURLToPath(new URL('build-process.js', compiledInsightsDir())), [JSON.stringify(data)], {
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    // Neither the process nor, between builds, its channel keeps the server's event loop alive.
    worker.unref();
    worker.on('message', (m: BuildMessage) => {
      const waiting = this.pending.get(m.id);
      if (!waiting) return;
      if ('ready' in m) {
        waiting.ready = m.ready;
        waiting.onReady(m.ready, m.analysed);
        return;
      }
      this.pending.delete(m.id);
      if (this.pending.size === 0) {
        worker.channel?.unref();
        this.retireWhenIdle();
      }
      if (!m.ok) waiting.reject(new Error(m.error));
      // A built document crossed once, when ready: the outcome refers to it.
      else if (m.outcome.kind === 'built') waiting.resolve({ ...m.outcome, document: waiting.ready! });
      else waiting.resolve(m.outcome);
    });
    // An error, a crash or a kill: every build still waiting fails (rather than hanging), and the next starts a new process.
    const fail = (error: Error) => {
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
      if (this.worker === worker) this.worker = undefined;
      this.deltas.forget();
    };
    worker.on('error', fail);
    worker.on('exit', (code, signal) => fail(new Error(`the insights process exited (${signal ?? `code ${code}`})`)));
    this.worker = worker;
    return worker;
  }
}
