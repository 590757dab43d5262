// Numbered schema migrations, shared by every engine; Kysely's Migrator applies the pending ones in order.
import { sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { detectLanguage, loadLanguageDetector } from '../../reviews/language.js';
import { randomBytes } from 'node:crypto';
import { binaryType, isPostgres } from '../dialect.js';
import { keyedHash, normalReference } from '../ledger-hash.js';

const m001Initial: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('store_state')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('revision', 'integer', (c) => c.notNull())
      .addColumn('published_at', 'text')
      .execute();
    await db
      .insertInto('store_state' as never)
      .values({ id: 1, revision: 0, published_at: null } as never)
      .execute();

    await db.schema
      .createTable('business')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('document', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('reviews')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('date', 'text', (c) => c.notNull())
      .addColumn('rating', 'integer', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('author', 'text', (c) => c.notNull())
      .addColumn('technicians', 'text', (c) => c.notNull())
      .addColumn('services', 'text', (c) => c.notNull())
      .addColumn('service_area', 'text')
      .addColumn('source', 'text')
      .addColumn('title', 'text')
      .addColumn('response_date', 'text')
      .addColumn('response_text', 'text')
      .addColumn('verified', 'integer', (c) => c.notNull())
      .addColumn('content_hash', 'text', (c) => c.notNull())
      .addColumn('imported_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('reviews_published_order').on('reviews').columns(['verified', 'date', 'id']).execute();
  },
};

/** Ended MCP sessions (DELETE /mcp), kept until they would have expired, so every replica refuses them. */
const m002McpRevokedSessions: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('mcp_revoked_sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
  },
};

/** WebSub: subscriptions, the content last announced per topic, and the delivery outbox (one row per subscription). */
const m003WebSub: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('websub_subscriptions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('topic', 'text', (c) => c.notNull())
      .addColumn('callback', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('secret', 'text')
      .addColumn('lease_seconds', 'integer')
      .addColumn('expires_at', 'text')
      .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_delivery_at', 'text')
      .addColumn('last_delivery_result', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('websub_subscriptions_topic')
      .on('websub_subscriptions')
      .columns(['topic', 'state'])
      .execute();
    await db.schema
      .createTable('websub_topics')
      .addColumn('topic', 'text', (c) => c.primaryKey())
      .addColumn('content_tag', 'text', (c) => c.notNull())
      .addColumn('revision', 'integer', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('websub_deliveries')
      .addColumn('subscription_id', 'text', (c) => c.primaryKey())
      .addColumn('revision', 'integer', (c) => c.notNull())
      .addColumn('due_at', 'text', (c) => c.notNull())
      .addColumn('claimed_until', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('websub_deliveries_due').on('websub_deliveries').columns(['due_at']).execute();
  },
};

/**
 * Derived data: each review's analysis (keyed by what it was computed from), the insights documents (keyed by the
 * engine version and the published data they describe) and the claims that make one process build each document.
 */
const m004Insights: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('review_analyses')
      .addColumn('review_id', 'text', (c) => c.primaryKey())
      .addColumn('input_key', 'text', (c) => c.notNull())
      .addColumn('analysis', 'text', (c) => c.notNull())
      .addColumn('analysed_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('insights_documents')
      .addColumn('engine_version', 'text', (c) => c.notNull())
      .addColumn('as_of', 'text', (c) => c.notNull())
      .addColumn('generated_at', 'text', (c) => c.notNull())
      .addColumn('last_modified', 'text', (c) => c.notNull())
      .addColumn('review_count', 'integer', (c) => c.notNull())
      .addColumn('document', 'text', (c) => c.notNull())
      .addColumn('document_gzip', binaryType(db))
      .addColumn('document_br', binaryType(db))
      .addPrimaryKeyConstraint('insights_documents_pk', ['engine_version', 'as_of'])
      .execute();
    await db.schema
      .createTable('insights_builds')
      .addColumn('build_key', 'text', (c) => c.primaryKey())
      .addColumn('owner', 'text', (c) => c.notNull())
      .addColumn('claimed_until', 'text', (c) => c.notNull())
      .execute();
  },
};

/**
 * The store revision that last wrote each review, so a server reads only what an import changed. Rows written
 * before it say 0: a server reads everything at start anyway.
 */
const m005ReviewRevision: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('reviews')
      .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('reviews_revision').on('reviews').column('revision').execute();
  },
};

/** Pruning ended MCP sessions finds the expired ones by index, however many there are. */
const m006McpRevokedExpiry: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('mcp_revoked_sessions_expiry')
      .on('mcp_revoked_sessions')
      .column('expires_at')
      .execute();
  },
};

