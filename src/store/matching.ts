// The matching run: finds, for each review in a scope, the jobs that share its reference or its name key, lets the
// rule decide, and writes what changed (verification, the candidates of an ambiguous match, what the review takes
// from its job), in the caller's transaction. A review import matches the reviews it wrote; a job import, the
// reviews its jobs' names and references touch; a change of the window, every review.
import { sql, type QueryExecutorProvider } from 'kysely';
import type { Matcher, MatchJob, MatchReview, MatchSummary } from './types.js';
import { keyedHash, ledgerKey } from './ledger-hash.js';
import { DEFAULT_WINDOW_DAYS } from '../reviews/verification.js';

/** The reviews a run looks at: all, those written at one revision, or those with these name keys or references. */
export type MatchScope =
  | { kind: 'all' }
  | { kind: 'revision'; revision: number }
  | { kind: 'keys'; nameKeys: ReadonlySet<string>; references: ReadonlySet<string> };

interface ReviewMatchRow {
  id: string;
  /** The review's own mentions (JSON lists), which a job's fill only where empty. */
  technicians: string;
  services: string;
  service_area: string | null;
  date: string;
  author: string;
  author_anonymous: number;
  reference: string | null;
  name_key: string | null;
  verification_method: string | null;
  verification_date: string | null;
  verification_locked: number;
  removed_at: string | null;
  withdrawn_at: string | null;
  published: number;
  match_state: string | null;
  match_candidates: string | null;
  job_technicians: string | null;
  job_services: string | null;
  job_area: string | null;
}

interface JobRow {
  source: string;
  id_hash: string;
  completed_date: string;
  name_key: string | null;
  last_hash: string | null;
  contact_hashes: string;
  technicians: string;
  services: string;
  area: string | null;
}

/** Values per `IN (…)` list: well under both engines' bound-parameter limits. */
const IN_BATCH = 500;

const REVIEW_COLUMNS = sql`id, date, author, author_anonymous, reference, name_key, technicians, services, service_area, verification_method, verification_date,
  verification_locked, removed_at, withdrawn_at, published, match_state, match_candidates, job_technicians, job_services, job_area`;

/** The columns of a review the run may change. */
type Verdict = Pick<
  ReviewMatchRow,
  | 'name_key'
  | 'verification_method'
  | 'verification_date'
  | 'published'
  | 'match_state'
  | 'match_candidates'
  | 'job_technicians'
  | 'job_services'
  | 'job_area'
>;

/** A review the ledger decides: neither the operator's decision nor the operator's or the platform's word stands on it. */
function ledgerDecides(row: ReviewMatchRow): boolean {
  return (
    row.verification_locked === 0 &&
    (row.verification_method === null || row.verification_method === 'job' || row.verification_method === 'reference')
  );
}

async function* inBatches<T>(values: Iterable<string>, read: (batch: string[]) => Promise<T[]>): AsyncGenerator<T> {
  const all = [...values];
  for (let i = 0; i < all.length; i += IN_BATCH) yield* await read(all.slice(i, i + IN_BATCH));
}

/** Reviews matched at once: with their candidates, what a run holds in memory. */
const PAGE = 2000;
/** Name keys (or references) whose reviews are matched at once, in a `keys` scope. */
const KEYS_PAGE = 200;

/** A review the ledger could decide that no run has read yet (stored before the ledger, or by an import that did not match). */
const UNKEYED = sql`name_key IS NULL AND match_state IS NULL AND author_anonymous = 0 AND verification_locked = 0
  AND (verification_method IS NULL OR verification_method IN ('job', 'reference'))`;

