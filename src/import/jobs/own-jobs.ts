// The service's own ledger format: CSV with the header `id,completed,customer,email,phone,technicians,services,area`
// (list columns `;`-separated), or NDJSON, or a JSON document `{ "jobs": [...] }` or array, with the same field
// names. Read as the reviews format is, in bounded memory.
import { z } from 'zod';
import { fieldProblems } from '../adapter.js';
import { csvList, csvOptional, openImportSource, type OwnLayout } from '../own-source.js';
import type { JobAdapter, JobItem, MappedJob } from './job-adapter.js';

export const JOB_COLUMNS = [
  'id',
  'completed',
  'customer',
  'email',
  'phone',
  'technicians',
  'services',
  'area',
] as const;

const JOBS_LAYOUT: OwnLayout = {
  listKey: 'jobs',
  expected: 'expected an object { "jobs": [...] } or an array of jobs',
  columns: JOB_COLUMNS,
  csvRecord: (row) => {
    const record: Record<string, unknown> = {
      id: csvOptional(row.id),
      completed: csvOptional(row.completed),
      customer: csvOptional(row.customer),
      email: csvList(row.email),
      phone: csvList(row.phone),
      technicians: csvList(row.technicians),
      services: csvList(row.services),
      area: csvOptional(row.area),
    };
    for (const key of Object.keys(record)) if (record[key] === undefined) delete record[key];
    return record;
  },
};

const oneOrMany = z
  .union([
    z
      .string()
      .max(200)
      .transform((v) => (v.trim() ? [v] : [])),
    z.array(z.string().max(200)).max(20),
  ])
  .default([]);

const OwnJob = z
  .object({
    id: z.union([z.string().min(1).max(200), z.number().int().transform(String)]),
    completed: z.string().min(1).max(40).describe('a date (YYYY-MM-DD) or an RFC 3339 time'),
    customer: z.string().min(1).max(200),
    email: oneOrMany,
    phone: oneOrMany,
    technicians: z.array(z.string().min(1).max(200)).max(20).default([]),
    services: z.array(z.string().min(1).max(200)).max(20).default([]),
    area: z.string().min(1).max(200).optional(),
  })
  .strict();

function mapOwn(value: unknown): MappedJob {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { kind: 'invalid', problems: [{ field: '(record)', reason: 'a job is an object' }] };
  const parsed = OwnJob.safeParse(value);
  // An unknown field is named by count, not quoted: a record keyed by a customer's email would print it.
  if (!parsed.success)
    return {
      kind: 'invalid',
      problems: fieldProblems(parsed.error).map((p) =>
        p.reason === 'unknown field'
          ? {
              field: '(record)',
              reason: `${p.field.split(', ').length} unknown field(s); expected ${JOB_COLUMNS.join(', ')}`,
            }
          : p,
      ),
    };
  const job = parsed.data;
  return {
    kind: 'job',
    job: {
      id: job.id,
      aliases: [],
      completed: job.completed,
      customer: { name: job.customer },
      emails: job.email,
      phones: job.phone,
      technicians: job.technicians,
      services: job.services,
      ...(job.area ? { area: job.area } : {}),
    },
  };
}

export const ownJobs: JobAdapter = {
  name: 'own',
  async *read(files, progress): AsyncGenerator<JobItem> {
    for (const file of files) {
      const source = await openImportSource(file, JOBS_LAYOUT);
      for await (const item of source.items) {
        if (item.kind === 'records')
          yield {
            kind: 'records',
            records: item.records.map(({ location, value }) => ({ file, location, mapped: mapOwn(value) })),
          };
        else if (item.kind === 'problem') {
          if (item.record)
            yield {
              kind: 'records',
              records: [
                {
                  file,
                  location: item.location,
                  mapped: { kind: 'invalid', problems: [{ field: item.field, reason: item.reason }] },
                },
              ],
            };
          else yield { kind: 'problem', file, location: item.location, field: item.field, reason: item.reason };
        }
        progress?.(source.bytesRead(), source.size);
      }
    }
  },
};
