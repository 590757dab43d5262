// The floor of serving bytes in Node: a bare node:http server answering every request with one fixed body.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [file, port, contentType, encoding] = process.argv.slice(2);
if (!file || !port || !contentType) throw new Error('usage: baseline-server <body-file> <port> <content-type> [content-encoding]');
const body = readFileSync(file);
const headers: Record<string, string> = { 'content-type': contentType, 'content-length': String(body.length), vary: 'Accept-Encoding' };
if (encoding) headers['content-encoding'] = encoding;
createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
}).listen(Number(port), '127.0.0.1', () => process.send?.('ready'));
