// `reviews serve` as a separate process, as an operator runs it: its settings (port, BASE_URL, database) survive every
// restart, SIGKILL leaves no shutdown code run, and `stopAllServices()` (in afterAll) leaves no process behind.
import { spawn, type ChildProcess } from 'node:child_process';
import { CLI, freePort, inheritedEnv, untilServing } from './server.js';

const children = new Set<ChildProcess>();

/** Kills every service process still running (SIGKILL) and waits until they are gone. */
export async function stopAllServices(): Promise<void> {
  for (const child of children) child.kill('SIGKILL');
  await Promise.all(
    [...children].map((child) =>
      child.exitCode === null && child.signalCode === null
        ? new Promise((done) => child.once('exit', done))
        : undefined,
    ),
  );
}

export class ServiceProcess {
  readonly url: string;
  readonly port: number;
  readonly databaseUrl: string;
  private child: ChildProcess | undefined;
  private output = '';

  private constructor(
    private readonly settings: Record<string, string>,
    port: number,
  ) {
    this.port = port;
    this.url = `http://127.0.0.1:${port}`;
    this.databaseUrl = settings.DATABASE_URL!;
  }

  /**
   * A service over `databaseUrl` on a free loopback port; BASE_URL is that port's unless `settings` names one
   * (replicas of one service share theirs). Test-friendly defaults: private callbacks allowed, short WebSub timeouts.
   */
  static async create(databaseUrl: string, settings: Record<string, string> = {}): Promise<ServiceProcess> {
    const port = await freePort();
    return new ServiceProcess(
      {
        DATABASE_URL: databaseUrl,
        PORT: String(port),
        HOST: '127.0.0.1',
        BASE_URL: `http://127.0.0.1:${port}`,
        WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'true',
        MCP_SESSION_SECRET: 'service-process-test-secret-0123456789',
        WEBSUB_TIMEOUT_MS: '1000',
        WEBSUB_RETRY_DELAYS_MS: '1500',
        RELOAD_INTERVAL_MS: '100',
        LOG_LEVEL: 'info',
        ...settings,
      },
      port,
    );
  }

  /** Everything the process logged (stdout and stderr). */
  logged(): string {
    return this.output;
  }

  /** The last lines the process logged, for failure messages. */
  log(lines = 15): string {
    return this.output.split('\n').slice(-lines).join('\n');
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Whether the process was started and has not exited. */
  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** How the process ended, for failure messages: its exit code or signal, or 'running'. */
  get ended(): string {
    if (!this.child || this.running) return 'running';
    return this.child.signalCode ? `killed by ${this.child.signalCode}` : `exited with code ${this.child.exitCode}`;
  }

  async start(timeoutMs = 60_000): Promise<void> {
    const child = spawn(process.execPath, [CLI, 'serve'], {
      env: { ...inheritedEnv(), ...this.settings },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    children.add(child);
    child.once('exit', () => children.delete(child));
    const collect = (chunk: Buffer) => (this.output += chunk.toString());
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    await untilServing(this.url, child, () => this.log(), timeoutMs);
  }

  /** Ends the process with `signal` (SIGKILL: no shutdown code runs at all) and waits for it to be gone. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return;
    const exited = new Promise((done) => child.once('exit', done));
    child.kill(signal);
    await exited;
  }
}
