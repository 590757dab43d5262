// ServiceTitan's export API answers (`{ "data": [...], "hasMore", "continueFrom" }`, or bare arrays of records), in
// several files read together: jobs, customers, customer contacts, technician assignments, and optionally locations,
// job types and business units. Each file's kind is told by its records' fields; they are joined in memory by id.
// Only `Completed` jobs count. Wire format: test/fixtures/jobs/README.md.
import { z } from 'zod';
import { isObject } from '../platform-file.js';
import type { JobAdapter, JobItem, JobRecord, MappedJob } from './job-adapter.js';
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
  invalid,
  parseJobRecord,
  readJsonFiles,
  recordsOf,
  serviceCandidates,
  text,
  type FoundRecord,
} from './job-file.js';

const Job = z.object({
  id: Id,
  jobNumber: z
    .union([z.string().max(60), z.number()])
    .nullable()
    .optional(),
  customerId: Id,
  locationId: Id.nullable().optional(),
  jobStatus: z.string().max(60),
  completedOn: Completion.nullable().optional(),
  businessUnitId: Id.nullable().optional(),
  jobTypeId: Id.nullable().optional(),
});
const City = z
  .object({ city: text(100) })
  .nullable()
  .optional();
const Customer = z.object({ id: Id, name: text(200), address: City });
const Contact = z.object({
  id: Id.nullable().optional(),
  customerId: Id,
  type: z.string().max(40),
  value: z.string().max(320),
  active: z.boolean().nullable().optional(),
});
const Assignment = z.object({
  id: Id.nullable().optional(),
  jobId: Id,
  technicianId: Id.nullable().optional(),
  technicianName: text(200),
  active: z.boolean().nullable().optional(),
});
const Location = z.object({ id: Id, customerId: Id.nullable().optional(), address: City });
const Named = z.object({ id: Id, name: text(200) });

const KINDS = {
  jobs: { label: 'jobs (jpm export jobs)', schema: Job },
  customers: { label: 'customers (crm export customers)', schema: Customer },
  contacts: { label: 'customer contacts (crm export customers/contacts)', schema: Contact },
  assignments: { label: 'technician assignments (dispatch export appointment-assignments)', schema: Assignment },
  locations: { label: 'locations (crm export locations)', schema: Location },
  jobTypes: { label: 'job types (jpm job-types)', schema: Named },
  businessUnits: { label: 'business units (settings business-units)', schema: Named },
} as const;
type Kind = keyof typeof KINDS;

/** Fields only a business unit has: it also has a `name` and an `address`, as a customer does. */
const BUSINESS_UNIT_FIELDS = ['officialName', 'invoiceHeader', 'currency', 'quickbooksClass', 'materialSku'];
const CUSTOMER_FIELDS = ['address', 'doNotMail', 'doNotService', 'balance'];

/** Which export a record comes from, by the fields it has. */
function kindOf(v: Record<string, unknown>): Kind | undefined {
  const has = (...keys: string[]) => keys.some((key) => key in v);
  if ('jobStatus' in v) return 'jobs';
  if ('jobId' in v && has('technicianId', 'technicianName')) return 'assignments';
  if ('customerId' in v && 'type' in v && 'value' in v) return 'contacts';
  if ('customerId' in v && 'address' in v) return 'locations';
  if (has(...BUSINESS_UNIT_FIELDS)) return 'businessUnits';
  if ('name' in v && has(...CUSTOMER_FIELDS)) return 'customers';
  if ('id' in v && 'name' in v) return 'jobTypes';
  return undefined;
}

type Row<K extends Kind> = z.infer<(typeof KINDS)[K]['schema']>;

