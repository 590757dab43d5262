// Reads an import file (JSON document, NDJSON or CSV) and validates every record, naming each problem's place.
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import type { z } from 'zod';
import { Business, ImportedReview } from './schemas.js';

export type ImportFormat = 'json' | 'ndjson' | 'csv';

export interface ImportIssue {
  file: string;
  /** Where in the file: "line 12" (NDJSON, CSV), "reviews[3]" (JSON document), "business", "header" or "the document". */
  location: string;
  field: string;
  reason: string;
}

export interface ParsedImport {
  format: ImportFormat;
  business?: Business;
  /** The records that passed validation. */
  reviews: ImportedReview[];
  /** How many records the file holds, valid or not. */
  recordCount: number;
  /** Records (by location) that failed, and every reason they failed. */
  issues: ImportIssue[];
  /** Ids of records that failed but whose id could be read: `--replace` must not delete them. */
  rejectedIds: string[];
}

export interface ReadOptions {
  /** The stored business, whose service catalogue applies when the file brings none. */
  storedBusiness: Business | null;
  onProgress?: (done: number, total: number) => void;
}

interface RawRecord {
  location: string;
  value: unknown;
}

/** CSV columns; list columns are `;`-separated, the owner response is split into two columns. */
export const CSV_COLUMNS = [
  'id', 'date', 'rating', 'text', 'author', 'technicians', 'services', 'serviceArea', 'source', 'title',
  'responseDate', 'responseText', 'verified',
] as const;

export function detectFormat(path: string, content: string): ImportFormat {
  const ext = extname(path).toLowerCase();
  if (ext === '.json') return 'json';
  if (ext === '.ndjson' || ext === '.jsonl') return 'ndjson';
  if (ext === '.csv') return 'csv';
  const start = content.trimStart();
  if (start.startsWith('[')) return 'json';
  if (start.startsWith('{')) {
    const firstLine = start.split('\n', 1)[0] ?? '';
    try {
      JSON.parse(firstLine);
      return 'ndjson';
    } catch {
      return 'json';
    }
  }
  return 'csv';
}

function lineOfPosition(content: string, message: string): string {
  const position = /position (\d+)/.exec(message);
  if (!position) return 'the document';
  const offset = Number(position[1]);
  return `line ${content.slice(0, offset).split('\n').length}`;
}

function zodIssues(file: string, location: string, error: z.ZodError): ImportIssue[] {
  return error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      const prefix = issue.path.length ? `${issue.path.join('.')}.` : '';
      return { file, location, field: issue.keys.map((k) => prefix + k).join(', '), reason: 'unknown field' };
    }
    return { file, location, field: issue.path.join('.') || '(record)', reason: issue.message };
  });
}

function csvRecords(file: string, content: string, issues: ImportIssue[]): RawRecord[] {
  let rows: { record: Record<string, string>; info: { lines: number } }[];
  try {
    rows = parseCsv(content, { columns: true, bom: true, skip_empty_lines: true, info: true, trim: false });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    issues.push({ file, location: 'the document', field: '(csv)', reason: message });
    return [];
  }
  const header = Object.keys(rows[0]?.record ?? {});
  const unknown = header.filter((c) => !(CSV_COLUMNS as readonly string[]).includes(c));
  if (unknown.length) {
    issues.push({ file, location: 'header', field: unknown.join(', '), reason: `unknown column; expected ${CSV_COLUMNS.join(',')}` });
  }
  return rows.map(({ record, info }) => ({ location: `line ${info.lines}`, value: csvToRecord(record) }));
}

function csvToRecord(row: Record<string, string>): Record<string, unknown> {
  const list = (v: string | undefined) => (v ?? '').split(';').map((s) => s.trim()).filter(Boolean);
  const optional = (v: string | undefined) => (v === undefined || v.trim() === '' ? undefined : v);
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
    verified: ['true', '1', 'yes'].includes(verified) ? true : ['false', '0', 'no', ''].includes(verified) ? false : row.verified,
  };
  for (const key of Object.keys(record)) if (record[key] === undefined) delete record[key];
  return record;
}

