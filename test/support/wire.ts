// Raw HTTP for tests that must see the wire: status, headers and the undecoded body bytes (fetch would decompress).
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** Exactly the bytes on the wire, still content-coded. */
  body: Buffer;
}

export interface RawRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/** One request on its own connection (no keep-alive), so nothing outlives the server under test. */
export function rawRequest(url: string, options: RawRequestOptions = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers = { ...options.headers };
    // A declared length, so servers can refuse an oversized body before reading it (unless sent chunked).
    const framed = (name: string) => ['content-length', 'transfer-encoding'].includes(name.toLowerCase());
    if (options.body !== undefined && !Object.keys(headers).some(framed)) {
      headers['content-length'] = String(Buffer.byteLength(options.body));
    }
    const req = httpRequest(url, { method: options.method ?? 'GET', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** A response header as one string (repeated fields joined with ", "), or undefined when absent. */
export function header(res: RawResponse, name: string): string | undefined {
  const value = res.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The members of a list-valued header, lower-cased. */
export function headerList(res: RawResponse, name: string): string[] {
  return (header(res, name) ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);
}

/** Undoes a content-coding the way a client would. */
export function decode(body: Buffer, coding: string | undefined): Buffer {
  switch (coding) {
    case undefined:
    case 'identity':
      return body;
    case 'gzip':
      return gunzipSync(body);
    case 'br':
      return brotliDecompressSync(body);
    default:
      throw new Error(`unexpected content-coding ${coding}`);
  }
}
