// The ledger's privacy test's data: completed jobs whose ids, customers' contacts, surnames and streets are distinctive
// strings, written as the service's own ledger and as Housecall Pro, Jobber and ServiceTitan answers (copies of
// test/fixtures/jobs with those values put in), and the search of any text for any of them in every form an output
// could carry them in (case aside, percent-, form-, JSON-, \u-, HTML-encoded, a phone number however it is written).
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** What a job says that must stay private: ids, contacts, the customer's surname, the street. Label → value. */
export const PRIVATE = {
  'own job id': 'JOBID-q7x9-PRIV',
  'own job email': 'zq-private-7731@example.test',
  'own job phone': '+1 602 555 7731',
  'own job surname': 'Zephyrquist',
  'own ambiguous job id 1': 'JOBID-amb1-PRIV',
  'own ambiguous job id 2': 'JOBID-amb2-PRIV',
  'own ambiguous job email': 'hk-private-2241@example.test',
  'own ambiguous job phone': '(480) 555-2241',
  'own ambiguous job surname': 'Kestrelbaum',
  'own referenced job id': 'JOBID-ref-m3t5-PRIV',
  'own referenced job email': 'iv-private-3355@example.test',
  'own referenced job second email': 'iv-second-3355@example.test',
  'own referenced job phone': '480.555.3355',
  'own referenced job surname': 'Vorhaltsberg',
  ...Object.fromEntries(
    ['Abernathquill', 'Brightquill', 'Castelquill', 'Delaquill'].flatMap((surname, i) => [
      [`own Chandler job ${i + 1} id`, `JOBID-chd${i + 1}-PRIV`],
      [`own Chandler job ${i + 1} email`, `chd-private-${i + 1}@example.test`],
      [`own Chandler job ${i + 1} phone`, `480 555 61${i + 1}${i + 1}`],
      [`own Chandler job ${i + 1} surname`, surname],
    ]),
  ),
  'Housecall Pro job id': 'JOBID-hcp-k4m8-PRIV',
  'Housecall Pro invoice number': 'INV-k4m8-PRIV',
  'Housecall Pro skipped job id': 'JOBID-hcp-sched-PRIV',
  'Housecall Pro customer id': 'cus-PRIV-k4m8-customer',
  'Housecall Pro address id': 'adr-PRIV-k4m8-address',
  'Housecall Pro email': 'hcp-private-4488@example.test',
  'Housecall Pro mobile': '480-555-4488',
  'Housecall Pro home phone': '(602) 555-9917',
  'Housecall Pro surname': 'Quetzalmontes',
  'Housecall Pro street': '7731 Quetzal Privado Lane',
  'Housecall Pro street line 2': 'Casita PRIV-4488',
  'Jobber job id': 'JOBID-jb-w2p6-PRIV',
  'Jobber client id': 'CLIENT-jb-w2p6-PRIV',
  'Jobber property id': 'PROP-jb-w2p6-PRIV',
  'Jobber email': 'jb-private-2266@example.test',
  'Jobber phone': '(602) 555-2266',
  'Jobber surname': 'Vandersloot',
  'Jobber street': '2266 Quetzal Privado Road',
  'ServiceTitan job id': 'JOBID-st-v5n3-PRIV',
  'ServiceTitan job number': 'JN-v5n3-PRIV',
  'ServiceTitan customer id': 'CUST-st-v5n3-PRIV',
  'ServiceTitan location id': 'LOC-st-v5n3-PRIV',
  'ServiceTitan email': 'st-private-5533@example.test',
  'ServiceTitan mobile': '623-555-5533',
  'ServiceTitan fax': '(623) 555-8810',
  'ServiceTitan surname': 'Wrenfield',
  'ServiceTitan location street': '7731 Quetzal Privado Lane',
  'ServiceTitan customer street': '4419 Quetzal Privado Court',
} as const satisfies Record<string, string>;

/**
 * Pieces of the private strings no public text holds, for outputs that quote a part of a value (V8's JSON syntax
 * messages quote some 10 characters around the error): each names a private string above.
 */
