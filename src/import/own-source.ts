// Reads a file of the service's own format as a stream of raw records, in bounded memory whatever the file's size: NDJSON a line at a
// time, CSV through csv-parse's stream, a JSON document through a scanner that cuts one review at a time out of
// the `reviews` array and hands it to JSON.parse. Only one record (and one read chunk) is held at once.
import { createReadStream, type ReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { parse as csvParser } from 'csv-parse';
import { csvSyntaxReason, jsonSyntaxMessage } from './syntax.js';

export type ImportFormat = 'json' | 'ndjson' | 'csv';

/** A record as read, before validation, with where the file holds it ("line 12", "reviews[3]"). */
export interface RawRecord {
  location: string;
  value: unknown;
}

/** What a file's reading yields, in file order. */
export type SourceItem =
  | { kind: 'records'; records: RawRecord[] }
  | { kind: 'business'; value: unknown }
  /** A problem found while reading: with `record`, one unreadable record; without, the file as a whole. */
  | { kind: 'problem'; location: string; field: string; reason: string; record?: boolean };

export interface ImportSource {
  /** What the file was read as: one of the service's own formats, or a platform's answer (`google`). */
  format: string;
  /** The file's size in bytes, and how many have been read so far (for progress). */
  size: number;
  bytesRead(): number;
  items: AsyncIterable<SourceItem>;
}

/** Records handed on at once. */
const BATCH = 1000;
/** How much of the file's start decides its format when the extension does not. */
const SNIFF_BYTES = 1 << 20;

/** CSV columns; list columns are `;`-separated, the owner response is split into two columns. */
export const CSV_COLUMNS = [
  'id',
  'date',
  'rating',
  'text',
  'author',
  'technicians',
  'services',
  'serviceArea',
  'source',
  'title',
  'responseDate',
  'responseText',
  'verified',
] as const;

export function detectFormat(path: string, start: string): ImportFormat {
  const ext = extname(path).toLowerCase();
  if (ext === '.json') return 'json';
  if (ext === '.ndjson' || ext === '.jsonl') return 'ndjson';
  if (ext === '.csv') return 'csv';
  const text = start.replace(/^\uFEFF/, '').trimStart();
  if (text.startsWith('[')) return 'json';
  if (text.startsWith('{')) {
    try {
      JSON.parse(text.split('\n', 1)[0] ?? '');
      return 'ndjson';
    } catch {
      return 'json';
    }
  }
  return 'csv';
}

/**
 * What a file of one of the service's own formats holds: the JSON document's list (and the object beside it, if
 * any), the CSV columns and how a row becomes a record.
 */
export interface OwnLayout {
  listKey: string;
  headKey?: string;
  /** What the JSON document was expected to be, for the message when it is not. */
  expected: string;
  columns: readonly string[];
  csvRecord: (row: Record<string, string>) => Record<string, unknown>;
  /**
   * Unknown CSV columns are named in the problem, unless the file may hold customers' contacts: a file without its
   * header row makes the first record the header, and its cells would be printed.
   */
  quoteUnknownColumns?: boolean;
}

/** The reviews import format. */
export const REVIEWS_LAYOUT: OwnLayout = {
  listKey: 'reviews',
  headKey: 'business',
  expected: 'expected an object { "business"?: {...}, "reviews": [...] } or an array of reviews',
  columns: CSV_COLUMNS,
  csvRecord: csvToRecord,
  quoteUnknownColumns: true,
};

/** A `;`-separated CSV cell as a list (empty items dropped). */
export const csvList = (v: string | undefined): string[] =>
  (v ?? '')
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);
/** A CSV cell, or undefined when it is empty or missing. */
export const csvOptional = (v: string | undefined): string | undefined =>
  v === undefined || v.trim() === '' ? undefined : v;

