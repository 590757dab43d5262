// The job import, from files to one applied transaction: the source's adapter reads (and, for a system exported in
// several files, joins) completed jobs; each is checked here (its completion, its services against the catalogue,
// its customer's name as the rule reads it) and staged; the apply writes them and matches the reviews they touch.
// A job's id, contacts and last name go on to the store, which keeps only their keyed hashes; no problem quotes them.
import { isCalendarDate, localDate, parseInstant } from '../../reviews/dates.js';
import type { Business } from '../../reviews/schemas.js';
import { fold } from '../../reviews/text.js';
import type { ImportProgress, JobImportSummary, LocatedJob, StagedJob, Store } from '../../store/types.js';
import type { ImportIssue } from '../reading.js';
import { unreadable } from '../fields.js';
import type { JobAdapter, LedgerJob } from './job-adapter.js';
import { ownJobs } from './own-jobs.js';
import { matcher, nameOf } from './rule.js';
import { housecallpro } from './housecallpro.js';
import { jobber } from './jobber.js';
import { servicetitan } from './servicetitan.js';

const JOB_SOURCES: readonly JobAdapter[] = [housecallpro, jobber, servicetitan];

/** The names `import-jobs --from` accepts. */
export const JOB_SOURCE_NAMES = JOB_SOURCES.map((s) => s.name);

export interface JobImportRequest {
  files: string[];
  /** The field-service system the files come from; the service's own ledger format without one. */
  from?: string;
  /** Import the valid jobs of files with invalid ones. */
  skipInvalid: boolean;
  /** The verification rule's window (`VERIFY_WINDOW_DAYS`). */
  windowDays: number;
}

export interface JobImportEvents {
  problem: (issue: ImportIssue) => void;
  skipped?: (issue: ImportIssue) => void;
  read?: (bytesRead: number, size: number) => void;
  written?: ImportProgress;
}

export interface JobImportResult {
  source: string;
  records: number;
  rejected: number;
  skipped: number;
  /** Jobs whose customer name the rule cannot read (no first name or no last name): they match by reference only. */
  unnamed: number;
  /** Services the files named that the business's catalogue does not know (left out). */
  unknownServices: number;
  summary: JobImportSummary;
}

export type JobImportOutcome =
  { ok: true; result: JobImportResult } | { ok: false; message: string; problems?: number };

const folded = (s: string) => fold(s).trim();

/** What the business's catalogue knows, to name a job's services and technicians the way its reviews do. */
class Catalogue {
  private readonly services = new Map<string, string>();
  private readonly technicians = new Map<string, string>();

  constructor(business: Business | null) {
    for (const s of business?.services ?? []) {
      this.services.set(folded(s.id), s.id);
      this.services.set(folded(s.name), s.id);
    }
    for (const t of business?.technicians ?? [])
      for (const name of [t.name, ...(t.aliases ?? [])]) this.technicians.set(folded(name), t.name);
  }

  get knowsServices(): boolean {
    return this.services.size > 0;
  }

  service(name: string): string | undefined {
    return this.services.get(folded(name));
  }

  technician(name: string): string {
    return this.technicians.get(folded(name)) ?? name.trim();
  }
}

/** The adapter `--from` names (any case); the service's own format without one. */
function adapterNamed(from: string | undefined): JobAdapter | undefined {
  return from === undefined ? ownJobs : JOB_SOURCES.find((s) => s.name === from.toLowerCase());
}

interface JobCounts {
  records: number;
  rejected: number;
  skipped: number;
  problems: number;
  /** Problems of a file as a whole (not of one job): --skip-invalid does not pass over them. */
  fileProblems: number;
  unnamed: number;
  unknownServices: number;
}

/** The refusal of an import that found problems it may not skip. */
function nothingChanged(counts: JobCounts): JobImportOutcome {
  const n = (x: number) => x.toLocaleString('en-US');
  const what = counts.rejected
    ? `${n(counts.rejected)} of ${n(counts.records)} jobs are invalid`
    : 'the files are invalid';
  const hint = counts.fileProblems ? '' : ' (use --skip-invalid to import the valid ones)';
  return {
    ok: false,
    message: `${what} (${counts.problems === 1 ? '1 problem' : `${n(counts.problems)} problems`}); nothing was changed${hint}`,
    problems: counts.problems,
  };
}

