// Helpers for WebSub hub tests: form-encoded hub requests, polling with a deadline, review records, a scriptable HTTPS listener.
import { createServer } from 'node:https';
import type { ImportedReview } from '../../src/reviews/schemas.js';
import { makeTestPki } from './tls.js';

export { sleep, until } from './wait.js';

export interface HubAnswer {
  status: number;
  contentType: string | null;
  retryAfter: string | null;
  allow: string | null;
  text: string;
}

/** POSTs a form-encoded request to the hub of the service at `baseUrl`, as a subscriber would (or a raw body with its Content-Type). */
export async function hubRequest(baseUrl: string, fields: Record<string, string>, raw?: { contentType: string; body: string }): Promise<HubAnswer> {
  const response = await fetch(`${baseUrl}/api/websub/hub`, {
    method: 'POST',
    ...(raw
      ? { headers: { 'content-type': raw.contentType }, body: raw.body }
      : { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() }),
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    retryAfter: response.headers.get('retry-after'),
    allow: response.headers.get('allow'),
    text: await response.text(),
  };
}

/** Subscribes `callback` to the topic `{baseUrl}{topicPath}`. */
export function subscribe(baseUrl: string, topicPath: string, callback: string, extra: Record<string, string> = {}): Promise<HubAnswer> {
  return hubRequest(baseUrl, { 'hub.mode': 'subscribe', 'hub.topic': `${baseUrl}${topicPath}`, 'hub.callback': callback, ...extra });
}

/** A verified review record for an import. */
export function verifiedReview(id: string, date = '2026-01-15'): ImportedReview {
  return { id, date, rating: 5, text: `Review ${id}: the technician fixed the AC the same day.`, author: 'Test A.', technicians: [], services: [], verified: true };
}

export interface ScriptedAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Answer only after this many milliseconds. */
  delayMs?: number;
}

export interface ScriptedListener {
  port: number;
  /** Every request, in arrival order. */
  received: { method: string; path: string; at: number }[];
  url(path: string): string;
  close(): Promise<void>;
}

/** An HTTPS server on 127.0.0.1 (test certificate) answering every request through `answer`, recording each. */
export async function startScriptedListener(answer: (method: string, url: URL) => ScriptedAnswer): Promise<ScriptedListener> {
  const pki = makeTestPki();
  const received: ScriptedListener['received'] = [];
  const server = createServer({ key: pki.key, cert: pki.cert }, (req, res) => {
    req.resume();
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'https://listener');
      const method = req.method ?? 'GET';
      received.push({ method, path: url.pathname, at: Date.now() });
      const { status, headers, body, delayMs } = answer(method, url);
      const send = () => void res.writeHead(status, headers).end(body ?? '');
      if (delayMs) setTimeout(send, delayMs);
      else send();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    received,
    url: (path) => `https://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