export async function openImportSource(file: string, layout: OwnLayout = REVIEWS_LAYOUT): Promise<ImportSource> {
  const { size } = await stat(file);
  const handle = await open(file);
  let start: string;
  try {
    const buffer = Buffer.alloc(Math.min(size, SNIFF_BYTES));
    await handle.read(buffer, 0, buffer.length, 0);
    start = buffer.toString('utf8');
  } finally {
    await handle.close();
  }
  const format = detectFormat(file, start);
  const stream = createReadStream(file, { highWaterMark: 1 << 16 });
  const items =
    format === 'csv' ? csvItems(stream, layout) : format === 'ndjson' ? ndjsonItems(stream) : jsonItems(stream, layout);
  return { format, size, bytesRead: () => stream.bytesRead, items };
}

/** The file's text in chunks, without a leading byte-order mark. */
async function* textOf(stream: AsyncIterable<Buffer>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  let first = true;
  for await (const chunk of stream) {
    let text = decoder.decode(chunk, { stream: true });
    if (first && text) {
      text = text.replace(/^\uFEFF/, '');
      first = false;
    }
    yield text;
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

async function* ndjsonItems(stream: AsyncIterable<Buffer>): AsyncGenerator<SourceItem> {
  let records: RawRecord[] = [];
  let line = 0;
  let rest = '';
  function* take(text: string): Generator<SourceItem> {
    line++;
    const trimmed = text.trim();
    if (!trimmed) return;
    try {
      records.push({ location: `line ${line}`, value: JSON.parse(trimmed) });
    } catch (error) {
      yield {
        kind: 'problem',
        location: `line ${line}`,
        field: '(json)',
        reason: jsonSyntaxMessage(error),
        record: true,
      };
    }
  }
  for await (const chunk of textOf(stream)) {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop()!;
    for (const text of lines) yield* take(text);
    if (records.length >= BATCH) {
      yield { kind: 'records', records };
      records = [];
    }
  }
  yield* take(rest);
  if (records.length) yield { kind: 'records', records };
}

async function* csvItems(stream: ReadStream, layout: OwnLayout): AsyncGenerator<SourceItem> {
  const problems: SourceItem[] = [];
  const parser = csvParser({
    bom: true,
    skip_empty_lines: true,
    info: true,
    trim: false,
    columns: (header: string[]) => {
      const unknown = header.filter((c) => !layout.columns.includes(c));
      if (unknown.length && layout.quoteUnknownColumns) {
        problems.push({
          kind: 'problem',
          location: 'header',
          field: unknown.join(', '),
          reason: `unknown column; expected ${layout.columns.join(',')}`,
        });
      } else if (unknown.length) {
        const which = header.flatMap((c, i) => (layout.columns.includes(c) ? [] : [String(i + 1)])).join(', ');
        problems.push({
          kind: 'problem',
          location: 'header',
          field: '(header)',
          reason: `columns ${which} are not ledger columns (is the header row missing?); expected ${layout.columns.join(',')}`,
        });
      }
      return header;
    },
  });
  stream.on('error', (error) => parser.destroy(error));
  stream.pipe(parser);
  let records: RawRecord[] = [];
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: Record<string, string>;
      info: { lines: number };
    }>) {
      yield* problems.splice(0);
      records.push({ location: `line ${info.lines}`, value: layout.csvRecord(record) });
      if (records.length >= BATCH) {
        yield { kind: 'records', records };
        records = [];
      }
    }
  } catch (error) {
    yield* problems.splice(0);
    if (records.length) yield { kind: 'records', records };
    yield { kind: 'problem', location: 'the document', field: '(csv)', reason: csvSyntaxReason(error) };
    return;
  }
  yield* problems.splice(0);
  if (records.length) yield { kind: 'records', records };
}

function csvToRecord(row: Record<string, string>): Record<string, unknown> {
  const list = csvList;
  const optional = csvOptional;
  const rating = optional(row.rating);
  const verified = (row.verified ?? '').trim().toLowerCase();
  const record: Record<string, unknown> = {
    id: optional(row.id),
    date: optional(row.date),
    // A number only when the cell is one, so "4.5" or "five" fail validation with the cell's own text.
    rating: rating !== undefined && /^\s*\d+(\.\d+)?\s*$/.test(rating) ? Number(rating) : rating,
    text: optional(row.text),
    author: optional(row.author),
    technicians: list(row.technicians),
    services: list(row.services),
    serviceArea: optional(row.serviceArea),
    source: optional(row.source),
    title: optional(row.title),
    response:
      optional(row.responseDate) || optional(row.responseText)
        ? { date: optional(row.responseDate), text: optional(row.responseText) }
        : undefined,
    verified: ['true', '1', 'yes'].includes(verified)
      ? true
      : ['false', '0', 'no', ''].includes(verified)
        ? false
        : row.verified,
  };
  for (const key of Object.keys(record)) if (record[key] === undefined) delete record[key];
  return record;
}

