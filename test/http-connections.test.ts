// What one client may hold of the server's connections: a cap per address, and no connection kept by a reader
// that takes what is sent a little at a time.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemo } from '../src/demo/generate.js';
import { publish, startServer, tempDir, type RunningServer } from './support/server.js';
import { until } from './support/wait.js';

const dir = tempDir('reviews-connections-');
afterAll(() => dir.remove());

/** A raw connection from `localAddress` that sent one GET and collects what comes back. */
async function getOn(
  url: string,
  path: string,
  localAddress: string,
): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port), localAddress });
  let text = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => (text += chunk));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((done) => socket.once('close', () => done()));
  await new Promise<void>((done) => socket.once('connect', done));
  socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`);
  return { socket, received: () => text, closed };
}

/** Connections the server holds open. */
const connectionsOf = (server: RunningServer) =>
  new Promise<number>((done, fail) =>
    server.app.http.server.getConnections((error, n) => (error ? fail(error) : done(n))),
  );

describe('connections from one address', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(`${dir.path}/cap.db`, { HTTP_MAX_CONNECTIONS_PER_CLIENT: '4' });
  });
  afterAll(() => server.close());

  it('are held to the cap: the ones past it are closed unanswered, and another address is served', async () => {
    const held = await Promise.all(Array.from({ length: 6 }, () => getOn(server.url, '/healthz', '127.0.0.1')));
    await until(() => held.filter((c) => c.received().startsWith('HTTP/1.1 200')).length === 4, 5000, 'four answers');
    await Promise.race([
      Promise.all(held.filter((c) => !c.received()).map((c) => c.closed)),
      new Promise((_, fail) => setTimeout(() => fail(new Error('the connections past the cap were not closed')), 5000)),
    ]);
    expect(held.filter((c) => c.received() === '')).toHaveLength(2);
    const other = await getOn(server.url, '/healthz', '127.0.0.2');
    await until(() => other.received().startsWith('HTTP/1.1 200'), 5000, 'an answer to another address');
    for (const c of [...held, other]) c.socket.destroy();
    // Closed connections give their places back.
    await until(async () => (await connectionsOf(server)) === 0, 5000, 'the server to let the closed connections go');
    const again = await getOn(server.url, '/healthz', '127.0.0.1');
    await until(() => again.received().startsWith('HTTP/1.1 200'), 5000, 'an answer once the others closed');
    again.socket.destroy();
  });
});

describe('a reader that takes a response a little at a time', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(`${dir.path}/slow.db`, { HTTP_RESPONSE_TIMEOUT_MS: '2000' });
    const demo = generateDemo({ seed: 3, reviews: 15_000 });
    await publish(server, { business: demo.business, reviews: demo.reviews, replace: true });
  });
  afterAll(() => server.close());

  it('is cut off once what was sent has waited for it past the response timeout, though bytes keep moving', async () => {
    const { hostname, port } = new URL(server.url);
    const reader = connect({ host: hostname, port: Number(port) });
    reader.on('error', () => undefined);
    await new Promise<void>((done) => reader.once('connect', done));
    reader.write(`GET /reviews.json HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`);
    await until(async () => (await connectionsOf(server)) === 1, 5000, 'the connection');
    // 4 KB a quarter second: never idle for the idle timeout (30 s), far too slow for megabytes.
    let taken = 0;
    const sip = setInterval(() => (taken += reader.read(4096)?.length ?? 0), 250);
    // The server lets the connection go; the client may still be reading what the system had taken for it.
    let cut = false;
    const deadline = Date.now() + 15_000;
    while (!cut && Date.now() < deadline) {
      await new Promise((done) => setTimeout(done, 250));
      cut = (await connectionsOf(server)) === 0;
    }
    clearInterval(sip);
    reader.destroy();
    expect(taken).toBeGreaterThan(0);
    expect(cut, `still open after 15 s, ${taken} bytes taken`).toBe(true);
  });
});