/** Everything the files hold, by id; a record seen twice (the export repeats changed records) keeps its last copy. */
class Tables {
  readonly jobs = new Map<string, { file: string; location: string; job: Row<'jobs'> }>();
  readonly customers = new Map<string, Row<'customers'>>();
  readonly invalidCustomers = new Set<string>();
  readonly contacts = new Map<string, Row<'contacts'>>();
  readonly assignments = new Map<string, Row<'assignments'>>();
  readonly locations = new Map<string, Row<'locations'>>();
  readonly names = { jobTypes: new Map<string, string>(), businessUnits: new Map<string, string>() };
  readonly kinds = new Set<Kind>();
  /** Records that could not be read, in file order. */
  readonly invalid: JobRecord[] = [];
  emptyFiles = 0;

  add(kind: Kind, file: string, location: string, value: unknown): void {
    const parsed = parseJobRecord<Row<Kind>>(KINDS[kind].schema, value, 'a record');
    if (!parsed.ok) {
      if (kind === 'customers' && isObject(value) && (typeof value.id === 'string' || typeof value.id === 'number'))
        this.invalidCustomers.add(String(value.id));
      this.invalid.push({ file, location, mapped: parsed.mapped });
      return;
    }
    this.put(kind, parsed.record, `${file}#${location}`, { file, location });
  }

  private put(kind: Kind, row: Row<Kind>, key: string, at: { file: string; location: string }): void {
    // A copy seen later replaces the earlier one, and takes its place at the end.
    const keep = <T>(map: Map<string, T>, id: string | null | undefined, value: T) => {
      map.delete(id ?? key);
      map.set(id ?? key, value);
    };
    if (kind === 'jobs') {
      const job = row as Row<'jobs'>;
      keep(this.jobs, job.id, { ...at, job });
    } else if (kind === 'customers') keep(this.customers, (row as Row<'customers'>).id, row as Row<'customers'>);
    else if (kind === 'contacts') keep(this.contacts, (row as Row<'contacts'>).id, row as Row<'contacts'>);
    else if (kind === 'assignments') keep(this.assignments, (row as Row<'assignments'>).id, row as Row<'assignments'>);
    else if (kind === 'locations') keep(this.locations, (row as Row<'locations'>).id, row as Row<'locations'>);
    else {
      const named = row as Row<'jobTypes'>;
      const name = (named.name ?? '').trim();
      if (name) this.names[kind].set(named.id, name);
    }
  }
}

const EXPECTED_SHAPE =
  'not a ServiceTitan export answer: expected { "data": [...], "hasMore", "continueFrom" }, an array of such answers, or an array of records';
const KIND_LIST = Object.values(KINDS)
  .map((k) => k.label)
  .join(', ');

/** Reads one file's records into the tables; a problem when its records are of no kind the adapter knows. */
function addFile(tables: Tables, file: string, found: FoundRecord[]): JobItem | undefined {
  if (found.length === 0) {
    tables.emptyFiles++;
    return undefined;
  }
  const first = found.map((r) => (isObject(r.value) ? kindOf(r.value) : undefined)).find((k) => k !== undefined);
  if (!first)
    return documentProblem(
      file,
      '(document)',
      `not a ServiceTitan export of a known kind: its records have the fields of none of ${KIND_LIST}`,
    );
  tables.kinds.add(first);
  for (const { location, value } of found) {
    const kind = isObject(value) ? kindOf(value) : undefined;
    if (kind && kind !== first)
      tables.invalid.push({
        file,
        location,
        mapped: invalid('(record)', `a record of ${KINDS[kind].label} in a file of ${KINDS[first].label}`),
      });
    else tables.add(first, file, location, value);
  }
  return undefined;
}

/** Each customer's email addresses and phone numbers (a fax number is neither), from the contacts still active. */
function contactsByCustomer(tables: Tables): Map<string, { emails: string[]; phones: string[] }> {
  const byCustomer = new Map<string, { emails: string[]; phones: string[] }>();
  for (const contact of tables.contacts.values()) {
    if (contact.active === false) continue;
    const type = contact.type.trim().toLowerCase();
    const list = type === 'email' ? 'emails' : type === 'phone' || type === 'mobilephone' ? 'phones' : undefined;
    if (!list) continue;
    const entry = byCustomer.get(contact.customerId) ?? { emails: [], phones: [] };
    entry[list].push(contact.value);
    byCustomer.set(contact.customerId, entry);
  }
  return byCustomer;
}