/** The scope's reviews a page at a time, each review once. */
async function* reviewPages(db: QueryExecutorProvider, scope: MatchScope): AsyncGenerator<ReviewMatchRow[]> {
  const byId = async function* (where: ReturnType<typeof sql>) {
    for (let after = ''; ;) {
      const { rows } =
        await sql<ReviewMatchRow>`SELECT ${REVIEW_COLUMNS} FROM reviews WHERE ${where} AND id > ${after} ORDER BY id LIMIT ${PAGE}`.execute(
          db,
        );
      if (rows.length) yield rows;
      if (rows.length < PAGE) return;
      after = rows.at(-1)!.id;
    }
  };
  if (scope.kind === 'all') return yield* byId(sql`1 = 1`);
  if (scope.kind === 'revision') return yield* byId(sql`revision = ${scope.revision}`);
  const seen = new Set<string>();
  const fresh = (rows: ReviewMatchRow[]) => rows.filter((row) => !seen.has(row.id) && seen.add(row.id));
  for (const [column, values] of [
    ['name_key', [...scope.nameKeys]],
    ['reference', [...scope.references]],
  ] as const) {
    for (let i = 0; i < values.length; i += KEYS_PAGE) {
      const { rows } =
        await sql<ReviewMatchRow>`SELECT ${REVIEW_COLUMNS} FROM reviews WHERE ${sql.ref(column)} IN (${sql.join(values.slice(i, i + KEYS_PAGE))})`.execute(
          db,
        );
      const page = fresh(rows);
      if (page.length) yield page;
    }
  }
  for await (const rows of byId(UNKEYED)) {
    const page = fresh(rows);
    if (page.length) yield page;
  }
}

/** A job as the rule sees it, with what a review it matches takes from it (as stored: JSON lists, read only then). */
interface CandidateJob extends MatchJob {
  fill: Pick<JobRow, 'technicians' | 'services' | 'area'>;
}

function toJob(row: JobRow): CandidateJob {
  return {
    key: `${row.source}:${row.id_hash}`,
    date: row.completed_date,
    nameKey: row.name_key,
    lastName: row.last_hash,
    contacts: JSON.parse(row.contact_hashes) as string[],
    fill: { technicians: row.technicians, services: row.services, area: row.area },
  };
}

const JOB_COLUMNS = sql`j.source, j.id_hash, j.completed_date, j.name_key, j.last_hash, j.contact_hashes, j.technicians, j.services, j.area`;

/**
 * The candidate jobs of a run, by name key and by reference, read as pages of reviews ask for keys not read yet:
 * a run over every review reads each job once (a page's keys are most of the keys there are), not once a page.
 */
class Candidates {
  readonly byName = new Map<string, CandidateJob[]>();
  readonly byReference = new Map<string, CandidateJob[]>();

  constructor(private readonly db: QueryExecutorProvider) {}

  async load(nameKeys: Iterable<string>, references: Iterable<string>): Promise<void> {
    const newNames = [...nameKeys].filter((k) => !this.byName.has(k));
    const newReferences = [...references].filter((r) => !this.byReference.has(r));
    for (const key of newNames) this.byName.set(key, []);
    for (const ref of newReferences) this.byReference.set(ref, []);
    const named = inBatches(
      newNames,
      async (keys) =>
        (await sql<JobRow>`SELECT ${JOB_COLUMNS} FROM jobs j WHERE j.name_key IN (${sql.join(keys)})`.execute(this.db))
          .rows,
    );
    for await (const row of named) this.byName.get(row.name_key!)!.push(toJob(row));
    const referenced = inBatches(
      newReferences,
      async (refs) =>
        (
          await sql<JobRow & { ref_hash: string }>`SELECT k.ref_hash, ${JOB_COLUMNS} FROM job_references k
        JOIN jobs j ON j.source = k.source AND j.id_hash = k.id_hash WHERE k.ref_hash IN (${sql.join(refs)})`.execute(
            this.db,
          )
        ).rows,
    );
    for await (const row of referenced) this.byReference.get(row.ref_hash)!.push(toJob(row));
  }
}

