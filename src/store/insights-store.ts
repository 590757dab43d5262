// Derived data over Kysely, shared by every engine: per-review analyses, insights documents and build claims.
import type { Kysely } from 'kysely';
import type { InsightsStore, StoredAnalysis, StoredInsights } from './types.js';
import { inTransaction } from './transaction.js';
import { notifyChange } from './dialect.js';

export interface InsightsTables {
  review_analyses: { review_id: string; input_key: string; analysis: string; analysed_at: string };
  insights_documents: {
    engine_version: string;
    as_of: string;
    generated_at: string;
    last_modified: string;
    review_count: number;
    document: string;
    document_gzip: Uint8Array | null;
    document_br: Uint8Array | null;
  };
  insights_builds: { build_key: string; owner: string; claimed_until: string };
  reviews: { id: string; published: number };
}

/** Rows per INSERT: well under SQLite's and PostgreSQL's bound-parameter limits. */
const WRITE_BATCH = 500;

/** A store that never published has no `publishedAt`; the key column holds '' for it. */
export const asOfKey = (asOf: string | null) => asOf ?? '';

type DocumentRow = InsightsTables['insights_documents'];

function fromRow(row: DocumentRow): StoredInsights {
  return {
    engineVersion: row.engine_version,
    asOf: row.as_of === '' ? null : row.as_of,
    generatedAt: row.generated_at,
    lastModified: row.last_modified,
    reviewCount: Number(row.review_count),
    document: row.document,
    compressed: row.document_gzip && row.document_br ? { gzip: row.document_gzip, br: row.document_br } : null,
  };
}

export class KyselyInsightsStore implements InsightsStore {
  constructor(private readonly db: Kysely<InsightsTables>) {}

  async readAnalyses(reviewIds?: readonly string[]): Promise<StoredAnalysis[]> {
    const query = this.db.selectFrom('review_analyses').select(['review_id', 'input_key', 'analysis']);
    // Appended row by row: spreading 300,000 rows into push's arguments overflows a process's stack.
    const rows = reviewIds ? [] : await query.execute();
    for (let i = 0; reviewIds && i < reviewIds.length; i += WRITE_BATCH)
      for (const row of await query.where('review_id', 'in', reviewIds.slice(i, i + WRITE_BATCH)).execute())
        rows.push(row);
    return rows.map((r) => ({ reviewId: r.review_id, inputKey: r.input_key, analysis: r.analysis }));
  }

  async writeAnalyses(analyses: readonly StoredAnalysis[], dropped: readonly string[], now: string): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      for (let i = 0; i < analyses.length; i += WRITE_BATCH) {
        const rows = analyses
          .slice(i, i + WRITE_BATCH)
          .map((a) => ({ review_id: a.reviewId, input_key: a.inputKey, analysis: a.analysis, analysed_at: now }));
        await trx
          .insertInto('review_analyses')
          .values(rows)
          .onConflict((oc) =>
            oc.column('review_id').doUpdateSet((eb) => ({
              input_key: eb.ref('excluded.input_key'),
              analysis: eb.ref('excluded.analysis'),
              analysed_at: eb.ref('excluded.analysed_at'),
            })),
          )
          .execute();
      }
      // An unpublished or removed review's analysis is of no further use (and must not outlive it).
      for (let i = 0; i < dropped.length; i += WRITE_BATCH) {
        await trx
          .deleteFrom('review_analyses')
          .where('review_id', 'in', dropped.slice(i, i + WRITE_BATCH))
          .execute();
      }
    });
  }

  async findDocument(engineVersion: string, asOf: string | null): Promise<StoredInsights | undefined> {
    const row = await this.db
      .selectFrom('insights_documents')
      .selectAll()
      .where('engine_version', '=', engineVersion)
      .where('as_of', '=', asOfKey(asOf))
      .executeTakeFirst();
    return row ? fromRow(row) : undefined;
  }

  async hasDocumentAbout(asOf: string | null): Promise<boolean> {
    const row = await this.db
      .selectFrom('insights_documents')
      .select('as_of')
      .where('as_of', '=', asOfKey(asOf))
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  async latestDocument(): Promise<StoredInsights | undefined> {
    const row = await this.db
      .selectFrom('insights_documents')
      .selectAll()
      .orderBy('as_of', 'desc')
      .orderBy('generated_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? fromRow(row) : undefined;
  }

  saveDocument(document: StoredInsights): Promise<boolean> {
    const asOf = asOfKey(document.asOf);
    return inTransaction(this.db, async (trx) => {
      const newer = await trx
        .selectFrom('insights_documents')
        .select('as_of')
        .where('as_of', '>', asOf)
        .limit(1)
        .executeTakeFirst();
      if (newer) return false;
      // Only the newest document is ever served: older data, or an older build of the same data, goes.
      await trx
        .deleteFrom('insights_documents')
        .where((eb) =>
          eb.or([
            eb('as_of', '<', asOf),
            eb.and([eb('as_of', '=', asOf), eb('engine_version', '!=', document.engineVersion)]),
          ]),
        )
        .execute();
      const values = {
        engine_version: document.engineVersion,
        as_of: asOf,
        generated_at: document.generatedAt,
        last_modified: document.lastModified,
        review_count: document.reviewCount,
        document: document.document,
        document_gzip: document.compressed?.gzip ?? null,
        document_br: document.compressed?.br ?? null,
      };
      await trx
        .insertInto('insights_documents')
        .values(values)
        .onConflict((oc) => oc.columns(['engine_version', 'as_of']).doUpdateSet(values))
        .execute();
      await notifyChange(trx, { kind: 'insights' });
      return true;
    });
  }

  claimBuild(key: string, owner: string, now: string, until: string): Promise<boolean> {
    return inTransaction(this.db, async (trx) => {
      // Claims of finished builds are released; expired ones (a process that died mid-build) are taken over.
      await trx.deleteFrom('insights_builds').where('claimed_until', '<=', now).execute();
      await trx
        .insertInto('insights_builds')
        .values({ build_key: key, owner, claimed_until: until })
        .onConflict((oc) =>
          oc.column('build_key').doUpdateSet({ claimed_until: until }).where('insights_builds.owner', '=', owner),
        )
        .execute();
      const row = await trx
        .selectFrom('insights_builds')
        .select('owner')
        .where('build_key', '=', key)
        .executeTakeFirst();
      return row?.owner === owner;
    });
  }

  async releaseBuild(key: string, owner: string): Promise<void> {
    await this.db.deleteFrom('insights_builds').where('build_key', '=', key).where('owner', '=', owner).execute();
  }
}
