// The hub's outbound slots are shared per client: one address flooding subscribe requests at a callback that holds
// every verification keeps at most its share in flight, another address's verification still goes out (even while
// deliveries hang), and slots freed while several clients wait go round-robin across them. Real HTTP from distinct
// loopback addresses to real HTTPS callbacks.
import type { ServerResponse } from 'node:http';
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { subscribe } from './support/hub-subscribe.js';
import { Listener, type ReceivedRequest } from './support/listener.js';
import { until } from './support/wait.js';
import { importNow, waitForState, websubFixture, type HubServer } from './support/websub-harness.js';

const { hubServer } = websubFixture('fair-share');

const CONCURRENCY = 4;
const PER_CLIENT = 2;
/**
 * Longer than the test holds anything (a held request is answered by the test, never timed out), so the counts at
 * the callback are the hub's scheduling choices, not its timeouts'.
 */
const SHARE = {
  WEBSUB_CONCURRENCY: String(CONCURRENCY),
  WEBSUB_CONCURRENCY_PER_CLIENT: String(PER_CLIENT),
  WEBSUB_TIMEOUT_MS: '5000',
};

/** Each client is a loopback address of its own (Linux routes all of 127.0.0.0/8 to lo). */
const ADDRESSES = { a: '127.0.0.2', b: '127.0.0.3', c: '127.0.0.4' } as const;
type Client = keyof typeof ADDRESSES;
/** What holds a slot at the callback host: a client's verifications, or `d`, deliveries (POSTs to `/d/…`). */
type Party = Client | 'd';

interface Held {
  party: Party;
  request: ReceivedRequest;
  response: ServerResponse;
}

/** What the callback host saw when a verification arrived: per party, requests then open and already ended. */
interface Arrival {
  party: Party;
  open: Record<Party, number>;
  ended: Record<Party, number>;
}

const perParty = (): Record<Party, number> => ({ a: 0, b: 0, c: 0, d: 0 });

/**
 * An HTTPS callback host that holds every verification GET (and every delivery POST to `/d/…`, whose verifications
 * it answers at once) until the test answers it, and counts per party (the first path segment names it) the
 * requests it holds, the most it ever held at once, and those that ended.
 */
class HoldingCallbacks {
  readonly arrivals: Arrival[] = [];
  readonly open = perParty();
  readonly ended = perParty();
  readonly peak = perParty();
  peakTotal = 0;
  private readonly held: Held[] = [];
  private holding = true;
  private listener: Listener | undefined;

  async start(): Promise<this> {
    this.listener = await Listener.start((req, res) => this.answer(req, res), 'https');
    return this;
  }

  url(party: Party, n: number): string {
    return this.listener!.url(`/${party}/${n}`);
  }

  /** Answers the oldest request held for `client`. */
  answerOne(client: Client): void {
    const index = this.held.findIndex((h) => h.party === client);
    if (index < 0) throw new Error(`no verification of client ${client} is held (open: ${JSON.stringify(this.open)})`);
    const [held] = this.held.splice(index, 1);
    echo(held!);
  }

  /** Answers every held verification and, from now on, each new one at once. */
  releaseAll(): void {
    this.holding = false;
    for (const held of this.held.splice(0)) echo(held);
  }

  close(): Promise<void> {
    return this.listener?.close() ?? Promise.resolve();
  }

  private answer(req: ReceivedRequest, res: ServerResponse): void {
    const party = req.path.split('/')[1] as Party;
    const held = { party, request: req, response: res };
    if (req.method !== (party === 'd' ? 'POST' : 'GET') || !this.holding) return echo(held);
    this.open[party]++;
    this.peak[party] = Math.max(this.peak[party], this.open[party]);
    this.peakTotal = Math.max(this.peakTotal, this.open.a + this.open.b + this.open.c + this.open.d);
    if (party !== 'd') this.arrivals.push({ party, open: { ...this.open }, ended: { ...this.ended } });
    // Ended by the test's answer or by the hub giving up (its timeout closes the connection).
    res.once('close', () => {
      this.open[party]--;
      this.ended[party]++;
    });
    this.held.push(held);
  }
}

function echo({ request: req, response }: Held): void {
  response.writeHead(200, { 'content-type': 'text/plain' }).end(req.query.get('hub.challenge') ?? '');
}

let callbacks: HoldingCallbacks;
let agents: Agent[] = [];
afterEach(async () => {
  // Before the fixture closes the servers: their hubs' outstanding verifications then fail at once.
  await callbacks?.close();
  await Promise.all(agents.map((agent) => agent.close()));
  agents = [];
});

/** Subscribe requests as one client sends them: every connection from its own local address. */
function clientOf(server: HubServer, client: Client): (callback: string) => Promise<number> {
  // undici takes the local address as a client option (inside `connect` it would be silently dropped).
  const agent = new Agent({ localAddress: ADDRESSES[client] });
  agents.push(agent);
  return async (callback) => {
    const answer = await request(server.hubUrl, {
      dispatcher: agent,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        'hub.mode': 'subscribe',
        'hub.topic': server.topics.jsonFeed,
        'hub.callback': callback,
      }).toString(),
    });
    await answer.body.dump();
    return answer.statusCode;
  };
}

