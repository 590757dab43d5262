// The field-service job adapters (Housecall Pro, Jobber, ServiceTitan) read their systems' answers into completed jobs,
// skip the jobs not completed, and name what they cannot read without repeating a customer's contacts.
// Fixtures: test/fixtures/jobs (README.md there says what each wire format is and where it was found).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { housecallpro } from '../src/import/jobs/housecallpro.js';
import type { JobAdapter, JobItem, JobRecord, LedgerJob } from '../src/import/jobs/job-adapter.js';
import { jobber } from '../src/import/jobs/jobber.js';
import { servicetitan } from '../src/import/jobs/servicetitan.js';

const fx = (name: string) => resolve(import.meta.dirname, 'fixtures/jobs', name);
const fixture = (name: string): unknown => JSON.parse(readFileSync(fx(name), 'utf8'));
const ST = {
  jobs: fx('servicetitan-jobs.json'),
  customers: fx('servicetitan-customers.json'),
  contacts: fx('servicetitan-contacts.json'),
  assignments: fx('servicetitan-assignments.json'),
  locations: fx('servicetitan-locations.json'),
  jobTypes: fx('servicetitan-job-types.json'),
};
const ST_REQUIRED = [ST.jobs, ST.customers, ST.contacts, ST.assignments];

const dir = mkdtempSync(join(tmpdir(), 'jobs-adapters-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let written = 0;
function file(content: unknown): string {
  const path = join(dir, `file-${++written}.json`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

interface Read {
  items: JobItem[];
  records: JobRecord[];
  jobs: Map<string, LedgerJob & { location: string }>;
  skips: { location: string; reason: string }[];
  invalid: { location: string; field: string; reason: string }[];
  problems: Extract<JobItem, { kind: 'problem' }>[];
  progress: [number, number][];
}

/** Every reason the adapters gave, across the tests: none may quote a contact, a street or a job id. */
const reasons: string[] = [];

async function read(adapter: JobAdapter, files: string[]): Promise<Read> {
  const progress: [number, number][] = [];
  const items: JobItem[] = [];
  for await (const item of adapter.read(files, (done, size) => progress.push([done, size]))) items.push(item);
  const records = items.flatMap((item) => (item.kind === 'records' ? item.records : []));
  const result: Read = { items, records, jobs: new Map(), skips: [], invalid: [], problems: [], progress };
  for (const { location, mapped } of records) {
    if (mapped.kind === 'job') result.jobs.set(mapped.job.id, { ...mapped.job, location });
    else if (mapped.kind === 'skip') result.skips.push({ location, reason: mapped.reason });
    else result.invalid.push(...mapped.problems.map((p) => ({ location, ...p })));
  }
  for (const item of items) if (item.kind === 'problem') result.problems.push(item);
  reasons.push(
    ...result.skips.map((s) => s.reason),
    ...result.invalid.map((p) => p.reason),
    ...result.problems.map((p) => p.reason),
  );
  return result;
}

describe('Housecall Pro', () => {
  const DANA = 'job_5e2c91d04a8b4f0f9a7e1c3b2d6f8a01';

  it('reads a GET /jobs page into its completed jobs: ids, invoice numbers, completion, customer, contacts, technicians, city', async () => {
    const r = await read(housecallpro, [fx('housecallpro-jobs.json')]);
    expect(r.problems).toEqual([]);
    expect([...r.jobs.keys()]).toEqual([
      DANA,
      'job_9b7d5f3a1c8e4b6d2f0a9c7e5b3d1f48',
      'job_1a3c5e7b9d0f4a2c6e8b0d2f4a6c8e37',
    ]);
    expect(r.jobs.get(DANA)).toEqual({
      location: 'jobs[0]',
      id: DANA,
      aliases: ['1042'],
      completed: '2025-05-29T23:10:41.000Z',
      customer: { firstName: 'Dana', lastName: 'Whitfield' },
      emails: ['dana.whitfield@example.com'],
      phones: ['6025550143'],
      technicians: ['Luis Ortega'],
      services: ['AC Repair'],
      area: 'Phoenix',
    });
    const renee = r.jobs.get('job_9b7d5f3a1c8e4b6d2f0a9c7e5b3d1f48')!;
    expect(renee.customer).toEqual({ firstName: 'Renée', lastName: 'Ávila-Núñez' });
    expect(renee).toMatchObject({
      completed: '2025-05-12T17:45:03.512Z',
      emails: ['renee.avila@example.org'],
      phones: ['4805550166', '4805550167'],
      technicians: ['Zoë Martínez', 'Luis Ortega'],
      area: 'Scottsdale',
    });
    expect(r.jobs.get('job_1a3c5e7b9d0f4a2c6e8b0d2f4a6c8e37')).toMatchObject({
      customer: { firstName: 'Robert', lastName: 'Kline' },
      aliases: ['1051'],
      phones: ['(623) 555-0129'],
      area: 'Glendale',
    });
    expect(r.skips).toEqual([
      { location: 'jobs[3]', reason: expect.stringContaining('"scheduled"') },
      { location: 'jobs[4]', reason: expect.stringContaining('"pro canceled"') },
    ]);
    expect(JSON.stringify([...r.jobs.values()])).not.toContain('Campbell');
    const size = readFileSync(fx('housecallpro-jobs.json')).length;
    expect(r.progress.at(-1)).toEqual([size, size]);
  });

  it('reads an array of pages, a bare array of jobs and one job object alike, naming each place', async () => {
    const page = fixture('housecallpro-jobs.json') as { jobs: unknown[] };
    const r = await read(housecallpro, [
      file([page, { ...page, jobs: page.jobs.slice(0, 1) }]),
      file(page.jobs.slice(1, 2)),
      file(page.jobs[2]),
    ]);
    expect(r.problems).toEqual([]);
    expect(r.records.map((x) => x.location)).toEqual([
      '[0].jobs[0]',
      '[0].jobs[1]',
      '[0].jobs[2]',
      '[0].jobs[3]',
      '[0].jobs[4]',
      '[1].jobs[0]',
      '[0]',
      'the document',
    ]);
    expect(r.jobs.size).toBe(3);
  });

  it('names a completed job without its completion time, and counts a job with a completion time whatever its status says', async () => {
    const [dana] = (fixture('housecallpro-jobs.json') as { jobs: Record<string, unknown>[] }).jobs;
    const r = await read(housecallpro, [
      file({
        jobs: [
          { ...dana, work_timestamps: { completed_at: null } },
          { ...dana, id: 'job_b', work_status: 'in progress' },
          { ...dana, id: 'job_c', customer: null, address: null },
        ],
      }),
    ]);
    expect(r.invalid).toEqual([
      { location: 'jobs[0]', field: 'work_timestamps.completed_at', reason: expect.stringContaining('completed') },
    ]);
    expect([...r.jobs.keys()]).toEqual(['job_b', 'job_c']);
    expect(r.jobs.get('job_c')).toMatchObject({ customer: {}, emails: [], phones: [] });
    expect(r.jobs.get('job_c')!.area).toBeUndefined();
  });
});

describe('Jobber', () => {
  const PANEL = 'Z2lkOi8vSm9iYmVyL0pvYi84MTIzNDU2Nw==';
  const HEAT_PUMP = 'Z2lkOi8vSm9iYmVyL0pvYi84MTIzNDU5MA==';

  it('reads a jobs query answer into its completed jobs, with the users assigned to their visits', async () => {
    const r = await read(jobber, [fx('jobber-jobs.json')]);
    expect(r.problems).toEqual([]);
    expect(r.jobs.get(PANEL)).toEqual({
      location: 'data.jobs.nodes[0]',
      id: PANEL,
      aliases: ['318'],
      completed: '2025-03-12T22:30:00.000Z',
      customer: { name: 'Thomas Becker', firstName: 'Thomas', lastName: 'Becker' },
      emails: ['tbecker@example.com'],
      phones: ['(480) 555-0118'],
      technicians: ['Zoë Martínez'],
      services: ['Electrical Panel Upgrade'],
      area: 'Mesa',
    });
    expect(r.jobs.get(HEAT_PUMP)).toMatchObject({
      completed: '2025-02-03T18:05:00.000Z',
      customer: { name: 'William Hartman' },
      emails: ['bill.hartman@example.net', 'whartman@work.example.com'],
      technicians: ['Luis Ortega', 'Zoë Martínez'],
      area: 'Glendale',
    });
    expect(r.jobs.get('Z2lkOi8vSm9iYmVyL0pvYi84MTI0MDExMg==')).toMatchObject({
      technicians: [],
      emails: [],
      phones: ['(623) 555-0152', '(623) 555-0153'],
      area: 'Peoria',
    });
    expect(r.skips).toEqual([
      { location: 'data.jobs.nodes[3]', reason: expect.stringContaining('"upcoming" and no completedAt') },
    ]);
    expect(JSON.stringify([...r.jobs.values()])).not.toContain('Dobson');
  });

  it('reads edges, the answer without its data envelope, arrays of answers and bare nodes, and assigned users as a plain list', async () => {
    const answer = fixture('jobber-jobs.json') as { data: { jobs: { nodes: Record<string, unknown>[] } } };
    const nodes = answer.data.jobs.nodes;
    const plainUsers = {
      ...nodes[1],
      id: 'plain',
      visits: [{ assignedUsers: [{ name: { first: 'Luis', last: 'Ortega' } }, { name: 'Andre Wallace' }] }],
    };
    const r = await read(jobber, [
      file({ data: { jobs: { edges: nodes.slice(0, 2).map((node) => ({ cursor: 'x', node })) } } }),
      file({ jobs: { nodes: [plainUsers] } }),
      file([answer, answer]),
      file(nodes.slice(2, 3)),
    ]);
    expect(r.problems).toEqual([]);
    expect(r.records.map((x) => x.location)).toEqual([
      'data.jobs.edges[0].node',
      'data.jobs.edges[1].node',
      'jobs.nodes[0]',
      ...[0, 1].flatMap((i) => [0, 1, 2, 3].map((j) => `[${i}].data.jobs.nodes[${j}]`)),
      '[0]',
    ]);
    expect(r.jobs.get('plain')!.technicians).toEqual(['Luis Ortega', 'Andre Wallace']);
  });

  it('says a GraphQL error answer holds no jobs', async () => {
    const r = await read(jobber, [
      file({ data: null, errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED' } }] }),
    ]);
    expect(r.problems).toEqual([
      expect.objectContaining({
        location: 'the document',
        field: '(document)',
        reason: expect.stringContaining('GraphQL error'),
      }),
    ]);
    expect(r.records).toEqual([]);
  });
});

describe('ServiceTitan', () => {
  it('joins the jobs, customers, contacts, assignments, locations and job types exports into the completed jobs', async () => {
    const r = await read(servicetitan, [ST.jobs, ST.customers, ST.contacts, ST.assignments, ST.locations, ST.jobTypes]);
    expect(r.problems).toEqual([]);
    expect(r.invalid).toEqual([]);
    expect(r.jobs.get('41550231')).toEqual({
      location: 'data[0]',
      id: '41550231',
      aliases: ['10231'],
      completed: '2025-05-16T21:40:00.000Z',
      customer: { name: 'Marcus Lee' },
      emails: ['marcus.lee@example.net'],
      phones: ['6235550177'],
      technicians: ['Luis Ortega'],
      services: ['Water Heater Installation'],
      area: 'Phoenix',
    });
    // Exported twice (in progress, then completed): the later copy counts; a fax number is no phone; an unassigned technician is none.
    expect(r.jobs.get('41550318')).toEqual({
      location: 'data[3]',
      id: '41550318',
      aliases: ['10318'],
      completed: '2025-04-30T19:02:11.537Z',
      customer: { name: 'Robert Ellison' },
      emails: ['robert.ellison@example.org'],
      phones: ['(602) 555-0190'],
      technicians: ['Zoë Martínez', 'Luis Ortega'],
      services: ['AC Repair'],
      area: 'Scottsdale',
    });
    // Its job number is its id; its location is not in the locations export, so its customer's city is the area.
    expect(r.jobs.get('41550402')).toEqual({
      location: 'data[2]',
      id: '41550402',
      aliases: [],
      completed: '2025-05-02T16:15:00.000Z',
      customer: { name: 'José Peña-Álvarez' },
      emails: [],
      phones: ['480-555-0135'],
      technicians: ['Andre Wallace'],
      services: ['Drain Cleaning'],
      area: 'Tempe',
    });
    expect(r.jobs.size).toBe(3);
    expect(r.skips).toEqual([
      { location: 'data[4]', reason: 'jobStatus "Scheduled": not a completed job' },
      { location: 'data[5]', reason: 'jobStatus "Canceled": not a completed job' },
    ]);
    const total = Object.values(ST).reduce((sum, path) => sum + readFileSync(path).length, 0);
    expect(r.progress.at(-1)).toEqual([total, total]);
  });

  it('tells each file by its records whatever the order they come in, and does without the optional exports', async () => {
    const r = await read(servicetitan, [...ST_REQUIRED].reverse());
    expect(r.problems).toEqual([]);
    expect([...r.jobs.keys()].sort()).toEqual(['41550231', '41550318', '41550402']);
    expect(r.jobs.get('41550318')).toMatchObject({ services: [], area: 'Phoenix' });
  });

  it('names a business unit by its own fields, though it has a name and an address as a customer does', async () => {
    const units = file({
      data: [
        {
          id: 12,
          active: true,
          name: 'HVAC Service',
          officialName: 'Saguaro Comfort Home Services',
          address: { street: '100 W Van Buren St', city: 'Phoenix' },
          currency: 'USD',
        },
      ],
    });
    const r = await read(servicetitan, [...ST_REQUIRED, units]);
    expect(r.jobs.get('41550318')!.services).toEqual(['HVAC Service']);
    expect(r.jobs.get('41550318')!.customer).toEqual({ name: 'Robert Ellison' });
  });

  it('names a completed job whose customer is in no file, and says when the customers export is missing', async () => {
    const jobs = fixture('servicetitan-jobs.json') as { data: Record<string, unknown>[] };
    const orphan = file({ data: [{ ...jobs.data[0], id: 41559999, customerId: 7999 }] });
    const withCustomers = await read(servicetitan, [orphan, ST.customers]);
    expect(withCustomers.invalid).toEqual([
      { location: 'data[0]', field: 'customerId', reason: 'no customer with this id in the customers export' },
    ]);
    const without = await read(servicetitan, [ST.jobs, ST.contacts]);
    expect(without.invalid.map((p) => p.field)).toEqual(['customerId', 'customerId', 'customerId']);
    expect(without.invalid[0]!.reason).toContain('no customers export');
    expect(without.skips).toHaveLength(2);
  });

  it('refuses a file of no known kind, naming it, and joins nothing', async () => {
    const unknown = file({ data: [{ id: 1, colour: 'blue' }], hasMore: false });
    const r = await read(servicetitan, [...ST_REQUIRED, unknown]);
    expect(r.problems).toEqual([
      {
        kind: 'problem',
        file: unknown,
        location: 'the document',
        field: '(document)',
        reason: expect.stringContaining('not a ServiceTitan export of a known kind'),
      },
    ]);
    expect(r.records).toEqual([]);
    const noJobs = await read(servicetitan, [ST.customers, ST.contacts]);
    expect(noJobs.problems).toEqual([
      expect.objectContaining({ field: '(files)', reason: expect.stringContaining('jobs (jpm export jobs)') }),
    ]);
  });

  it('names the field of a record it cannot read without quoting its value', async () => {
    const contacts = fixture('servicetitan-contacts.json') as Record<string, unknown>[];
    const long = `${'x'.repeat(320)}@example.com`;
    const r = await read(servicetitan, [
      ST.jobs,
      ST.customers,
      ST.assignments,
      file([...contacts, { ...contacts[0], id: 91999, value: long }]),
    ]);
    expect(r.invalid).toEqual([{ location: '[9]', field: 'value', reason: expect.any(String) }]);
    expect(r.invalid[0]!.reason).not.toContain('xxxx');
  });
});

describe('every adapter', () => {
  it.each([housecallpro, jobber, servicetitan])(
    '$name: bad JSON and a document of the wrong shape are problems naming the file',
    async (adapter) => {
      const broken = file(
        '{"jobs": [{"customer": {"email": dana.whitfield@example.com, "street": "4821 E Campbell Ave"}}]}',
      );
      const wrong = file('"hello"');
      const r = await read(adapter, [broken, wrong]);
      expect(r.problems).toEqual([
        {
          kind: 'problem',
          file: broken,
          location: 'the document',
          field: '(json)',
          reason: expect.stringMatching(/^not valid JSON/),
        },
        { kind: 'problem', file: wrong, location: 'the document', field: '(document)', reason: expect.any(String) },
      ]);
      expect(r.records).toEqual([]);
    },
  );

  it('no reason given in these tests quotes an email address, a phone number, a street or a job id of the fixtures', () => {
    const privates = [
      '@',
      'dana',
      'whitf',
      'example.',
      '6025550143',
      '555-01',
      '4821 E Campbell',
      'Campbell',
      'Dobson',
      'Osborn',
      'Highland',
      'Mill Ave',
      'Cochise',
      'job_5e2c91d04a8b4f0f9a7e1c3b2d6f8a01',
      'Z2lkOi8vSm9iYmVy',
      '41550231',
      '41550318',
      '41559999',
      '7999',
    ];
    expect(reasons.length).toBeGreaterThan(10);
    for (const reason of reasons) for (const secret of privates) expect(reason).not.toContain(secret);
  });
});
