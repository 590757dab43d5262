// Reads a platform's JSON answer (a page of reviews, an array of pages, one review object) whole: API pages are a
// few dozen reviews each, so a file of them is small next to an export of the service's own format.
import { readFile, stat } from 'node:fs/promises';
import type { ImportSource, RawRecord, SourceItem } from './own-source.js';
import { jsonSyntaxReason } from './syntax.js';

/** Records handed on at once. */
const BATCH = 1000;

/** The records a document holds, each with its place (`reviews[3]`, `[1].reviews[3]`), or what was expected instead. */
export type RecordsOf = (document: unknown) => { records: RawRecord[] } | { expected: string };

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The records of a page-or-review document: a page is an object with a `listKey` array, a review an object
 * `isReview` recognises, and a file may hold one of either or an array of them.
 */
export function pagesOrReviews(
  listKey: string,
  isReview: (value: Record<string, unknown>) => boolean,
  expected: string,
  isEmptyPage?: (value: Record<string, unknown>) => boolean,
): RecordsOf {
  const one = (value: unknown, at: string): RawRecord[] | undefined => {
    if (!isObject(value)) return undefined;
    const list = value[listKey];
    if (Array.isArray(list)) return list.map((item, i) => ({ location: `${at}${listKey}[${i}]`, value: item }));
    if (isReview(value)) return [{ location: at ? at.slice(0, -1) : 'the document', value }];
    if (isEmptyPage?.(value)) return [];
    return undefined;
  };
  return (document) => {
    const items = Array.isArray(document) ? document : [document];
    const records: RawRecord[] = [];
    for (let i = 0; i < items.length; i++) {
      const found = one(items[i], Array.isArray(document) ? `[${i}].` : '');
      if (!found) return { expected };
      for (const record of found) records.push(record);
    }
    return { records };
  };
}

/** Opens a platform's file; `format` names the platform in messages and summaries. */
export async function openPlatformFile(file: string, format: string, recordsOf: RecordsOf): Promise<ImportSource> {
  const { size } = await stat(file);
  let read = 0;
  async function* items(): AsyncGenerator<SourceItem> {
    const text = (await readFile(file, 'utf8')).replace(/^\uFEFF/, '');
    read = size;
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch (error) {
      yield { kind: 'problem', location: 'the document', field: '(json)', reason: jsonSyntaxReason(error, text) };
      return;
    }
    const found = recordsOf(document);
    if ('expected' in found) {
      yield {
        kind: 'problem',
        location: 'the document',
        field: '(document)',
        reason: `not a ${format} file: expected ${found.expected}`,
      };
      return;
    }
    for (let i = 0; i < found.records.length; i += BATCH)
      yield { kind: 'records', records: found.records.slice(i, i + BATCH) };
  }
  return { format, size, bytesRead: () => read, items: items() };
}
