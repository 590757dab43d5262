// The floor of serving bytes in Node: a bare node:http server that answers each request the service was seen to
// answer with the same status, headers and body, looked up by method, path and the request headers that decide
// the answer (If-None-Match, Accept-Encoding); a POST gets its one answer once its body is read. What the service
// spends beyond this is its own overhead.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

export interface Exchange {
  method: string;
  path: string;
  ifNoneMatch?: string;
  acceptEncoding?: string;
  status: number;
  headers: Record<string, string>;
  /** Base64 of the body bytes as sent (compressed when the answer was). */
  body: string;
}

export const exchangeKey = (method: string, path: string, ifNoneMatch = '', acceptEncoding = '') =>
  `${method} ${path} ${ifNoneMatch} ${acceptEncoding}`;

const [file, port] = process.argv.slice(2);
if (file && port) {
  const answers = new Map<string, { status: number; headers: Record<string, string>; body: Buffer }>();
  for (const e of JSON.parse(readFileSync(file, 'utf8')) as Exchange[]) {
    answers.set(exchangeKey(e.method, e.path, e.ifNoneMatch, e.acceptEncoding), {
      status: e.status,
      headers: e.headers,
      body: Buffer.from(e.body, 'base64'),
    });
  }
  createServer((req, res) => {
    const header = (name: string) => (req.headers[name] as string | undefined) ?? '';
    const answer = answers.get(
      exchangeKey(req.method ?? 'GET', req.url ?? '/', header('if-none-match'), header('accept-encoding')),
    );
    if (!answer) {
      res.writeHead(404).end();
      return;
    }
    // A POST's answer once its body is read, as the service reads it before answering.
    if (req.method === 'POST') {
      req.on('data', () => undefined);
      req.on('end', () => res.writeHead(answer.status, answer.headers).end(answer.body));
      return;
    }
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  }).listen(Number(port), '127.0.0.1', () => process.send?.('ready'));
}
