// Jobber's GraphQL answers to a `jobs` query (`{ "data": { "jobs": { "nodes": [...], "pageInfo" } } }`, in nodes or
// edges form, with or without the `data` envelope), arrays of them, or a bare array of job nodes. A job counts once it
// has a `completedAt`; technicians are the users assigned to its visits. Wire format: test/fixtures/jobs/README.md.
import { z } from 'zod';
import { isObject } from '../platform-file.js';
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

/** A GraphQL connection as a query may select it: `nodes`, `edges { node }`, or (hand-made files) a plain array. */
const connection = <T extends z.ZodType>(item: T) =>
  z.union([
    z.array(item).max(500),
    z.object({
      nodes: z.array(item).max(500).nullable().optional(),
      edges: z
        .array(z.object({ node: item }))
        .max(500)
        .nullable()
        .optional(),
    }),
  ]);

function itemsOf<T>(value: T[] | { nodes?: T[] | null; edges?: { node: T }[] | null } | null | undefined): T[] {
  if (!value) return [];
  if (Array.isArray(value)) return value;
  return [...(value.nodes ?? []), ...(value.edges ?? []).map((edge) => edge.node)];
}

const User = z.object({
  name: z
    .union([z.object({ full: text(200), first: text(100), last: text(100) }), z.string().max(200)])
    .nullable()
    .optional(),
});
const Visit = z.object({ assignedUsers: connection(User).nullable().optional() });

const JobberJob = z.object({
  id: Id,
  jobNumber: z
    .union([z.number().int(), z.string().max(60)])
    .nullable()
    .optional(),
  title: text(500),
  jobStatus: text(60),
  completedAt: Completion.nullable().optional(),
  client: z
    .object({
      name: text(200),
      firstName: text(100),
      lastName: text(100),
      companyName: text(200),
      emails: z
        .array(z.object({ address: text(320) }))
        .max(50)
        .nullable()
        .optional(),
      phones: z
        .array(z.object({ number: text(40) }))
        .max(50)
        .nullable()
        .optional(),
    })
    .nullable()
    .optional(),
  property: z
    .object({
      address: z
        .object({ city: text(100) })
        .nullable()
        .optional(),
    })
    .nullable()
    .optional(),
  visits: connection(Visit).nullable().optional(),
});
type JobberJob = z.infer<typeof JobberJob>;
type JobberUser = z.infer<typeof User>;

const userName = (user: JobberUser): string => {
  const name = user.name;
  if (typeof name === 'string' || !name) return (name ?? '').trim();
  return (name.full ?? '').trim() || joinName(name.first, name.last);
};

export function mapJobberJob(value: unknown): MappedJob {
  const parsed = parseJobRecord(JobberJob, value);
  if (!parsed.ok) return parsed.mapped;
  const r = parsed.record;
  return completedJob(
    {
      id: r.id,
      statusField: 'jobStatus',
      status: (r.jobStatus ?? '').trim(),
      timeField: 'completedAt',
      completed: r.completedAt,
    },
    (completed) => ({ kind: 'job', job: ledgerJob(r, completed) }),
  );
}

function ledgerJob(r: JobberJob, completed: string) {
  const c = r.client;
  const users = itemsOf(r.visits).flatMap((visit) => itemsOf(visit.assignedUsers));
  return {
    id: r.id,
    aliases: aliasesOf(r.id, r.jobNumber),
    completed,
    customer: customerName(c?.name ?? c?.companyName, c?.firstName, c?.lastName),
    emails: distinct((c?.emails ?? []).map((e) => e.address)),
    phones: distinct((c?.phones ?? []).map((p) => p.number)),
    technicians: distinct(users.map(userName)),
    services: serviceCandidates([r.title]),
    ...areaOf(r.property?.address?.city),
  };
}

const SHAPES = [
  { path: ['data', 'jobs', 'nodes'] },
  { path: ['data', 'jobs', 'edges'], node: 'node' },
  { path: ['jobs', 'nodes'] },
  { path: ['jobs', 'edges'], node: 'node' },
];
const isJob = (value: Record<string, unknown>) =>
  'jobNumber' in value || 'jobStatus' in value || ('completedAt' in value && 'client' in value);
const EXPECTED =
  'not a Jobber jobs answer: expected { "data": { "jobs": { "nodes": [...] } } } (or "edges": [{ "node" }]), an array of such answers, or an array of job nodes ({ "id", "jobNumber", "jobStatus", "completedAt", "client", ... })';

/** What a document that is no jobs answer is: a GraphQL error answer says so (its messages are not repeated: they may quote the query's data). */
function notAnswer(document: unknown): string {
  const answers = Array.isArray(document) ? document : [document];
  const errors = answers.find((a) => isObject(a) && Array.isArray(a.errors) && a.errors.length > 0);
  return errors
    ? 'a GraphQL error answer (its "errors" hold no jobs): query again and save the answer with "data"'
    : EXPECTED;
}

export const jobber: JobAdapter = {
  name: 'jobber',
  async *read(files, progress) {
    for await (const read of readJsonFiles(files, progress)) {
      if (!read.ok) {
        yield read.problem;
        continue;
      }
      const found = recordsOf(read.document, SHAPES, isJob);
      if (!found) {
        yield documentProblem(read.file, '(document)', notAnswer(read.document));
        continue;
      }
      const records: JobRecord[] = found.map(({ location, value }) => ({
        file: read.file,
        location,
        mapped: mapJobberJob(value),
      }));
      yield* batches(records);
    }
  },
};
