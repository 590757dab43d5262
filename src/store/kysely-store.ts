// The Store over Kysely: the same queries serve SQLite and PostgreSQL; engines differ only in how they connect.
import { createHash } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { Business, type ImportedReview } from '../reviews/schemas.js';
import { KyselyInsightsStore, type InsightsTables } from './insights-store.js';
import { KyselyWebSubStore, type WebSubTables } from './websub-store.js';
import type { DataVersion, PublishedData, PublishedReview } from '../reviews/published.js';
import type { ImportPlan, ImportProgress, ImportSummary, PublishedChanges, Store } from './types.js';
import { inTransaction } from './transaction.js';

export interface ReviewRow {
  id: string;
  date: string;
  rating: number;
  text: string;
  author: string;
  technicians: string;
  services: string;
  service_area: string | null;
  source: string | null;
  title: string | null;
  response_date: string | null;
  response_text: string | null;
  verified: number;
  content_hash: string;
  imported_at: string;
  updated_at: string;
  /** The store revision that last wrote the row. */
  revision: number;
}

export interface Database extends WebSubTables, InsightsTables {
  store_state: { id: number; revision: number; published_at: string | null };
  business: { id: number; document: string; updated_at: string };
  reviews: ReviewRow;
  mcp_revoked_sessions: { id: string; expires_at: string };
}

/** Rows per INSERT: well under SQLite's and PostgreSQL's bound-parameter limits (17 columns each). */
const WRITE_BATCH = 500;
/** Rows read at once when reading what changed (some 10 ms of work). */
const READ_PAGE = 2000;

function canonicalRecord(r: ImportedReview): string {
  // Fixed key order, so the hash says "same content" regardless of how the file ordered its fields.
  return JSON.stringify([
    r.id, r.date, r.rating, r.text, r.author, r.technicians, r.services, r.serviceArea ?? null,
    r.source ?? null, r.title ?? null, r.response?.date ?? null, r.response?.text ?? null, r.verified,
  ]);
}

function toRow(r: ImportedReview, now: string, revision: number): ReviewRow {
  return {
    id: r.id,
    date: r.date,
    rating: r.rating,
    text: r.text,
    author: r.author,
    technicians: JSON.stringify(r.technicians),
    services: JSON.stringify(r.services),
    service_area: r.serviceArea ?? null,
    source: r.source ?? null,
    title: r.title ?? null,
    response_date: r.response?.date ?? null,
    response_text: r.response?.text ?? null,
    verified: r.verified ? 1 : 0,
    content_hash: createHash('sha256').update(canonicalRecord(r)).digest('base64url'),
    imported_at: now,
    updated_at: now,
    revision,
  };
}