function jsonRecords(file: string, content: string, issues: ImportIssue[]): { business?: unknown; records: RawRecord[] } {
  let document: unknown;
  try {
    document = JSON.parse(content);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    issues.push({ file, location: lineOfPosition(content, message), field: '(json)', reason: message });
    return { records: [] };
  }
  const asRecords = (list: unknown[], prefix: string) => list.map((value, i) => ({ location: `${prefix}[${i}]`, value }));
  if (Array.isArray(document)) return { records: asRecords(document, 'reviews') };
  if (typeof document !== 'object' || document === null || !Array.isArray((document as { reviews?: unknown }).reviews)) {
    issues.push({ file, location: 'the document', field: 'reviews', reason: 'expected an object { "business"?: {...}, "reviews": [...] } or an array of reviews' });
    return { records: [] };
  }
  const { business, reviews, ...rest } = document as { business?: unknown; reviews: unknown[] };
  for (const key of Object.keys(rest)) issues.push({ file, location: 'the document', field: key, reason: 'unknown field' });
  return { business, records: asRecords(reviews, 'reviews') };
}

function ndjsonRecords(file: string, content: string, issues: ImportIssue[]): RawRecord[] {
  const records: RawRecord[] = [];
  const lines = content.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line) continue;
    try {
      records.push({ location: `line ${i + 1}`, value: JSON.parse(line) });
    } catch (error) {
      issues.push({ file, location: `line ${i + 1}`, field: '(json)', reason: error instanceof Error ? error.message : String(error) });
    }
  }
  return records;
}

export async function readImportFile(file: string, options: ReadOptions): Promise<ParsedImport> {
  const content = (await readFile(file, 'utf8')).replace(/^\uFEFF/, '');
  return parseImport(file, content, options);
}

export function parseImport(file: string, content: string, options: ReadOptions): ParsedImport {
  const format = detectFormat(file, content);
  const issues: ImportIssue[] = [];
  let rawBusiness: unknown;
  let records: RawRecord[];
  if (format === 'json') ({ business: rawBusiness, records } = jsonRecords(file, content, issues));
  else if (format === 'ndjson') records = ndjsonRecords(file, content, issues);
  else records = csvRecords(file, content, issues);

  let business: Business | undefined;
  if (rawBusiness !== undefined) {
    const parsed = Business.safeParse(rawBusiness);
    if (parsed.success) business = parsed.data;
    else issues.push(...zodIssues(file, 'business', parsed.error).map((i) => ({ ...i, field: `business.${i.field}` })));
  }
  const catalogue = business ?? options.storedBusiness;
  const serviceIds = catalogue && catalogue.services.length ? new Set(catalogue.services.map((s) => s.id)) : null;

  const reviews: ImportedReview[] = [];
  const rejectedIds: string[] = [];
  const firstSeen = new Map<string, string>();
  records.forEach(({ location, value }, index) => {
    const recordIssues: ImportIssue[] = [];
    const parsed = ImportedReview.safeParse(value);
    if (!parsed.success) recordIssues.push(...zodIssues(file, location, parsed.error));
    else {
      const review = parsed.data;
      const seen = firstSeen.get(review.id);
      if (seen) recordIssues.push({ file, location, field: 'id', reason: `duplicate id "${review.id}", first at ${seen}` });
      else firstSeen.set(review.id, location);
      review.services.forEach((id, i) => {
        if (serviceIds && !serviceIds.has(id)) {
          recordIssues.push({ file, location, field: `services.${i}`, reason: `unknown service id "${id}" (not in the business's catalogue)` });
        }
      });
      if (review.response && review.response.date < review.date) {
        recordIssues.push({ file, location, field: 'response.date', reason: 'owner response is dated before the review' });
      }
      if (!recordIssues.length) reviews.push(review);
    }
    if (recordIssues.length) {
      issues.push(...recordIssues);
      const id = (value as { id?: unknown } | null)?.id;
      if (typeof id === 'string') rejectedIds.push(id);
    }
    if ((index + 1) % 10000 === 0 && index + 1 < records.length) options.onProgress?.(index + 1, records.length);
  });
  options.onProgress?.(records.length, records.length);

  // NDJSON lines that are not JSON at all are records too: they count among the invalid ones.
  const unreadable = format === 'ndjson' ? issues.filter((i) => i.field === '(json)').length : 0;
  const result: ParsedImport = { format, reviews, recordCount: records.length + unreadable, issues, rejectedIds };
  if (business) result.business = business;
  return result;
}
