// Housecall Pro's job objects as its public API answers them (`GET /jobs`: `{ "jobs": [...], "page", "page_size",
// "total_pages", "total_items" }`), an array of such pages, a bare array of jobs or one job. A job counts once its work
// is complete; its city is the area, its street is never read. Wire format: test/fixtures/jobs/README.md.
import { z } from 'zod';
import type { JobAdapter, JobRecord, MappedJob } from './job-adapter.js';
import {
  aliasesOf,
  areaOf,
  batches,
  Completion,
  completedJob,
  customerName,
  distinct,
  documentProblem,
  Id,
  joinName,
  parseJobRecord,
  readJsonFiles,
  recordsOf,
  serviceCandidates,
  text,
} from './job-file.js';

const Employee = z.object({ first_name: text(100), last_name: text(100) });
const LineItem = z.object({ name: text(500) });

const HousecallProJob = z.object({
  id: Id,
  invoice_number: z
    .union([z.string().max(60), z.number()])
    .nullable()
    .optional(),
  description: text(20000),
  customer: z
    .object({
      first_name: text(100),
      last_name: text(100),
      company: text(200),
      email: text(320),
      mobile_number: text(40),
      home_number: text(40),
      work_number: text(40),
    })
    .nullable()
    .optional(),
  work_status: text(60),
  work_timestamps: z.object({ completed_at: Completion.nullable().optional() }).nullable().optional(),
  assigned_employees: z.array(Employee).max(200).nullable().optional(),
  address: z
    .object({ city: text(100) })
    .nullable()
    .optional(),
  /** Not in the list answer; a job read with its line items (`GET /jobs/{id}/line_items` merged in) may carry them. */
  line_items: z
    .union([z.array(LineItem).max(500), z.object({ data: z.array(LineItem).max(500) })])
    .nullable()
    .optional(),
});
type HousecallProJob = z.infer<typeof HousecallProJob>;

/** `work_status` as Housecall Pro writes it ("complete rated"), also in the underscored spelling some tools use. */
const statusOf = (status: string | null | undefined): string => (status ?? '').trim().toLowerCase().replace(/_/g, ' ');
const COMPLETE = new Set([
  'complete rated',
  'complete unrated',
  'complete',
  'completed',
  'completed rated',
  'completed unrated',
]);

export function mapHousecallProJob(value: unknown): MappedJob {
  const parsed = parseJobRecord(HousecallProJob, value);
  if (!parsed.ok) return parsed.mapped;
  const r = parsed.record;
  const status = statusOf(r.work_status);
  return completedJob(
    {
      id: r.id,
      statusField: 'work_status',
      status,
      timeField: 'work_timestamps.completed_at',
      completed: r.work_timestamps?.completed_at,
      notCompleted: status.includes('cancel'),
      noTime: COMPLETE.has(status) ? `a "${status}" job needs the time its work was completed` : undefined,
    },
    (completed) => ({ kind: 'job', job: ledgerJob(r, completed) }),
  );
}

function ledgerJob(r: HousecallProJob, completed: string) {
  const c = r.customer;
  const lineItems = Array.isArray(r.line_items) ? r.line_items : (r.line_items?.data ?? []);
  const name = customerName(null, c?.first_name, c?.last_name);
  return {
    id: r.id,
    aliases: aliasesOf(r.id, r.invoice_number),
    completed,
    // A business customer may carry only its company's name.
    customer: Object.keys(name).length ? name : customerName(c?.company),
    emails: distinct([c?.email]),
    phones: distinct([c?.mobile_number, c?.home_number, c?.work_number]),
    technicians: distinct((r.assigned_employees ?? []).map((e) => joinName(e.first_name, e.last_name))),
    services: serviceCandidates([r.description, ...lineItems.map((item) => item.name)]),
    ...areaOf(r.address?.city),
  };
}

const isJob = (value: Record<string, unknown>) => 'work_status' in value || 'work_timestamps' in value;
const EXPECTED =
  'not a Housecall Pro jobs answer: expected { "jobs": [...], "page", "total_pages", ... }, an array of such pages, an array of jobs, or a job object ({ "id", "work_status", "work_timestamps", "customer", ... })';

export const housecallpro: JobAdapter = {
  name: 'housecallpro',
  async *read(files, progress) {
    for await (const read of readJsonFiles(files, progress)) {
      if (!read.ok) {
        yield read.problem;
        continue;
      }
      const found = recordsOf(read.document, [{ path: ['jobs'] }], isJob);
      if (!found) {
        yield documentProblem(read.file, '(document)', EXPECTED);
        continue;
      }
      const records: JobRecord[] = found.map(({ location, value }) => ({
        file: read.file,
        location,
        mapped: mapHousecallProJob(value),
      }));
      yield* batches(records);
    }
  },
};