function fromRow(row: ReviewRow): PublishedReview {
  const review: PublishedReview = {
    id: row.id,
    date: row.date,
    rating: row.rating,
    text: row.text,
    author: row.author,
    technicians: JSON.parse(row.technicians) as string[],
    services: JSON.parse(row.services) as string[],
    updatedAt: row.updated_at,
  };
  if (row.service_area !== null) review.serviceArea = row.service_area;
  if (row.source !== null) review.source = row.source;
  if (row.title !== null) review.title = row.title;
  if (row.response_date !== null && row.response_text !== null) {
    review.response = { date: row.response_date, text: row.response_text };
  }
  return review;
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export class KyselyStore implements Store {
  readonly websub: KyselyWebSubStore;
  readonly insights: KyselyInsightsStore;

  constructor(
    readonly engine: 'sqlite',
    private readonly db: Kysely<Database>,
    /** The engine's way of hearing about writes; without one, only polling notices them. */
    readonly watch: Store['watch'] = () => () => undefined,
    private readonly closeDriver: () => Promise<void> = () => db.destroy(),
  ) {
    // The WebSub store sees only its own tables of the same database.
    this.websub = new KyselyWebSubStore(db as unknown as Kysely<WebSubTables>);
    this.insights = new KyselyInsightsStore(db as unknown as Kysely<InsightsTables>);
  }

  currentVersion(): Promise<DataVersion> {
    return readVersion(this.db);
  }

  readBusiness(): Promise<Business | null> {
    return readBusiness(this.db);
  }

  readPublished(): Promise<PublishedData> {
    return inTransaction(this.db, async (trx) => {
      const rows = await trx
        .selectFrom('reviews')
        .selectAll()
        .where('verified', '=', 1)
        .orderBy('date', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return { version: await readVersion(trx), business: await readBusiness(trx), reviews: rows.map(fromRow) };
    });
  }

  readChanges(revision: number, known: ReadonlyMap<string, unknown>): Promise<PublishedChanges> {
    return inTransaction(this.db, async (trx) => {
      // Read a page at a time, with a turn of the event loop between pages: after an import of 330,000 reviews, one
      // read of every changed row would hold a server's thread for seconds (SQLite answers synchronously).
      const upsert: PublishedReview[] = [];
      const remove: string[] = [];
      for (let after = ''; ; ) {
        const page = await trx.selectFrom('reviews').selectAll().where('revision', '>', revision).where('id', '>', after).orderBy('id').limit(READ_PAGE).execute();
        for (const row of page) {
          if (row.verified === 1) upsert.push(fromRow(row));
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
        .where('verified', '=', 1)
        .executeTakeFirstOrThrow();
      if (Number(published.n) !== expected) {
        const ids = new Set((await trx.selectFrom('reviews').select('id').where('verified', '=', 1).execute()).map((r) => r.id));
        const listed = new Set(remove);
        for (const id of known.keys()) if (!ids.has(id) && !listed.has(id)) remove.push(id);
      }
      return { version: await readVersion(trx), business: await readBusiness(trx), delta: { reset: false, upsert, remove } };
    });
  }

  applyImport(plan: ImportPlan, onProgress?: ImportProgress): Promise<ImportSummary> {
    return inTransaction(this.db, (trx) => applyImportIn(trx, plan, onProgress));
  }

  async revokeSession(id: string, expiresAt: string): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      // Pruning rides on every 100th record (the expiry index keeps it short), not on each.
      if (Math.random() < 0.01) await trx.deleteFrom('mcp_revoked_sessions').where('expires_at', '<=', new Date().toISOString()).execute();
      await trx
        .insertInto('mcp_revoked_sessions')
        .values({ id, expires_at: expiresAt })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
    });
  }

  async sessionRevokedUntil(id: string, now: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('mcp_revoked_sessions').select('expires_at').where('id', '=', id).where('expires_at', '>', now).executeTakeFirst();
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

async function readVersion(trx: Kysely<Database>): Promise<DataVersion> {
  const state = await trx
    .selectFrom('store_state')
    .select(['revision', 'published_at'])
    .where('id', '=', 1)
    .executeTakeFirstOrThrow();
  return { revision: Number(state.revision), publishedAt: state.published_at };
}

async function applyImportIn(
  trx: Transaction<Database>,
  plan: ImportPlan,
  onProgress: ImportProgress | undefined,
): Promise<ImportSummary> {
  const now = new Date().toISOString();
  // Rows written here carry the revision this import commits as.
  const revision = (await readVersion(trx)).revision + 1;
  const existing = new Map<string, { hash: string; verified: boolean }>();
  for (const row of await trx.selectFrom('reviews').select(['id', 'content_hash', 'verified']).execute()) {
    existing.set(row.id, { hash: row.content_hash, verified: row.verified === 1 });
  }

  let publishedChanged = false;
  const writes: ReviewRow[] = [];
  let added = 0;
  let updated = 0;
  let unchanged = 0;
  const incomingIds = new Set<string>();
  for (const review of plan.reviews) {
    incomingIds.add(review.id);
    const row = toRow(review, now, revision);
    const before = existing.get(review.id);
    if (!before) added++;
    else if (before.hash !== row.content_hash) updated++;
    else {
      unchanged++;
      continue;
    }
    if (review.verified || before?.verified) publishedChanged = true;
    writes.push(row);
  }
  for (const id of plan.retainIds ?? []) incomingIds.add(id);
  const removals = plan.replace ? [...existing.keys()].filter((id) => !incomingIds.has(id)) : [];
  if (removals.some((id) => existing.get(id)?.verified)) publishedChanged = true;

  let businessChanged = false;
  if (plan.business) {
    const document = JSON.stringify(plan.business);
    const stored = await trx.selectFrom('business').select('document').where('id', '=', 1).executeTakeFirst();
    if (stored?.document !== document) {
      businessChanged = true;
      await trx
        .insertInto('business')
        .values({ id: 1, document, updated_at: now })
        .onConflict((oc) => oc.column('id').doUpdateSet({ document, updated_at: now }))
        .execute();
    }
  }

  const total = writes.length + removals.length;
  let done = 0;
  for (const batch of chunks(writes, WRITE_BATCH)) {
    await trx
      .insertInto('reviews')
      .values(batch)
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({
          date: eb.ref('excluded.date'),
          rating: eb.ref('excluded.rating'),
          text: eb.ref('excluded.text'),
          author: eb.ref('excluded.author'),
          technicians: eb.ref('excluded.technicians'),
          services: eb.ref('excluded.services'),
          service_area: eb.ref('excluded.service_area'),
          source: eb.ref('excluded.source'),
          title: eb.ref('excluded.title'),
          response_date: eb.ref('excluded.response_date'),
          response_text: eb.ref('excluded.response_text'),
          verified: eb.ref('excluded.verified'),
          content_hash: eb.ref('excluded.content_hash'),
          updated_at: eb.ref('excluded.updated_at'),
          revision: eb.ref('excluded.revision'),
        })),
      )
      .execute();
    done += batch.length;
    onProgress?.(done, total);
  }
  for (const batch of chunks(removals, WRITE_BATCH)) {
    await trx.deleteFrom('reviews').where('id', 'in', batch).execute();
    done += batch.length;
    onProgress?.(done, total);
  }

  if (total > 0 || businessChanged) {
    await trx
      .updateTable('store_state')
      .set((eb) => ({
        revision: eb('revision', '+', 1),
        ...(publishedChanged || businessChanged ? { published_at: now } : {}),
      }))
      .where('id', '=', 1)
      .execute();
  }

  const counts = await trx
    .selectFrom('reviews')
    .select(['verified', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('verified')
    .execute();
  const count = (v: number) => Number(counts.find((c) => Number(c.verified) === v)?.n ?? 0);
  return {
    added,
    updated,
    unchanged,
    removed: removals.length,
    businessChanged,
    stored: { verified: count(1), unverified: count(0) },
    version: await readVersion(trx),
  };
}
