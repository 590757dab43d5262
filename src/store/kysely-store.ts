// The Store over Kysely: the same queries serve SQLite and PostgreSQL; engines differ only in how they connect.
import type { Kysely } from 'kysely';
import { Business, type MentionFromJob, type VerificationMethod } from '../reviews/schemas.js';
import { stagedFromOwn, withImportStaging } from './import-staging.js';
import { readVersion, REVIEW_CONTENT_COLUMNS, type ReviewRow } from './rows.js';
import { OperatorStore } from './operator-store.js';
import { KyselyLedgerStore } from './job-ledger.js';
import { loadLanguageDetector } from '../reviews/language.js';
import type { OperatorLogRow } from './operator-log.js';
import { KyselyInsightsStore, type InsightsTables } from './insights-store.js';
import { KyselyWebSubStore, type WebSubTables } from './websub-store.js';
import { KyselyRepresentationStore, type RepresentationTables } from './representation-store.js';
import type { DataVersion, PublishedData, PublishedReview } from '../reviews/published.js';
import { StoredReview } from '../reviews/encoded-reviews.js';
import type { ImportPlan, ImportProgress, ImportStaging, ImportSummary, PublishedChanges, Store } from './types.js';
import { inSnapshot, inTransaction } from './transaction.js';
import { notifyChange } from './dialect.js';
import { readVerificationCounts } from './verification-counts.js';

export interface Database extends WebSubTables, InsightsTables, RepresentationTables {
  store_state: { id: number; revision: number; published_at: string | null };
  business: { id: number; document: string; updated_at: string };
  reviews: ReviewRow;
  mcp_revoked_sessions: { id: string; expires_at: string };
  operator_log: OperatorLogRow;
}

/** Rows read at once when reading what changed (some 10 ms of work). */
const READ_PAGE = 2000;

/** What a published review is made of: not the import's bookkeeping (hash, import time, revision). */
const PUBLISHED_COLUMNS = [
  ...REVIEW_CONTENT_COLUMNS,
  'verification_date',
  'published',
  'updated_at',
  'job_technicians',
  'job_services',
  'job_area',
] as const;

type PublishedRow = Pick<ReviewRow, (typeof PUBLISHED_COLUMNS)[number]>;

/**
 * Makes published reviews from rows. Values that repeat across reviews (dates, times of an import, names, service
 * ids, the lists of them) are kept once per read, not once per review: 100,000 reviews hold a few thousand distinct
 * ones, and the copies would outlive the read.
 */
class ReviewReader {
  private readonly strings = new Map<string, string>();
  private readonly lists = new Map<string, readonly string[]>();

  private once(value: string): string {
    const kept = this.strings.get(value);
    if (kept !== undefined) return kept;
    this.strings.set(value, value);
    return value;
  }

  /** Review objects are never changed in place (a new version is a new object), so equal lists can be one array. */
  private list(json: string): string[] {
    let list = this.lists.get(json);
    if (!list) this.lists.set(json, (list = Object.freeze((JSON.parse(json) as string[]).map((v) => this.once(v)))));
    return list as string[];
  }

  review(row: PublishedRow): PublishedReview {
    // A review matched to a job takes the job's technicians, services and area where it names none itself.
    const fromJob: MentionFromJob[] = [];
    const take = (own: string, job: string | null, field: MentionFromJob) => {
      if (job === null || own !== '[]' || job === '[]') return own;
      fromJob.push(field);
      return job;
    };
    const technicians = take(row.technicians, row.job_technicians, 'technicians');
    const services = take(row.services, row.job_services, 'services');
    const serviceArea =
      row.service_area ?? (row.job_area !== null ? (fromJob.push('serviceArea'), row.job_area) : null);
    const fields: PublishedReview = {
      id: row.id,
      date: this.once(row.date),
      rating: row.rating,
      text: row.text,
      author: this.once(row.author),
      technicians: this.list(technicians),
      services: this.list(services),
      language: this.once(row.language),
      verification: {
        method: (row.verification_method ?? 'operator') as VerificationMethod,
        date: this.once(row.verification_date ?? row.date),
        ...(fromJob.length ? { fromJob } : {}),
      },
      updatedAt: this.once(row.updated_at),
    };
    if (serviceArea !== null) fields.serviceArea = this.once(serviceArea);
    if (row.source !== null) fields.source = this.once(row.source);
    if (row.title !== null) fields.title = row.title;
    if (row.response_date !== null && row.response_text !== null) {
      fields.response = { date: this.once(row.response_date), text: row.response_text };
    }
    if (row.translation_language !== null && row.translation_text !== null) {
      fields.translation = { language: this.once(row.translation_language), text: row.translation_text };
    }
    return new StoredReview(fields);
  }
}

export class KyselyStore implements Store {
  readonly websub: KyselyWebSubStore;
  readonly insights: KyselyInsightsStore;
  readonly representations: KyselyRepresentationStore;
  readonly operator: OperatorStore;
  readonly ledger: KyselyLedgerStore;

  constructor(
    readonly engine: Store['engine'],
    private readonly db: Kysely<Database>,
    /** The engine's way of hearing about writes; without one, only polling notices them. */
    readonly watch: Store['watch'] = () => () => undefined,
    private readonly closeDriver: () => Promise<void> = () => db.destroy(),
  ) {
    // The WebSub store sees only its own tables of the same database.
    this.websub = new KyselyWebSubStore(db as unknown as Kysely<WebSubTables>);
    this.insights = new KyselyInsightsStore(db as unknown as Kysely<InsightsTables>);
    this.representations = new KyselyRepresentationStore(db as unknown as Kysely<RepresentationTables>);
    this.operator = new OperatorStore(db as never);
    this.ledger = new KyselyLedgerStore(db as never);
  }