/** Each job's technicians, from its assignments still active. */
function techniciansByJob(tables: Tables): Map<string, string[]> {
  const byJob = new Map<string, string[]>();
  for (const a of tables.assignments.values()) {
    if (a.active === false || !a.technicianName) continue;
    byJob.set(a.jobId, [...(byJob.get(a.jobId) ?? []), a.technicianName]);
  }
  return byJob;
}

/** The files' other records, joined to the jobs by id. */
interface Joins {
  tables: Tables;
  contacts: Map<string, { emails: string[]; phones: string[] }>;
  technicians: Map<string, string[]>;
}

function mapJob(job: Row<'jobs'>, joins: Joins): MappedJob {
  const status = job.jobStatus.trim();
  return completedJob(
    {
      id: String(job.id),
      statusField: 'jobStatus',
      status,
      timeField: 'completedOn',
      completed: job.completedOn,
      notCompleted: status.toLowerCase() !== 'completed',
      noTime: 'a Completed job needs the time it was completed',
    },
    (completed) => joinedJob(job, completed, joins),
  );
}

/** A completed job with what the other exports say of it: its customer, contacts, technicians, services and area. */
function joinedJob(job: Row<'jobs'>, completed: string, joins: Joins): MappedJob {
  const { tables, contacts, technicians } = joins;
  const customer = tables.customers.get(job.customerId);
  if (!customer) {
    const reason = tables.invalidCustomers.has(job.customerId)
      ? "the job's customer record is invalid in the customers export"
      : tables.kinds.has('customers')
        ? 'no customer with this id in the customers export'
        : 'no customers export among the files: pass it beside the jobs export';
    return invalid('customerId', reason);
  }
  const location = job.locationId ? tables.locations.get(job.locationId) : undefined;
  const contact = contacts.get(job.customerId);
  return {
    kind: 'job',
    job: {
      id: job.id,
      aliases: aliasesOf(job.id, job.jobNumber),
      completed,
      customer: customerName(customer.name),
      emails: distinct(contact?.emails ?? []),
      phones: distinct(contact?.phones ?? []),
      technicians: distinct(technicians.get(job.id) ?? []),
      services: serviceCandidates([
        job.jobTypeId && tables.names.jobTypes.get(job.jobTypeId),
        job.businessUnitId && tables.names.businessUnits.get(job.businessUnitId),
      ]),
      // The job's location is where the work was done; without the locations export, the customer's own address.
      ...areaOf(location?.address?.city ?? customer.address?.city),
    },
  };
}

const isRecord = (value: Record<string, unknown>) => !Array.isArray(value.data);

export const servicetitan: JobAdapter = {
  name: 'servicetitan',
  async *read(files, progress) {
    const tables = new Tables();
    let problems = 0;
    for await (const read of readJsonFiles(files, progress)) {
      const found = read.ok ? recordsOf(read.document, [{ path: ['data'] }], isRecord) : undefined;
      const problem = !read.ok
        ? read.problem
        : found
          ? addFile(tables, read.file, found)
          : documentProblem(read.file, '(document)', EXPECTED_SHAPE);
      if (problem) {
        problems++;
        yield problem;
      }
    }
    // Without every file, the joins would name jobs invalid for what is only a missing file.
    if (problems > 0) return;
    if (!tables.kinds.has('jobs') && tables.emptyFiles === 0 && files.length > 0) {
      yield {
        kind: 'problem',
        file: files.join(', '),
        location: 'the files',
        field: '(files)',
        reason: `none of the files is ServiceTitan's ${KINDS.jobs.label}: pass it with the other exports`,
      };
      return;
    }
    const joins = { tables, contacts: contactsByCustomer(tables), technicians: techniciansByJob(tables) };
    const records: JobRecord[] = [...tables.invalid];
    for (const { file, location, job } of tables.jobs.values())
      records.push({ file, location, mapped: mapJob(job, joins) });
    yield* batches(records);
  },
};