export async function importJobs(
  store: Store,
  request: JobImportRequest,
  events: JobImportEvents,
): Promise<JobImportOutcome> {
  const adapter = adapterNamed(request.from);
  if (!adapter)
    return {
      ok: false,
      message: `unknown job source "${request.from}"; expected one of ${JOB_SOURCE_NAMES.join(', ')}`,
    };
  if (!request.files.length) return { ok: false, message: 'import-jobs takes at least one file' };
  const missing = await unreadable(request.files);
  if (missing) return { ok: false, message: missing };
  const business = await store.readBusiness();
  const catalogue = new Catalogue(business);
  const today = localDate(new Date(), business?.timeZone);
  const counts = { records: 0, rejected: 0, skipped: 0, problems: 0, fileProblems: 0, unnamed: 0, unknownServices: 0 };
  const refuse = (issues: ImportIssue[]) => {
    counts.rejected++;
    counts.problems += issues.length;
    for (const issue of issues) events.problem(issue);
  };
  /** Ids of jobs the files hold but not as completed. */
  const withdrawn: string[] = [];
  const summary = await store.ledger.stageJobs(async (staging) => {
    for await (const item of adapter.read(request.files, events.read)) {
      if (item.kind === 'problem') {
        counts.problems++;
        counts.fileProblems++;
        events.problem({ file: item.file, location: item.location, field: item.field, reason: item.reason });
        continue;
      }
      const batch: LocatedJob[] = [];
      for (const { file, location, mapped } of item.records) {
        counts.records++;
        if (mapped.kind === 'skip') {
          counts.skipped++;
          if (mapped.id !== undefined) withdrawn.push(mapped.id);
          events.skipped?.({ file, location, field: '(record)', reason: mapped.reason });
        } else if (mapped.kind === 'invalid') refuse(mapped.problems.map((p) => ({ file, location, ...p })));
        else {
          const checked = check(mapped.job, {
            catalogue,
            timeZone: business?.timeZone,
            today,
            own: adapter === ownJobs,
          });
          if ('problems' in checked) refuse(checked.problems.map((p) => ({ file, location, ...p })));
          else {
            if (checked.job.nameKey === null) counts.unnamed++;
            counts.unknownServices += checked.unknownServices;
            batch.push({ job: checked.job, location: `${file}: ${location}` });
          }
        }
      }
      await staging.withdraw(withdrawn.splice(0));
      for (const d of await staging.add(batch)) {
        const [file, location] = splitLocation(d.location);
        const issue = { file, location, field: 'id', reason: `the same job id as ${d.first}` };
        // A system's pages can overlap (a job that moved while they were fetched): the first copy is kept.
        if (adapter === ownJobs) refuse([issue]);
        else {
          counts.skipped++;
          events.skipped?.(issue);
        }
      }
    }
    if (counts.problems && (!request.skipInvalid || counts.fileProblems)) return null;
    return staging.apply(
      { source: adapter.name, files: request.files, match: matcher(request.windowDays) },
      events.written,
    );
  });
  if (!summary) return nothingChanged(counts);
  const { records, rejected, skipped, unnamed, unknownServices } = counts;
  return { ok: true, result: { source: adapter.name, records, rejected, skipped, unnamed, unknownServices, summary } };
}

function splitLocation(located: string): [string, string] {
  const at = located.lastIndexOf(': ');
  return at < 0 ? ['', located] : [located.slice(0, at), located.slice(at + 2)];
}

/** A job as the ledger stages it, or what is wrong with it (never quoting its customer's contacts or its id). */
function check(
  job: LedgerJob,
  at: { catalogue: Catalogue; timeZone: string | undefined; today: string; own: boolean },
): { job: StagedJob; unknownServices: number } | { problems: { field: string; reason: string }[] } {
  const problems: { field: string; reason: string }[] = [];
  const completed = job.completed.trim();
  const instant = isCalendarDate(completed) ? undefined : parseInstant(completed);
  const date = isCalendarDate(completed) ? completed : instant ? localDate(instant, at.timeZone) : undefined;
  // The value is not quoted: an export whose columns slipped could have a contact there.
  if (date === undefined) problems.push({ field: 'completed', reason: 'not a date (YYYY-MM-DD) or an RFC 3339 time' });
  else if (date > at.today)
    problems.push({ field: 'completed', reason: `${date} is in the future: only completed jobs are proof` });
  const services: string[] = [];
  let unknownServices = 0;
  job.services.forEach((name, i) => {
    const id = at.catalogue.service(name);
    if (id !== undefined) services.push(id);
    else if (at.own && at.catalogue.knowsServices)
      problems.push({ field: `services.${i}`, reason: "unknown service (not in the business's catalogue)" });
    else unknownServices++;
  });
  if (problems.length) return { problems };
  const name =
    job.customer.name !== undefined
      ? nameOf(job.customer.name)
      : nameOf({ firstName: job.customer.firstName ?? '', lastName: job.customer.lastName ?? '' });
  return {
    job: {
      id: job.id,
      aliases: job.aliases,
      date: date!,
      nameKey: name?.key ?? null,
      lastName: name?.last ?? null,
      emails: job.emails,
      phones: job.phones,
      technicians: [...new Set(job.technicians.map((t) => at.catalogue.technician(t)).filter(Boolean))],
      services: [...new Set(services)],
      area: job.area?.trim() || null,
    },
    unknownServices,
  };
}