export const FRAGMENTS = [
  'JOBID-',
  '-PRIV',
  'zq-private',
  'chd-private',
  'hk-private',
  'iv-private',
  'iv-second',
  'hcp-private',
  'jb-private',
  'st-private',
  'Quetzal Privado',
];

const DIGITS = /[\d]/g;

/** A phone number written the ways a system or a page may write it, from its ten digits. */
function phoneForms(value: string): string[] {
  const digits = (value.match(DIGITS) ?? []).join('').slice(-10);
  if (digits.length < 10) return [];
  const [a, b, c] = [digits.slice(0, 3), digits.slice(3, 6), digits.slice(6)];
  return [
    digits,
    `1${digits}`,
    `${a}-${b}-${c}`,
    `${a}.${b}.${c}`,
    `${a} ${b} ${c}`,
    `(${a}) ${b}-${c}`,
    `(${a})${b}-${c}`,
  ];
}

const isPhone = (label: string) => /phone|mobile|fax/.test(label);

const htmlEscaped = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
/** Every character but letters and digits as a JSON \u escape (what HTML-safe JSON serializers do to some). */
const unicodeEscaped = (s: string) =>
  s.replace(/[^A-Za-z0-9]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
/** Every character but letters and digits as an HTML numeric reference. */
const entityEscaped = (s: string) => s.replace(/[^A-Za-z0-9]/g, (c) => `&#${c.charCodeAt(0)};`);

/** The forms a value can take in an output, lower-cased (the search ignores case). */
export function formsOf(value: string): string[] {
  const forms = [
    value,
    encodeURIComponent(value),
    encodeURI(value),
    new URLSearchParams({ v: value }).toString().slice(2),
    JSON.stringify(value).slice(1, -1),
    htmlEscaped(value),
    unicodeEscaped(value),
    entityEscaped(value),
  ];
  return [...new Set(forms.map((f) => f.toLowerCase()))];
}

interface Needle {
  label: string;
  form: string;
}

function needlesOf(values: Record<string, string>, fragments: readonly string[]): Needle[] {
  const needles: Needle[] = [];
  for (const [label, value] of Object.entries(values)) {
    for (const form of formsOf(value)) needles.push({ label, form });
    if (isPhone(label))
      for (const form of phoneForms(value)) needles.push({ label: `${label} (as ${form})`, form: form.toLowerCase() });
  }
  for (const fragment of fragments)
    for (const form of formsOf(fragment)) needles.push({ label: `fragment "${fragment}"`, form });
  return needles;
}

const NEEDLES = needlesOf(PRIVATE, FRAGMENTS);

/** The private strings (and fragments) `text` holds in any form, each as `label: "form" at …context…`. */
export function privateStringsIn(text: string): string[] {
  const lower = text.toLowerCase();
  const found: string[] = [];
  for (const { label, form } of NEEDLES) {
    const at = lower.indexOf(form);
    if (at >= 0) found.push(`${label}: "${form}" in …${text.slice(Math.max(0, at - 60), at + form.length + 60)}…`);
  }
  return found;
}

/** The phone numbers of PRIVATE by their ten digits, for a store, whose hashes are of digits only. */
export const PRIVATE_PHONE_DIGITS = Object.entries(PRIVATE)
  .filter(([label]) => isPhone(label))
  .map(([label, value]) => ({ label, digits: (value.match(DIGITS) ?? []).join('').slice(-10) }));

// ---- The reviews, and the jobs, as each system writes them -------------------------------------------------------------------------

/** The business the jobs are of: the fixtures' Phoenix business, its catalogue and technicians. */
export const BUSINESS = {
  name: 'Saguaro Comfort Home Services',
  url: 'https://saguaro-comfort.example',
  telephone: '+1 602 555 0100',
  address: {
    streetAddress: '100 N Central Ave',
    addressLocality: 'Phoenix',
    addressRegion: 'AZ',
    postalCode: '85004',
    addressCountry: 'US',
  },
  areaServed: ['Phoenix', 'Chandler', 'Gilbert', 'Tempe', 'Surprise', 'Mesa', 'Scottsdale'],
  timeZone: 'America/Phoenix',
  services: [
    { id: 'ac-repair', name: 'AC Repair', category: 'cooling' },
    { id: 'drain-cleaning', name: 'Drain Cleaning', category: 'plumbing' },
    { id: 'leak-repair', name: 'Leak Detection & Repair', category: 'plumbing' },
    { id: 'water-heater-repair', name: 'Water Heater Repair', category: 'plumbing' },
    { id: 'water-heater-install', name: 'Water Heater Installation', category: 'plumbing' },
    { id: 'panel-upgrade', name: 'Electrical Panel Upgrade', category: 'electrical' },
  ],
  technicians: [
    { name: 'Luis Ortega' },
    { name: 'Zoë Martínez' },
    { name: 'Andre Wallace' },
    { name: 'Priya Natarajan' },
  ],
};

const P = PRIVATE;

/** Four more customers of Luis's in Chandler, so that he and the area have insights (five reviews or more). */
const CHANDLER = [
  { first: 'Beatrix', date: '2025-03-03', review: '2025-03-09', text: 'Arrived on time and the AC works great again.' },
  {
    first: 'Cornelius',
    date: '2025-03-20',
    review: '2025-04-02',
    text: 'Friendly, explained everything, fair price for the repair.',
  },
  {
    first: 'Dorothea',
    date: '2025-04-08',
    review: '2025-04-10',
    text: 'Quick diagnosis, the AC was fixed the same afternoon.',
  },
  {
    first: 'Evander',
    date: '2025-05-12',
    review: '2025-05-30',
    text: 'Professional and tidy, the house is cool again.',
  },
];

/** The service's own ledger (CSV): a job matched by name, two that fit one review (ambiguous), one a review references. */
export const OWN_LEDGER_CSV = [
  'id,completed,customer,email,phone,technicians,services,area',
  `${P['own job id']},2025-05-01,Quincy ${P['own job surname']},${P['own job email']},${P['own job phone']},Luis Ortega,ac-repair,Chandler`,
  `${P['own ambiguous job id 1']},2025-04-02,Harriet ${P['own ambiguous job surname']},${P['own ambiguous job email']},${P['own ambiguous job phone']},Andre Wallace,leak-repair,Mesa`,
  // Another Harriet K., with contacts of her own: two customers, so the review is ambiguous (one customer's two
  // visits would be one customer, and her review would match the latest).
  `${P['own ambiguous job id 2']},2025-04-20,Harriet Kettleby,,,Andre Wallace,leak-repair,Mesa`,
  ...CHANDLER.map(({ first, date }, i) => {
    const at = (what: string) => (P as Record<string, string>)[`own Chandler job ${i + 1} ${what}`]!;
    return `${at('id')},${date},${first} ${at('surname')},${at('email')},${at('phone')},Luis Ortega,ac-repair,Chandler`;
  }),
  `${P['own referenced job id']},2025-05-20T16:45:00-07:00,Ignatius ${P['own referenced job surname']},${P['own referenced job email']};${P['own referenced job second email']},${P['own referenced job phone']},Zoë Martínez,water-heater-repair,Scottsdale`,
].join('\n');

const FIXTURES = resolve(import.meta.dirname, '../fixtures/jobs');
type Json = Record<string, unknown>;
const fixture = <T>(name: string): T => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as T;

/** The first Housecall Pro fixture job, its customer and address made private, completed in Gilbert by Zoë. */
function housecallproJob(): Json {
  const [done, , , scheduled] = fixture<{ jobs: Json[] }>('housecallpro-jobs.json').jobs as [Json, Json, Json, Json];
  const customer = done.customer as Json;
  const address = done.address as Json;
  const employee = (done.assigned_employees as Json[])[0]!;
  const job = {
    ...done,
    id: P['Housecall Pro job id'],
    invoice_number: P['Housecall Pro invoice number'],
    description: 'Drain Cleaning',
    customer: {
      ...customer,
      id: P['Housecall Pro customer id'],
      first_name: 'Odalys',
      last_name: P['Housecall Pro surname'],
      email: P['Housecall Pro email'],
      mobile_number: P['Housecall Pro mobile'],
      home_number: P['Housecall Pro home phone'],
      notes: `gate code via ${P['Housecall Pro mobile']}`,
    },
    address: {
      ...address,
      id: P['Housecall Pro address id'],
      street: P['Housecall Pro street'],
      street_line_2: P['Housecall Pro street line 2'],
      city: 'Gilbert',
      zip: '85233',
    },
    work_timestamps: {
      on_my_way_at: '2025-06-02T15:01:00Z',
      started_at: '2025-06-02T15:30:00Z',
      completed_at: '2025-06-02T17:30:00Z',
    },
    assigned_employees: [{ ...employee, first_name: 'Zoë', last_name: 'Martínez' }],
  };
  // A job not done yet, of the same customer: skipped, and its skip names no contact or id.
  const later = { ...scheduled, id: P['Housecall Pro skipped job id'], customer: job.customer, address: job.address };
  return { ...fixture<Json>('housecallpro-jobs.json'), jobs: [job, later], total_items: 2 };
}

/** The first Jobber fixture job, its client and property made private, completed in Tempe by Andre. */
function jobberAnswer(): Json {
  const answer = fixture<{ data: { jobs: { nodes: Json[] } & Json } }>('jobber-jobs.json');
  const node = answer.data.jobs.nodes[0]!;
  const client = node.client as Json;
  const property = node.property as Json;
  const user = {
    id: 'Z2lkOi8vSm9iYmVyL1VzZXIvMjIxMDQ3MQ==',
    name: { full: 'Andre Wallace', first: 'Andre', last: 'Wallace' },
  };
  const job = {
    ...node,
    id: P['Jobber job id'],
    jobNumber: 4471,
    title: 'Electrical Panel Upgrade',
    completedAt: '2025-06-05T20:00:00Z',
    client: {
      ...client,
      id: P['Jobber client id'],
      name: `Ximena ${P['Jobber surname']}`,
      firstName: 'Ximena',
      lastName: P['Jobber surname'],
      emails: [{ address: P['Jobber email'], description: 'MAIN', primary: true }],
      phones: [{ number: P['Jobber phone'], description: 'MOBILE', primary: true }],
    },
    property: {
      ...property,
      id: P['Jobber property id'],
      address: {
        street1: P['Jobber street'],
        street2: '',
        city: 'Tempe',
        province: 'AZ',
        postalCode: '85281',
        country: 'United States',
      },
    },
    visits: {
      nodes: [
        {
          id: 'Z2lkOi8vSm9iYmVyL1Zpc2l0Lzk5MDAx',
          title: 'Panel swap',
          visitStatus: 'COMPLETED',
          completedAt: '2025-06-05T20:00:00Z',
          assignedUsers: { nodes: [user] },
        },
      ],
    },
  };
  return { data: { jobs: { ...answer.data.jobs, nodes: [job], totalCount: 1 } } };
}

/** ServiceTitan's exports for one completed job of a private customer at a private location in Surprise. */
function servicetitanExports(): Record<string, unknown> {
  const jobs = fixture<{ data: Json[] } & Json>('servicetitan-jobs.json');
  const [customers] = fixture<({ data: Json[] } & Json)[]>('servicetitan-customers.json');
  const assignments = fixture<{ data: Json[] } & Json>('servicetitan-assignments.json');
  const locations = fixture<{ data: Json[] } & Json>('servicetitan-locations.json');
  const customer = customers!.data[0]!;
  const location = locations.data[0]!;
  const ids = {
    job: P['ServiceTitan job id'],
    customer: P['ServiceTitan customer id'],
    location: P['ServiceTitan location id'],
  };
  return {
    jobs: {
      ...jobs,
      data: [
        {
          ...jobs.data[0]!,
          id: ids.job,
          jobNumber: P['ServiceTitan job number'],
          customerId: ids.customer,
          locationId: ids.location,
          completedOn: '2025-06-08T18:00:00Z',
          jobTypeId: 201,
          summary: `<p>Call ${P['ServiceTitan mobile']} before arriving.</p>`,
        },
      ],
    },
    customers: [
      {
        ...customers,
        hasMore: false,
        data: [
          {
            ...customer,
            id: ids.customer,
            name: `Yusuf ${P['ServiceTitan surname']}`,
            address: { ...(customer.address as Json), street: P['ServiceTitan customer street'], city: 'Peoria' },
          },
        ],
      },
    ],
    contacts: [
      {
        id: 99001,
        type: 'Email',
        value: P['ServiceTitan email'],
        memo: null,
        phoneSettings: null,
        modifiedOn: '2024-01-01T00:00:00Z',
        customerId: ids.customer,
        active: true,
      },
      {
        id: 99002,
        type: 'MobilePhone',
        value: P['ServiceTitan mobile'],
        memo: 'cell',
        phoneSettings: { phoneNumber: '6235555533', doNotText: false },
        modifiedOn: '2024-01-01T00:00:00Z',
        customerId: ids.customer,
        active: true,
      },
      {
        id: 99003,
        type: 'Fax',
        value: P['ServiceTitan fax'],
        memo: null,
        phoneSettings: null,
        modifiedOn: '2024-01-01T00:00:00Z',
        customerId: ids.customer,
        active: true,
      },
    ],
    assignments: {
      ...assignments,
      data: [
        {
          ...assignments.data[0]!,
          id: 99101,
          technicianId: 504,
          technicianName: 'Priya Natarajan',
          jobId: ids.job,
          appointmentId: 99201,
        },
      ],
    },
    locations: {
      ...locations,
      data: [
        {
          ...location,
          id: ids.location,
          customerId: ids.customer,
          name: `${P['ServiceTitan surname']} casita`,
          address: {
            ...(location.address as Json),
            street: P['ServiceTitan location street'],
            city: 'Surprise',
            zip: '85374',
          },
        },
      ],
    },
    'job-types': fixture<Json>('servicetitan-job-types.json'),
  };
}

/** The job files of every source, written into `dir`: the paths to pass to `import-jobs` per source. */
export function writeJobFiles(dir: string): {
  own: string;
  housecallpro: string;
  jobber: string;
  servicetitan: string[];
} {
  const write = (name: string, content: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
    return path;
  };
  return {
    own: write('ledger.csv', `${OWN_LEDGER_CSV}\n`),
    housecallpro: write('housecallpro-jobs.json', housecallproJob()),
    jobber: write('jobber-jobs.json', jobberAnswer()),
    servicetitan: Object.entries(servicetitanExports()).map(([kind, content]) =>
      write(`servicetitan-${kind}.json`, content),
    ),
  };
}

/** Invalid job records carrying the private strings: the own ledger's (a contact of the wrong type, an impossible date) and Housecall Pro's. */
export function writeInvalidJobFiles(dir: string): { own: string; housecallpro: string } {
  const own = {
    jobs: [
      {
        id: P['own job id'],
        completed: '2025-05-01',
        customer: `Quincy ${P['own job surname']}`,
        email: { address: P['own job email'] },
        phone: 6025557731,
        area: 'Chandler',
      },
      {
        id: P['own ambiguous job id 1'],
        completed: '2025-02-30',
        customer: `Harriet ${P['own ambiguous job surname']}`,
        email: [P['own ambiguous job email']],
        phone: P['own ambiguous job phone'],
      },
    ],
  };
  const hcp = housecallproJob() as { jobs: Json[] };
  const [job] = hcp.jobs as [Json];
  const unfinished = {
    ...job,
    work_status: 'complete rated',
    work_timestamps: { ...(job.work_timestamps as Json), completed_at: null },
  };
  const badCustomer = {
    ...job,
    id: `${P['Housecall Pro job id']}-2`,
    customer: { ...(job.customer as Json), email: { value: P['Housecall Pro email'] } },
  };
  writeFileSync(join(dir, 'invalid-jobs.json'), JSON.stringify(own, null, 2));
  writeFileSync(
    join(dir, 'invalid-housecallpro.json'),
    JSON.stringify({ ...hcp, jobs: [unfinished, badCustomer] }, null, 2),
  );
  return { own: join(dir, 'invalid-jobs.json'), housecallpro: join(dir, 'invalid-housecallpro.json') };
}

/** The reviews: none verified by itself but the first; the rest wait for the ledger (by name, by reference, or in vain). */
export const REVIEWS = [
  {
    id: 'own-vouched',
    date: '2025-03-01',
    rating: 5,
    text: 'Booked online, the technician came the next morning and the AC has run cold since.',
    author: 'Marta L.',
    language: 'en',
    verified: true,
  },
  // By name: Quincy Z., nine days after the own ledger's job; it names no technician, service or area: the job's show.
  {
    id: 'own-quincy',
    date: '2025-05-10',
    rating: 5,
    text: 'The AC was blowing warm air; fixed within the hour and the technician cleaned up after himself.',
    author: 'Quincy Z.',
    language: 'en',
  },
  // By reference: the job id the review carries; its author's name fits no job.
  {
    id: 'own-reference',
    date: '2025-05-28',
    rating: 4,
    text: 'Water heater works again, fair price, arrived on time.',
    author: 'Happy Homeowner',
    language: 'en',
    reference: P['own referenced job id'],
  },
  {
    id: 'own-odalys',
    date: '2025-06-10',
    rating: 5,
    text: 'The kitchen drain is clear at last, quick and tidy work.',
    author: 'Odalys Q.',
    language: 'en',
  },
  // Names its technician itself: that stays, the job's area and service are added.
  {
    id: 'own-ximena',
    date: '2025-06-20',
    rating: 4,
    text: 'Luis explained the panel upgrade clearly and finished on schedule.',
    author: 'Ximena V.',
    language: 'en',
    technicians: ['Luis Ortega'],
  },
  {
    id: 'own-yusuf',
    date: '2025-06-15',
    rating: 3,
    text: 'The AC repair took two visits but it works now.',
    author: 'Yusuf W.',
    language: 'en',
  },
  // Two jobs of Harriet K. fit: ambiguous, unpublished, listed by `reviews unmatched` with the jobs' dates only.
  {
    id: 'own-harriet',
    date: '2025-04-25',
    rating: 2,
    text: 'The leak came back a week later.',
    author: 'Harriet K.',
    language: 'en',
  },
  ...CHANDLER.map(({ first, review, text }, i) => ({
    id: `own-chandler-${i + 1}`,
    date: review,
    rating: 5,
    text,
    author: `${first} ${'ABCD'[i]}.`,
    language: 'en',
  })),
  // No job fits: unpublished.
  { id: 'own-norbert', date: '2025-06-01', rating: 1, text: 'Nobody showed up.', author: 'Norbert N.', language: 'en' },
];

/** What each matched review shows once verified: how, and the mentions it takes from its job. */
export const MATCHED = {
  'own-quincy': { method: 'job', technicians: ['Luis Ortega'], services: ['ac-repair'], serviceArea: 'Chandler' },
  'own-reference': {
    method: 'reference',
    technicians: ['Zoë Martínez'],
    services: ['water-heater-repair'],
    serviceArea: 'Scottsdale',
  },
  'own-odalys': { method: 'job', technicians: ['Zoë Martínez'], services: ['drain-cleaning'], serviceArea: 'Gilbert' },
  'own-ximena': { method: 'job', technicians: ['Luis Ortega'], services: ['panel-upgrade'], serviceArea: 'Tempe' },
  'own-yusuf': { method: 'job', technicians: ['Priya Natarajan'], services: ['ac-repair'], serviceArea: 'Surprise' },
  ...Object.fromEntries(
    CHANDLER.map((_, i) => [
      `own-chandler-${i + 1}`,
      { method: 'job', technicians: ['Luis Ortega'], services: ['ac-repair'], serviceArea: 'Chandler' },
    ]),
  ),
} as const;
