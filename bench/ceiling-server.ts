// The generator's ceiling: a server on a bare socket that answers every request with the same 100-byte answer,
// without parsing more than where each request ends. node:http itself serves 100 bytes at about the rate the twin
// serves a 304 here, so it could not show that wrk outruns the twin; this serves about twice as many, a lower bound
// of what wrk can drive.
import { createServer } from 'node:net';

const ANSWER = Buffer.from(
  `HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 100\r\n\r\n${'x'.repeat(100)}`,
  'latin1',
);
const END = '\r\n\r\n';

const port = process.argv[2];
if (port) {
  createServer((socket) => {
    // wrk's requests carry no body: each ends at its blank line.
    let tail = '';
    socket.on('data', (chunk: Buffer) => {
      const text = tail + chunk.toString('latin1');
      let ended = 0;
      for (let at = text.indexOf(END); at !== -1; at = text.indexOf(END, at + END.length)) ended++;
      tail = text.slice(text.lastIndexOf(END) + END.length);
      if (ended > 0) socket.write(ended === 1 ? ANSWER : Buffer.concat(Array<Buffer>(ended).fill(ANSWER)));
    });
    socket.on('error', () => socket.destroy());
  }).listen(Number(port), '127.0.0.1', () => process.send?.('ready'));
}
