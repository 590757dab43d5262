// What the field-service adapters share: reading their JSON answers whole, finding the job records in a page or a
// list of pages, the completion check their mappings open with, and the field types and name helpers their record
// schemas are made of.
import { readFile, stat } from 'node:fs/promises';
import { z } from 'zod';
import { isCalendarDate, parseInstant } from '../../reviews/dates.js';
import { fieldProblems } from '../adapter.js';
import { isObject } from '../platform-file.js';
import type { JobItem, JobRecord, MappedJob } from './job-adapter.js';
import { jsonSyntaxReason } from '../syntax.js';

/** Records handed on at once. */
export const BATCH = 1000;

/** A record as found in a document, with its place (`jobs[3]`, `[1].data.jobs.nodes[2]`). */
export interface FoundRecord {
  location: string;
  value: unknown;
}

/** One file read: its document, or the problem that stopped it (bad JSON). */
export type ReadFile = { file: string; ok: true; document: unknown } | { file: string; ok: false; problem: JobItem };

/**
 * Reads each file whole as JSON (a system's API answers are pages of a few hundred records), reporting progress over
 * all of them. A file that is not JSON is a problem naming the file, and the rest are still read.
 */
export async function* readJsonFiles(
  files: string[],
  progress?: (bytesRead: number, size: number) => void,
): AsyncGenerator<ReadFile> {
  const sizes = await Promise.all(files.map(async (file) => (await stat(file)).size));
  const total = sizes.reduce((sum, size) => sum + size, 0);
  let read = 0;
  for (let i = 0; i < files.length; i++) {
    const file = files[i]!;
    const text = (await readFile(file, 'utf8')).replace(/^\uFEFF/, '');
    read += sizes[i]!;
    progress?.(read, total);
    try {
      yield { file, ok: true, document: JSON.parse(text) as unknown };
    } catch (error) {
      yield { file, ok: false, problem: documentProblem(file, '(json)', jsonSyntaxReason(error, text)) };
    }
  }
}

/** A problem with a file as a whole. */
export function documentProblem(file: string, field: string, reason: string): JobItem {
  return { kind: 'problem', file, location: 'the document', field, reason };
}

/** Where a page keeps its list of records (`data.jobs.nodes`), and, for GraphQL edges, the key of each edge's record. */
export interface ListShape {
  path: string[];
  node?: string;
}

/**
 * The records of a document that is a page (an object with a list where a shape says), a record (`isRecord`), or an
 * array of either; undefined when it is none of them.
 */
export function recordsOf(
  document: unknown,
  shapes: ListShape[],
  isRecord: (value: Record<string, unknown>) => boolean,
): FoundRecord[] | undefined {
  if (!Array.isArray(document)) return recordsOfOne(document, '', shapes, isRecord);
  const records: FoundRecord[] = [];
  for (let i = 0; i < document.length; i++) {
    const found = recordsOfOne(document[i], `[${i}]`, shapes, isRecord);
    if (!found) return undefined;
    for (const record of found) records.push(record);
  }
  return records;
}

function recordsOfOne(
  value: unknown,
  at: string,
  shapes: ListShape[],
  isRecord: (value: Record<string, unknown>) => boolean,
): FoundRecord[] | undefined {
  if (!isObject(value)) return undefined;
  for (const shape of shapes) {
    const list = listAt(value, shape.path);
    if (!list) continue;
    const base = `${at ? `${at}.` : ''}${shape.path.join('.')}`;
    return list.map((item, i) =>
      shape.node
        ? { location: `${base}[${i}].${shape.node}`, value: isObject(item) ? item[shape.node] : undefined }
        : { location: `${base}[${i}]`, value: item },
    );
  }
  return isRecord(value) ? [{ location: at || 'the document', value }] : undefined;
}

function listAt(value: Record<string, unknown>, path: string[]): unknown[] | undefined {
  let here: unknown = value;
  for (const key of path) {
    if (!isObject(here)) return undefined;
    here = here[key];
  }
  return Array.isArray(here) ? here : undefined;
}

/** A record read by its system's schema, or the `invalid` answer that names what is wrong with it. */
export function parseJobRecord<T>(
  schema: z.ZodType<T>,
  value: unknown,
  what = 'a job',
): { ok: true; record: T } | { ok: false; mapped: MappedJob } {
  if (!isObject(value)) return { ok: false, mapped: invalid('(record)', `${what} is an object`) };
  const parsed = schema.safeParse(value);
  return parsed.success
    ? { ok: true, record: parsed.data }
    : { ok: false, mapped: { kind: 'invalid', problems: fieldProblems(parsed.error) } };
}

