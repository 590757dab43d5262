// What one client may hold of the server's connections: at most `maxPerClient` open from one address (an IPv6 one
// by its /64; more are closed as they arrive), and no connection whose client stops taking what is sent: one whose
// bytes have waited unsent for `responseTimeoutMs` on end is closed. Node's own timeout counts any byte moving, so a
// reader taking a little now and then held a connection for minutes.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { normalizeIP } from '@fastify/rate-limit';

export interface ConnectionBounds {
  /** null: no cap (behind a proxy every connection comes from the proxy's address). */
  maxPerClient: number | null;
  responseTimeoutMs: number;
}

/** How often connections are looked at. */
const SWEEP_MS = 1000;

export function boundConnections(server: Server, bounds: ConnectionBounds): void {
  const byClient = new Map<string, number>();
  /** Each open connection, and since when its bytes have waited unsent (null while none wait). */
  const open = new Map<Socket, number | null>();

  server.on('connection', (socket: Socket) => {
    const client = normalizeIP(socket.remoteAddress ?? '', 64);
    const held = (byClient.get(client) ?? 0) + 1;
    if (bounds.maxPerClient !== null && held > bounds.maxPerClient) {
      socket.destroy();
      return;
    }
    byClient.set(client, held);
    open.set(socket, null);
    socket.once('close', () => {
      open.delete(socket);
      const left = (byClient.get(client) ?? 1) - 1;
      if (left > 0) byClient.set(client, left);
      else byClient.delete(client);
    });
  });

  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [socket, waitingSince] of open) {
      if (socket.writableLength === 0) {
        if (waitingSince !== null) open.set(socket, null);
      } else if (waitingSince === null) {
        open.set(socket, now);
      } else if (now - waitingSince >= bounds.responseTimeoutMs) {
        socket.destroy();
      }
    }
  }, SWEEP_MS);
  sweep.unref();
  server.once('close', () => clearInterval(sweep));
}