/** Sends `count` subscribe requests from `client`, each with a callback of its own; all are answered 202. */
async function flood(server: HubServer, client: Client, count: number): Promise<string[]> {
  const send = clientOf(server, client);
  const urls = Array.from({ length: count }, (_, i) => callbacks.url(client, i));
  for (const url of urls) expect(await send(url)).toBe(202);
  return urls;
}

describe('the hub shares its outbound slots per client', () => {
  it("verifies a second client's subscription while the first client's flood is held at its callback", async () => {
    const server = await hubServer(SHARE);
    callbacks = await new HoldingCallbacks().start();
    const flooded = await flood(server, 'a', 6);
    // The hub keys each request by the address it came from, as its per-client subscription cap does.
    expect(await server.store.websub.countByClient(ADDRESSES.a)).toBe(6);
    await until(() => callbacks.open.a >= PER_CLIENT, 10_000, "client a's verifications to reach the callback");

    const [late] = await flood(server, 'b', 1);
    expect(await server.store.websub.countByClient(ADDRESSES.b)).toBe(1);
    const arrival = await until(
      () => callbacks.arrivals.find((a) => a.party === 'b'),
      15_000,
      "client b's verification",
    );
    // b went out while every verification of a that had gone out was still held, and a never held more than its share.
    expect({ aOpen: arrival.open.a, aEnded: arrival.ended.a, aPeak: callbacks.peak.a }).toEqual({
      aOpen: PER_CLIENT,
      aEnded: 0,
      aPeak: PER_CLIENT,
    });
    expect(callbacks.peakTotal).toBeLessThanOrEqual(CONCURRENCY);

    // Freed slots drain a's queue: every subscription is verified.
    callbacks.releaseAll();
    for (const url of [...flooded, late!]) await waitForState(server, server.topics.jsonFeed, url, 'active');
    expect(callbacks.peak.a).toBe(PER_CLIENT);
  });

  it('gives freed slots to waiting clients in turn, not to the first client that queued', async () => {
    const server = await hubServer(SHARE);
    callbacks = await new HoldingCallbacks().start();
    // a holds its share and queues two more; b holds the rest of the slots; c then waits for a slot.
    const fromA = await flood(server, 'a', 4);
    await until(() => callbacks.open.a >= PER_CLIENT, 10_000, "client a's verifications to reach the callback");
    const fromB = await flood(server, 'b', 2);
    await until(() => callbacks.open.b >= 2, 15_000, "client b's verifications to reach the callback");
    expect(callbacks.peak.a).toBe(PER_CLIENT);
    const fromC = await flood(server, 'c', 1);

    // Two of a's verifications end, one after the other: a's turn and then c's, not a's queue twice.
    const before = callbacks.arrivals.length;
    callbacks.answerOne('a');
    await until(() => callbacks.arrivals.length > before, 10_000, 'a verification to take the first freed slot');
    callbacks.answerOne('a');
    await until(() => callbacks.arrivals.length > before + 1, 10_000, 'a verification to take the second freed slot');
    expect(
      callbacks.arrivals
        .slice(before)
        .map((a) => a.party)
        .sort(),
    ).toEqual(['a', 'c']);
    expect(callbacks.peakTotal).toBeLessThanOrEqual(CONCURRENCY);

    callbacks.releaseAll();
    for (const url of [...fromA, ...fromB, ...fromC]) await waitForState(server, server.topics.jsonFeed, url, 'active');
  });

  it("keeps room for a second client's verification while deliveries hang and the first client floods", async () => {
    // 6 slots, shares of 2: deliveries may hold 3 (all but one share and one slot), the flood 2, and one is left.
    const server = await hubServer({ ...SHARE, WEBSUB_CONCURRENCY: '6' });
    callbacks = await new HoldingCallbacks().start();
    const hanging = Array.from({ length: 4 }, (_, i) => callbacks.url('d', i));
    for (const url of hanging) expect((await subscribe(server, server.topics.jsonFeed, url)).status).toBe(202);
    for (const url of hanging) await waitForState(server, server.topics.jsonFeed, url, 'active');
    await importNow(server);
    await until(() => callbacks.open.d >= 3, 10_000, 'the deliveries to reach their callbacks');

    const flooded = await flood(server, 'a', 4);
    await until(() => callbacks.open.a >= PER_CLIENT, 10_000, "client a's verifications to reach the callback");
    const [late] = await flood(server, 'b', 1);
    const arrival = await until(
      () => callbacks.arrivals.find((a) => a.party === 'b'),
      15_000,
      "client b's verification",
    );
    expect({ dOpen: arrival.open.d, dEnded: arrival.ended.d, aOpen: arrival.open.a, aEnded: arrival.ended.a }).toEqual({
      dOpen: 3,
      dEnded: 0,
      aOpen: PER_CLIENT,
      aEnded: 0,
    });
    expect(callbacks.peak.d).toBe(3);

    // Once answered, the fourth delivery (which waited for the deliveries' cap) goes out and the flood is verified.
    callbacks.releaseAll();
    const delivered = async () =>
      (await Promise.all(hanging.map((url) => server.store.websub.get(server.topics.jsonFeed, url)))).every(
        (s) => s?.lastDeliveryAt,
      );
    await until(delivered, 10_000, 'every delivery to be recorded');
    for (const url of [...flooded, late!]) await waitForState(server, server.topics.jsonFeed, url, 'active');
  });
});
