// What a source adapter is: it reads a file into raw records and maps each one to a normalised review. A new
// platform is one adapter file (and its tests): the pipeline does the rest the same way for every source.
import type { z } from 'zod';
import type { CompleteScope, StagedReview } from '../store/types.js';
import type { ImportSource } from './own-source.js';

/** A normalised review before the pipeline fills its language (detected when the platform gives none). */
export type MappedReview = Omit<StagedReview, 'language'> & { language?: string };

/** A problem with one field of one record, named by the source's own field names. */
export interface FieldProblem {
  field: string;
  reason: string;
}

export type Mapped =
  | { kind: 'review'; review: MappedReview }
  /** Not a review the service can publish, by the source's own terms (a recommendation without stars): left out, reported. */
  | { kind: 'skip'; reason: string }
  | { kind: 'invalid'; problems: FieldProblem[] };

export interface MapContext {
  /** The business's IANA time zone: dates are its local dates (UTC without one). */
  timeZone?: string;
  /** The operator vouches for every review of the files (`--verified`). */
  verified: boolean;
}

export interface Adapter {
  /** The `--from` name, and the feed recorded on each review. */
  readonly name: string;
  /** The reviews a `--complete` import of this source holds all of. */
  readonly complete?: CompleteScope;
  /** Reads one file: its records (and, for the service's own format, its business) as they come. */
  open(file: string): Promise<ImportSource>;
  map(value: unknown, context: MapContext): Mapped;
}

/** A source that is refused whatever the file holds, with the reason. */
export interface Refusal {
  readonly name: string;
  readonly refused: string;
}

/** A record read by its platform's schema, or the `invalid` answer that names what is wrong with it. */
export function parseRecord<T>(
  schema: z.ZodType<T>,
  value: unknown,
): { ok: true; record: T } | { ok: false; mapped: Mapped } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      ok: false,
      mapped: { kind: 'invalid', problems: [{ field: '(record)', reason: 'a review is an object' }] },
    };
  }
  const parsed = schema.safeParse(value);
  return parsed.success
    ? { ok: true, record: parsed.data }
    : { ok: false, mapped: { kind: 'invalid', problems: fieldProblems(parsed.error) } };
}

/** Zod's problems as field problems, named by the path in the source's record. */
export function fieldProblems(error: z.ZodError): FieldProblem[] {
  return error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      const prefix = issue.path.length ? `${issue.path.join('.')}.` : '';
      return { field: issue.keys.map((k) => prefix + k).join(', '), reason: 'unknown field' };
    }
    return { field: issue.path.join('.') || '(record)', reason: issue.message };
  });
}