async function* jsonItems(stream: AsyncIterable<Buffer>, layout: OwnLayout): AsyncGenerator<SourceItem> {
  const splitter = new JsonDocumentSplitter(layout);
  for await (const chunk of textOf(stream)) {
    splitter.push(chunk);
    if (splitter.failed || splitter.pending() >= BATCH) yield* splitter.take();
    if (splitter.failed) return;
  }
  splitter.end();
  yield* splitter.take();
}

/**
 * Cuts a JSON document `{ "business": {...}, "reviews": [...] }` (or a bare array of reviews) into its business
 * and one review at a time, fed in chunks. The scanner only finds where each value ends (strings, escapes and
 * nesting); JSON.parse reads and checks each one. The first syntax error ends the reading: after it nothing can
 * be trusted.
 */
export class JsonDocumentSplitter {
  failed = false;
  private line = 1;
  private state: 'start' | 'key' | 'colon' | 'value' | 'after-member' | 'element' | 'after-element' | 'done' = 'start';
  private rootArray = false;
  /** After a comma a key or element must follow; a closing bracket may not. */
  private needsMore = false;
  private key = '';
  private readonly keys = new Set<string>();
  private index = 0;
  private items: SourceItem[] = [];
  private records: RawRecord[] = [];
  // The value being cut out: what it is, its text so far, and the scanner's state within it.
  private capturing: null | 'key' | 'member' | 'element' = null;
  private pieces: string[] = [];
  private depth = 0;
  private inString = false;
  private escaped = false;
  private scalar = false;
  private startLine = 1;

  constructor(private readonly layout: Pick<OwnLayout, 'listKey' | 'headKey' | 'expected'> = REVIEWS_LAYOUT) {}

  pending(): number {
    return this.records.length;
  }

  /** The items read so far, records gathered into one batch in their place. */
  take(): SourceItem[] {
    this.flushRecords();
    const items = this.items;
    this.items = [];
    return items;
  }

  push(chunk: string): void {
    let i = 0;
    while (i < chunk.length && !this.failed) {
      if (this.capturing) {
        i = this.capture(chunk, i);
        continue;
      }
      const c = chunk.charCodeAt(i);
      if (c === 0x0a) this.line++;
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else i = this.structural(chunk, i);
    }
  }

  end(): void {
    if (this.failed) return;
    if (this.capturing === 'element' || this.capturing === 'member') {
      // A scalar at the very end has no delimiter after it.
      if (this.scalar) this.finish();
    }
    if (this.state === 'start') this.fail('the document', 'the file is empty');
    else if (this.state !== 'done') this.fail(`line ${this.line}`, 'unexpected end of the document');
    else if (!this.rootArray && !this.keys.has(this.layout.listKey))
      this.problem('the document', this.layout.listKey, this.layout.expected);
  }

  /** Handles one character outside any value; answers where to go on. */
  private structural(chunk: string, i: number): number {
    const ch = chunk[i]!;
    switch (this.state) {
      case 'start':
        if (ch === '{') this.state = 'key';
        else if (ch === '[') {
          this.rootArray = true;
          this.state = 'element';
        } else {
          this.problem('the document', this.layout.listKey, this.layout.expected);
          this.failed = true;
        }
        return i + 1;
      case 'key':
        if (ch === '"') return this.begin('key', chunk, i);
        if (ch === '}' && !this.needsMore) this.state = 'done';
        else this.unexpected(ch);
        return i + 1;
      case 'colon':
        if (ch === ':') this.state = 'value';
        else this.unexpected(ch);
        return i + 1;
      case 'value':
        if (this.key === this.layout.listKey && ch === '[') {
          this.state = 'element';
          return i + 1;
        }
        return this.begin('member', chunk, i);
      case 'after-member':
        if (ch === ',') {
          this.state = 'key';
          this.needsMore = true;
        } else if (ch === '}') this.state = 'done';
        else this.unexpected(ch);
        return i + 1;
      case 'element':
        if (ch === ']' && !this.needsMore) {
          this.closeArray();
          return i + 1;
        }
        return this.begin('element', chunk, i);
      case 'after-element':
        if (ch === ',') {
          this.state = 'element';
          this.needsMore = true;
        } else if (ch === ']') this.closeArray();
        else this.unexpected(ch);
        return i + 1;
      case 'done':
        this.fail(`line ${this.line}`, `unexpected ${JSON.stringify(ch)} after the end of the document`);
        return i + 1;
    }
  }