/** The client (address, an IPv6 one by /64) that asked for each subscription, for the per-client cap. */
const m007WebSubClient: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('websub_subscriptions').addColumn('client', 'text').execute();
    await db.schema
      .createIndex('websub_subscriptions_client')
      .on('websub_subscriptions')
      .columns(['client', 'state'])
      .execute();
  },
};

/**
 * The newest data revision each subscriber acknowledged: a change no newer than that, queued before or after the
 * acknowledgement (a worker sends the newest content it serves, which can be newer than the change it claimed), is
 * not sent again.
 */
const m008WebSubDeliveredRevision: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('websub_subscriptions').addColumn('delivered_revision', 'integer').execute();
  },
};

/**
 * Rendered documents per data version (keyed like the insights, by the data and the renderer), and the compressed
 * copies a process made of them (by the tag of the bytes they were made from, in a table of their own so that adding
 * one does not rewrite the document's row): a restart serves them as they were, without rendering or compressing again.
 */
const m009RenderedDocuments: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('rendered_documents')
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('as_of', 'text', (c) => c.notNull())
      .addColumn('render_key', 'text', (c) => c.notNull())
      .addColumn('tag', 'text', (c) => c.notNull())
      .addColumn('body', binaryType(db), (c) => c.notNull())
      .addPrimaryKeyConstraint('rendered_documents_pk', ['name', 'as_of', 'render_key'])
      .execute();
    await db.schema
      .createTable('rendered_copies')
      .addColumn('tag', 'text', (c) => c.notNull())
      .addColumn('coding', 'text', (c) => c.notNull())
      .addColumn('body', binaryType(db), (c) => c.notNull())
      .addPrimaryKeyConstraint('rendered_copies_pk', ['tag', 'coding'])
      .execute();
  },
};

/** Rows whose language is detected per statement when the column is first filled. */
const LANGUAGE_PAGE = 1000;

/**
 * Reviews from where they live: the platform's id and the export they arrived through (`feed`), the upstream time
 * that orders edits, the language (and a platform's translation), how and when a review was verified (an operator's
 * decision is `verification_locked`: no import changes it), the operator's removal (a tombstone) and an upstream
 * deletion (withdrawn), a private job reference; and the log of every operator change. `verified` is renamed
 * `published`, which is what it always meant to the read path: verified, not removed, not withdrawn.
 */
