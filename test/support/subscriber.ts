// A real HTTPS WebSub subscriber on loopback (test CA): answers verifications and deliveries as told, records all.
import type { ServerResponse } from 'node:http';
import { Listener, type ReceivedRequest } from './listener.js';

export interface Behaviour {
  /** How to answer a GET with hub.mode subscribe/unsubscribe: echo the challenge (default), echo something else, or a status. */
  verify?: 'echo' | 'wrong-body' | { status: number };
  /** Status for each POST delivery in turn (the last repeats); 'hang' never answers. Default 200. */
  deliveries?: (number | 'hang')[];
}

export class Subscriber {
  private readonly listener = new Listener((request, response) => this.answer(request, response));
  private readonly behaviours = new Map<string, Behaviour>();
  private readonly posts = new Map<string, number>();
  private readonly hanging = new Set<() => void>();

  /** A subscriber that already listens. */
  static start(): Promise<Subscriber> {
    return new Subscriber().listen();
  }

  /** For a subscriber made before its test file's hooks run (its URLs exist only after this). */
  async listen(): Promise<this> {
    await this.listener.listen();
    return this;
  }

  get received(): readonly ReceivedRequest[] {
    return this.listener.received;
  }

  get port(): number {
    return this.listener.port;
  }

  /** A callback URL on this subscriber; `path` names it, and may carry its own query string. */
  url(path: string, behaviour: Behaviour = {}, host = '127.0.0.1'): string {
    this.behaviours.set(path.split('?')[0]!, behaviour);
    return this.listener.url(path, host);
  }

  /** Changes how a callback answers from now on. */
  behave(path: string, behaviour: Behaviour): void {
    this.behaviours.set(path, behaviour);
  }

  requests(path: string, method?: 'GET' | 'POST'): ReceivedRequest[] {
    return this.listener.requests(path, method);
  }

  async close(): Promise<void> {
    // A hanging delivery is released first, so the hub's worker sees its attempt end.
    for (const release of this.hanging) release();
    await this.listener.close();
  }

  private answer(request: ReceivedRequest, res: ServerResponse): void {
    const behaviour = this.behaviours.get(request.path) ?? {};
    if (request.method === 'GET') {
      const challenge = request.query.get('hub.challenge') ?? '';
      const verify = behaviour.verify ?? 'echo';
      if (verify === 'echo') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(challenge);
      if (verify === 'wrong-body')
        return void res.writeHead(200, { 'content-type': 'text/plain' }).end(`${challenge}x`);
      return void res.writeHead(verify.status).end(challenge);
    }
    const n = this.posts.get(request.path) ?? 0;
    this.posts.set(request.path, n + 1);
    const plan = behaviour.deliveries ?? [200];
    const answer = plan[Math.min(n, plan.length - 1)]!;
    if (answer === 'hang') {
      this.hanging.add(() => res.destroy());
      return;
    }
    res.writeHead(answer).end();
  }
}