  private closeArray(): void {
    this.needsMore = false;
    this.state = this.rootArray ? 'done' : 'after-member';
  }

  private begin(what: 'key' | 'member' | 'element', chunk: string, i: number): number {
    const c = chunk.charCodeAt(i);
    const opens = c === 0x7b || c === 0x5b || c === 0x22;
    if (!opens && !/[-0-9tfn]/.test(chunk[i]!)) {
      this.unexpected(chunk[i]!);
      return i + 1;
    }
    this.capturing = what;
    this.needsMore = false;
    this.pieces = [];
    this.depth = 0;
    this.inString = false;
    this.escaped = false;
    this.scalar = !opens;
    this.startLine = this.line;
    return this.capture(chunk, i);
  }

  /** Scans the value being cut out from `from`; answers where its text ends in `chunk`, or the chunk's end. */
  private capture(chunk: string, from: number): number {
    let i = from;
    if (this.scalar) {
      while (i < chunk.length && !/[,\]}\s]/.test(chunk[i]!)) i++;
      this.pieces.push(chunk.slice(from, i));
      if (i < chunk.length) this.finish(); // the delimiter is the structure's to read
      return i;
    }
    let complete = false;
    for (; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (c === 0x0a) this.line++;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 0x5c) this.escaped = true;
        else if (c === 0x22) {
          this.inString = false;
          if (this.depth === 0) complete = true;
        }
      } else if (c === 0x22) this.inString = true;
      else if (c === 0x7b || c === 0x5b) this.depth++;
      else if ((c === 0x7d || c === 0x5d) && --this.depth === 0) complete = true;
      if (complete) {
        i++;
        break;
      }
    }
    this.pieces.push(chunk.slice(from, i));
    if (complete) this.finish();
    return i;
  }

  private finish(): void {
    const what = this.capturing!;
    const text = this.pieces.length === 1 ? this.pieces[0]! : this.pieces.join('');
    this.capturing = null;
    this.pieces = [];
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      const position = /position (\d+)/.exec(messageOf(error));
      const line = this.startLine + (position ? text.slice(0, Number(position[1])).split('\n').length - 1 : 0);
      this.fail(`line ${line}`, jsonSyntaxMessage(error));
      return;
    }
    if (what === 'key') {
      this.key = value as string;
      this.state = 'colon';
      if (this.keys.has(this.key)) this.problem('the document', this.key, 'given twice');
      this.keys.add(this.key);
    } else if (what === 'element') {
      this.records.push({ location: `${this.layout.listKey}[${this.index++}]`, value });
      this.state = 'after-element';
    } else {
      this.state = 'after-member';
      if (this.key === this.layout.headKey) {
        this.flushRecords();
        this.items.push({ kind: 'business', value });
      } else if (this.key === this.layout.listKey) this.problem('the document', this.key, this.layout.expected);
      else this.problem('the document', this.key, 'unknown field');
    }
  }

  private unexpected(ch: string): void {
    this.fail(`line ${this.line}`, `unexpected ${JSON.stringify(ch)}`);
  }

  private fail(location: string, reason: string): void {
    this.problem(location, '(json)', reason);
    this.failed = true;
  }

  private problem(location: string, field: string, reason: string): void {
    this.flushRecords();
    this.items.push({ kind: 'problem', location, field, reason });
  }

  private flushRecords(): void {
    if (!this.records.length) return;
    this.items.push({ kind: 'records', records: this.records });
    this.records = [];
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