  currentVersion(): Promise<DataVersion> {
    return readVersion(this.db);
  }

  readBusiness(): Promise<Business | null> {
    return readBusiness(this.db);
  }

  readPublished(): Promise<PublishedData> {
    return inSnapshot(this.db, async (trx) => {
      // A page at a time (newest first, by the published-order index): each page's rows go as soon as its reviews
      // are made, instead of 100,000 rows held until the last one is read (and copied by every collection meanwhile).
      const reader = new ReviewReader();
      const reviews: PublishedReview[] = [];
      for (let last: PublishedRow | undefined; ;) {
        const after = last;
        const page = await trx
          .selectFrom('reviews')
          .select(PUBLISHED_COLUMNS)
          .where('published', '=', 1)
          // A row value: both engines seek the index to it (an OR of the two conditions scans from the top each page).
          .$if(after !== undefined, (qb) =>
            qb.where((eb) => eb(eb.refTuple('date', 'id'), '<', eb.tuple(after!.date, after!.id))),
          )
          .orderBy('date', 'desc')
          .orderBy('id', 'desc')
          .limit(READ_PAGE)
          .execute();
        for (const row of page) reviews.push(reader.review(row));
        if (page.length < READ_PAGE) break;
        last = page.at(-1);
      }
      return {
        version: await readVersion(trx),
        business: await readBusiness(trx),
        verification: await readVerificationCounts(trx),
        reviews,
      };
    });
  }

  readChanges(revision: number, known: ReadonlyMap<string, unknown>): Promise<PublishedChanges> {
    return inSnapshot(this.db, async (trx) => {
      // Read a page at a time, with a turn of the event loop between pages: after an import of 330,000 reviews, one
      // read of every changed row would hold a server's thread for seconds (SQLite answers synchronously).
      const upsert: PublishedReview[] = [];
      const remove: string[] = [];
      const reader = new ReviewReader();
      for (let after = ''; ;) {
        const page = await trx
          .selectFrom('reviews')
          .select(PUBLISHED_COLUMNS)
          .where('revision', '>', revision)
          .where('id', '>', after)
          .orderBy('id')
          .limit(READ_PAGE)
          .execute();
        for (const row of page) {
          if (row.published === 1) upsert.push(reader.review(row));
          else if (known.has(row.id)) remove.push(row.id);
        }
        if (page.length < READ_PAGE) break;
        after = page.at(-1)!.id;
        await new Promise((done) => setImmediate(done));
      }
      // A removed record leaves no row behind. Removals happened exactly when fewer reviews are published than the
      // changes account for; only then are all published ids read, to find which.
      let expected = known.size - remove.length;
      for (const r of upsert) if (!known.has(r.id)) expected++;
      const published = await trx
        .selectFrom('reviews')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('published', '=', 1)
        .executeTakeFirstOrThrow();
      if (Number(published.n) !== expected) {
        const ids = new Set(
          (await trx.selectFrom('reviews').select('id').where('published', '=', 1).execute()).map((r) => r.id),
        );
        const listed = new Set(remove);
        for (const id of known.keys()) if (!ids.has(id) && !listed.has(id)) remove.push(id);
      }
      return {
        version: await readVersion(trx),
        business: await readBusiness(trx),
        verification: await readVerificationCounts(trx),
        delta: { reset: false, upsert, remove },
      };
    });
  }

  stageImport<T>(work: (staging: ImportStaging) => Promise<T>): Promise<T> {
    return withImportStaging(this.db, work);
  }

  async applyImport(plan: ImportPlan, onProgress?: ImportProgress): Promise<ImportSummary> {
    if (plan.reviews.some((r) => r.language === undefined)) await loadLanguageDetector();
    return this.stageImport(async (staging) => {
      await staging.add(
        plan.reviews.map((review, i) => ({ review: stagedFromOwn(review), location: `reviews[${i}]` })),
      );
      await staging.retain(plan.retainIds ?? []);
      return staging.apply(
        { replace: plan.replace, ...(plan.business ? { business: plan.business } : {}) },
        onProgress,
      );
    });
  }

  async revokeSession(id: string, expiresAt: string): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      // Pruning rides on every 100th record (the expiry index keeps it short), not on each.
      if (Math.random() < 0.01)
        await trx.deleteFrom('mcp_revoked_sessions').where('expires_at', '<=', new Date().toISOString()).execute();
      await trx
        .insertInto('mcp_revoked_sessions')
        .values({ id, expires_at: expiresAt })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
      await notifyChange(trx, { kind: 'revoked', id });
    });
  }

  async sessionRevokedUntil(id: string, now: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('mcp_revoked_sessions')
      .select('expires_at')
      .where('id', '=', id)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row?.expires_at;
  }

  close(): Promise<void> {
    return this.closeDriver();
  }
}

async function readBusiness(trx: Kysely<Database>): Promise<Business | null> {
  const row = await trx.selectFrom('business').select('document').where('id', '=', 1).executeTakeFirst();
  return row ? Business.parse(JSON.parse(row.document)) : null;
}