export const invalid = (field: string, reason: string): MappedJob => ({
  kind: 'invalid',
  problems: [{ field, reason }],
});

/** What a system's record says of its job's completion, in the system's own field names. */
export interface CompletionCheck {
  /** The job's id, for a skipped job to be taken out of the ledger. */
  id: string;
  statusField: string;
  status: string;
  timeField: string;
  completed: string | null | undefined;
  /** The status says the job did not complete (cancelled, not yet done): it is skipped whatever its time. */
  notCompleted?: boolean;
  /** Why a job without a time is invalid, where its status says it completed; without a reason it is skipped. */
  noTime?: string;
}

/**
 * The opening every system's mapping shares: a job its status or its missing time says is not completed is skipped,
 * one said completed but without a time is invalid, and the rest are mapped from their completion time.
 */
export function completedJob(check: CompletionCheck, map: (completed: string) => MappedJob): MappedJob {
  if (check.notCompleted)
    return { kind: 'skip', reason: `${check.statusField} "${check.status}": not a completed job`, id: check.id };
  if (!check.completed) {
    if (check.noTime !== undefined) return invalid(check.timeField, check.noTime);
    return {
      kind: 'skip',
      reason: `${check.statusField} "${check.status || '(none)'}" and no ${check.timeField}: not a completed job`,
      id: check.id,
    };
  }
  return map(check.completed);
}

/** The records of one file, in batches. */
export function* batches(records: JobRecord[]): Generator<JobItem> {
  for (let i = 0; i < records.length; i += BATCH) yield { kind: 'records', records: records.slice(i, i + BATCH) };
}

/** An id as the systems write them, a string or a whole number, as text. */
export const Id = z.union([z.string().trim().min(1).max(200), z.number().int().nonnegative()]).transform(String);

/** A text field of at most `max` characters, absent or null when not given. */
export const text = (max: number) => z.string().max(max).nullable().optional();

/** When a job was completed: an RFC 3339 time (no zone is UTC), read to the millisecond, or a calendar date. */
export const Completion = z
  .string()
  .max(64)
  .transform((value, ctx) => {
    const day = value.trim();
    const at = parseInstant(day) ?? (/^\d{4}-\d{2}-\d{2}$/.test(day) && isCalendarDate(day) ? day : undefined);
    if (at === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: 'not an RFC 3339 time (e.g. 2025-06-01T17:04:05Z) or a date (2025-06-01)',
      });
      return z.NEVER;
    }
    return at;
  });

/** The longest text handed on as a service name: longer text (a job's notes) cannot be one of the catalogue's names. */
const SERVICE_NAME_MAX = 120;

/** Words joined by single spaces, each trimmed; empty parts left out. */
export const joinName = (...parts: (string | null | undefined)[]): string =>
  parts
    .map((part) => (part ?? '').trim())
    .filter(Boolean)
    .join(' ');

/** The values trimmed, empty ones left out, each kept once (case- and accent-insensitively), in their order. */
export function distinct(values: (string | null | undefined)[]): string[] {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const value of values) {
    const trimmed = (value ?? '').trim().replace(/\s+/g, ' ');
    const key = trimmed.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    if (!trimmed || seen.has(key)) continue;
    seen.add(key);
    kept.push(trimmed);
  }
  return kept;
}

/** Names that may be services, for the ledger to keep those its catalogue knows: short ones only. */
export const serviceCandidates = (values: (string | null | undefined)[]): string[] =>
  distinct(values).filter((name) => name.length <= SERVICE_NAME_MAX);

/** The customer's name parts that are given. */
export function customerName(
  name?: string | null,
  firstName?: string | null,
  lastName?: string | null,
): { name?: string; firstName?: string; lastName?: string } {
  const full = (name ?? '').trim();
  const first = (firstName ?? '').trim();
  const last = (lastName ?? '').trim();
  return {
    ...(full ? { name: full } : {}),
    ...(first ? { firstName: first } : {}),
    ...(last ? { lastName: last } : {}),
  };
}

/** The other numbers of a job, without its id. */
export const aliasesOf = (id: string, ...numbers: (string | number | null | undefined)[]): string[] =>
  distinct(numbers.map((n) => (n === null || n === undefined ? undefined : String(n)))).filter((n) => n !== id);

/** A city as the area, trimmed; none when empty. */
export const areaOf = (city: string | null | undefined): { area?: string } => {
  const trimmed = (city ?? '').trim();
  return trimmed ? { area: trimmed } : {};
};