/** Runs the rule over the scope's reviews and writes what changed with `revision`; answers whether the published set changed. */
export async function runMatch(
  db: QueryExecutorProvider,
  match: Matcher,
  scope: MatchScope,
  at: { revision: number; now: string; today: string },
): Promise<{ summary: MatchSummary; changed: number; publishedChanged: boolean }> {
  const started = performance.now();
  const state = await sql<{ matched_window_days: number | null; matched_rule: string | null }>`
    SELECT matched_window_days, matched_rule FROM ledger_state WHERE id = 1`.execute(db);
  const last = state.rows[0];
  // Reviews were last matched by another rule or window (or never, in a store made before the ledger): all are due.
  const ruleChanged =
    last?.matched_rule !== match.version || Number(last?.matched_window_days ?? -1) !== match.windowDays;
  // The published rule names the window (the default until a run set it): only another window changes its words.
  const windowChanged = Number(last?.matched_window_days ?? DEFAULT_WINDOW_DAYS) !== match.windowDays;
  const hashKey = await ledgerKey(db);
  const summary: MatchSummary = { examined: 0, verified: 0, unverified: 0, refilled: 0, ms: 0 };
  let publishedChanged = false;
  let changed = 0;
  const jobs = new Candidates(db);
  for await (const rows of reviewPages(db, ruleChanged ? { kind: 'all' } : scope)) {
    const nameKeys = new Set<string>();
    const references = new Set<string>();
    const keyed = rows.map((row) => {
      const name = row.author_anonymous ? undefined : match.nameOf(row.author);
      const nameKey = name?.key ?? null;
      if (ledgerDecides(row)) {
        if (nameKey !== null) nameKeys.add(nameKey);
        if (row.reference !== null) references.add(row.reference);
      }
      return { row, nameKey, lastName: name?.last ? keyedHash(hashKey, name.last) : null };
    });
    await jobs.load(nameKeys, references);
    const writes: (Verdict & { id: string; shown: boolean })[] = [];
    for (const { row, nameKey, lastName } of keyed) {
      const verdict = verdictOf(row, { nameKey, lastName }, match, jobs, at.today);
      if (ledgerDecides(row)) summary.examined++;
      if (!differs(row, verdict)) continue;
      if (verdict.verification_method !== null && row.verification_method === null) summary.verified++;
      if (verdict.verification_method === null && row.verification_method !== null) summary.unverified++;
      const fromJob =
        verdict.job_technicians !== row.job_technicians ||
        verdict.job_services !== row.job_services ||
        verdict.job_area !== row.job_area;
      if (fromJob && (verdict.job_area !== null || verdict.job_technicians !== '[]' || verdict.job_services !== '[]'))
        summary.refilled++;
      const shown = showsChange(row, verdict);
      if (verdict.published !== row.published || (verdict.published === 1 && shown)) publishedChanged = true;
      changed++;
      writes.push({ id: row.id, ...verdict, shown });
    }
    for (let i = 0; i < writes.length; i += WRITE_BATCH) await writeVerdicts(db, writes.slice(i, i + WRITE_BATCH), at);
  }
  if (ruleChanged)
    await sql`UPDATE ledger_state SET matched_window_days = ${match.windowDays}, matched_rule = ${match.version} WHERE id = 1`.execute(
      db,
    );
  // The rule sentence names the window: another one is a change of the published data, committed as a revision.
  if (windowChanged) changed++;
  summary.ms = Math.round(performance.now() - started);
  // The published rule names the window: a new one is a change of the published data.
  return { summary, changed, publishedChanged: publishedChanged || windowChanged };
}