const m010ReviewSources: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('reviews').renameColumn('verified', 'published').execute();
    const columns: [string, 'text' | 'integer'][] = [
      ['language', 'text'],
      ['translation_language', 'text'],
      ['translation_text', 'text'],
      ['verification_method', 'text'],
      ['verification_date', 'text'],
      ['removed_at', 'text'],
      ['removed_reason', 'text'],
      ['withdrawn_at', 'text'],
      ['feed', 'text'],
      ['upstream_updated_at', 'text'],
      ['reference', 'text'],
    ];
    for (const [name, type] of columns) await db.schema.alterTable('reviews').addColumn(name, type).execute();
    await db.schema
      .alterTable('reviews')
      .addColumn('verification_locked', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('reviews')
      .addColumn('author_anonymous', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`UPDATE reviews SET feed = 'own',
      verification_method = CASE WHEN published = 1 THEN 'operator' END,
      verification_date = CASE WHEN published = 1 THEN substr(imported_at, 1, 10) END`.execute(db);
    await fillLanguages(db);
    await db.schema.createIndex('reviews_feed').on('reviews').columns(['feed', 'id']).execute();

    const id = isPostgres(db) ? sql`bigserial` : 'integer';
    await db.schema
      .createTable('operator_log')
      .addColumn('id', id, (c) => (isPostgres(db) ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('review_id', 'text')
      .addColumn('reason', 'text')
      .addColumn('details', 'text')
      .execute();
    await db.schema.createIndex('operator_log_action').on('operator_log').columns(['action', 'id']).execute();
  },
};

/** Detects the language of every stored review, a page at a time (reviews stored before languages were kept). */
async function fillLanguages(db: Kysely<unknown>): Promise<void> {
  const { rows: any } = await sql`SELECT 1 FROM reviews LIMIT 1`.execute(db);
  if (!any.length) return;
  await loadLanguageDetector();
  for (let after = ''; ;) {
    const { rows } = await sql<{ id: string; text: string }>`
      SELECT id, text FROM reviews WHERE id > ${after} ORDER BY id LIMIT ${LANGUAGE_PAGE}`.execute(db);
    if (!rows.length) return;
    const byLanguage = new Map<string, string[]>();
    for (const { id, text } of rows) {
      const language = detectLanguage(text);
      byLanguage.set(language, [...(byLanguage.get(language) ?? []), id]);
    }
    for (const [language, ids] of byLanguage) {
      await sql`UPDATE reviews SET language = ${language} WHERE id IN (${sql.join(ids)})`.execute(db);
    }
    after = rows.at(-1)!.id;
  }
}

/**
 * The job ledger: completed jobs as matching needs them (keyed hashes of their ids and contacts, never the ids,
 * contacts or street addresses themselves), and on each review what its match found. The key of the hashes is the
 * store's own, made here; references reviews carried before are hashed with it in place.
 */
const m011JobLedger: Migration = {
  async up(db: Kysely<unknown>) {
    const key = randomBytes(32).toString('base64url');
    await db.schema
      .createTable('ledger_state')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('hash_key', 'text', (c) => c.notNull())
      .addColumn('matched_window_days', 'integer')
      .addColumn('matched_rule', 'text')
      .execute();
    await sql`INSERT INTO ledger_state (id, hash_key, matched_window_days, matched_rule) VALUES (1, ${key}, NULL, NULL)`.execute(
      db,
    );
    await db.schema
      .createTable('jobs')
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('id_hash', 'text', (c) => c.notNull())
      .addColumn('completed_date', 'text', (c) => c.notNull())
      .addColumn('name_key', 'text')
      .addColumn('last_hash', 'text')
      .addColumn('technicians', 'text', (c) => c.notNull())
      .addColumn('services', 'text', (c) => c.notNull())
      .addColumn('area', 'text')
      .addColumn('contact_hashes', 'text', (c) => c.notNull())
      .addColumn('content_hash', 'text', (c) => c.notNull())
      .addColumn('imported_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('jobs_pk', ['source', 'id_hash'])
      .execute();
    await db.schema.createIndex('jobs_name_key').on('jobs').columns(['name_key', 'completed_date']).execute();
    await db.schema
      .createTable('job_references')
      .addColumn('ref_hash', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('id_hash', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('job_references_pk', ['ref_hash', 'source', 'id_hash'])
      .execute();
    await db.schema.createIndex('job_references_job').on('job_references').columns(['source', 'id_hash']).execute();
    for (const name of ['name_key', 'match_state', 'match_candidates', 'job_technicians', 'job_services', 'job_area']) {
      await db.schema.alterTable('reviews').addColumn(name, 'text').execute();
    }
    await db.schema.createIndex('reviews_name_key').on('reviews').column('name_key').execute();
    await db.schema.createIndex('reviews_reference').on('reviews').column('reference').execute();
    const { rows } = await sql<{
      id: string;
      reference: string;
    }>`SELECT id, reference FROM reviews WHERE reference IS NOT NULL`.execute(db);
    for (const { id, reference } of rows) {
      await sql`UPDATE reviews SET reference = ${keyedHash(key, normalReference(reference))} WHERE id = ${id}`.execute(
        db,
      );
    }
  },
};

export const migrations: Record<string, Migration> = {
  '001_initial': m001Initial,
  '002_mcp_revoked_sessions': m002McpRevokedSessions,
  '003_websub': m003WebSub,
  '004_insights': m004Insights,
  '005_review_revision': m005ReviewRevision,
  '006_mcp_revoked_expiry': m006McpRevokedExpiry,
  '007_websub_client': m007WebSubClient,
  '008_websub_delivered_revision': m008WebSubDeliveredRevision,
  '009_rendered_documents': m009RenderedDocuments,
  '010_review_sources': m010ReviewSources,
  '011_job_ledger': m011JobLedger,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