function verdictOf(
  row: ReviewMatchRow,
  { nameKey, lastName }: Pick<MatchReview, 'nameKey' | 'lastName'>,
  match: Matcher,
  jobs: Candidates,
  today: string,
): Verdict {
  // A review the ledger does not decide keeps its name key as it is: a run over it changes nothing of it.
  const kept = {
    name_key: row.name_key,
    verification_method: row.verification_method,
    verification_date: row.verification_date,
    published: row.published,
  };
  if (!ledgerDecides(row))
    return {
      ...kept,
      match_state: null,
      match_candidates: null,
      job_technicians: null,
      job_services: null,
      job_area: null,
    };
  const review: MatchReview = {
    id: row.id,
    date: row.date,
    nameKey,
    lastName,
    reference: row.reference,
    anonymous: row.author_anonymous === 1,
  };
  const outcome = match.decide(
    review,
    row.reference ? (jobs.byReference.get(row.reference) ?? []) : [],
    nameKey ? (jobs.byName.get(nameKey) ?? []) : [],
  );
  const method = outcome.kind === 'matched' ? outcome.method : null;
  // The rule answers one of the candidates it was given: ours, with what the review takes from it.
  const job = outcome.kind === 'matched' ? (outcome.job as CandidateJob).fill : undefined;
  return {
    name_key: nameKey,
    verification_method: method,
    verification_date: method === null ? null : method === row.verification_method ? row.verification_date : today,
    published: method !== null && row.removed_at === null && row.withdrawn_at === null ? 1 : 0,
    match_state: outcome.kind,
    match_candidates: outcome.kind === 'ambiguous' ? JSON.stringify(outcome.dates) : null,
    job_technicians: job ? job.technicians : null,
    job_services: job ? job.services : null,
    job_area: job?.area ?? null,
  };
}

/**
 * What a published review shows changed: its verification, or what it takes from its job where it names none
 * itself (a job's technicians are not shown on a review that names its own). Only then is its `updated_at` (the
 * feeds' modification time) moved.
 */
function showsChange(
  row: ReviewMatchRow & { technicians: string; services: string; service_area: string | null },
  verdict: Verdict,
): boolean {
  if (row.verification_method !== verdict.verification_method || row.verification_date !== verdict.verification_date)
    return true;
  return (
    (row.technicians === '[]' && row.job_technicians !== verdict.job_technicians) ||
    (row.services === '[]' && row.job_services !== verdict.job_services) ||
    (row.service_area === null && row.job_area !== verdict.job_area)
  );
}

/** Verdicts written per statement: SQLite takes a compound SELECT of at most 500 terms. */
const WRITE_BATCH = 400;

/** One statement for a batch of verdicts (a row at a time was 100,000 round trips on PostgreSQL). */
async function writeVerdicts(
  db: QueryExecutorProvider,
  verdicts: (Verdict & { id: string; shown: boolean })[],
  at: { revision: number; now: string },
): Promise<void> {
  const rows = verdicts.map(
    (v) =>
      sql`SELECT ${v.id} AS id, ${v.name_key} AS name_key, ${v.verification_method} AS verification_method, ${v.verification_date} AS verification_date,
        ${String(v.published)} AS published, ${v.match_state} AS match_state, ${v.match_candidates} AS match_candidates,
        ${v.job_technicians} AS job_technicians, ${v.job_services} AS job_services, ${v.job_area} AS job_area, ${String(v.shown ? 1 : 0)} AS shown`,
  );
  await sql`UPDATE reviews SET name_key = v.name_key, verification_method = v.verification_method, verification_date = v.verification_date,
      published = CAST(v.published AS integer), match_state = v.match_state, match_candidates = v.match_candidates,
      job_technicians = v.job_technicians, job_services = v.job_services, job_area = v.job_area,
      updated_at = CASE WHEN v.shown = '1' THEN ${at.now} ELSE reviews.updated_at END, revision = ${at.revision}
    FROM (${sql.join(rows, sql` UNION ALL `)}) AS v WHERE reviews.id = v.id`.execute(db);
}

function differs(row: ReviewMatchRow, verdict: Verdict): boolean {
  return (Object.keys(verdict) as (keyof Verdict)[]).some((key) => row[key] !== verdict[key]);
}
