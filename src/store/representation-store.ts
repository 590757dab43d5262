// Rendered documents over Kysely, shared by every engine: one data version's bytes per renderer, and the compressed
// copies made of them.
import type { Kysely } from 'kysely';
import { asOfKey } from './insights-store.js';
import { inTransaction } from './transaction.js';
import type { RepresentationStore, StoredRepresentation } from './types.js';

export interface RepresentationTables {
  rendered_documents: { name: string; as_of: string; render_key: string; tag: string; body: Uint8Array };
  rendered_copies: { tag: string; coding: string; body: Uint8Array };
}

export class KyselyRepresentationStore implements RepresentationStore {
  constructor(private readonly db: Kysely<RepresentationTables>) {}

  async find(asOf: string | null, renderKey: string): Promise<Map<string, StoredRepresentation>> {
    const rows = await this.db
      .selectFrom('rendered_documents')
      .select(['name', 'tag', 'body'])
      .where('as_of', '=', asOfKey(asOf))
      .where('render_key', '=', renderKey)
      .execute();
    return new Map(rows.map((r) => [r.name, { tag: r.tag, body: r.body }]));
  }

  save(
    asOf: string | null,
    renderKey: string,
    documents: ReadonlyMap<string, StoredRepresentation>,
    replace: ReadonlySet<string> = new Set(),
  ): Promise<boolean> {
    const key = asOfKey(asOf);
    return inTransaction(this.db, async (trx) => {
      const newer = await trx
        .selectFrom('rendered_documents')
        .select('as_of')
        .where('as_of', '>', key)
        .limit(1)
        .executeTakeFirst();
      if (newer) return false;
      // Only the newest data is ever served at start: older data, or another renderer's bytes of the same data, go.
      await trx
        .deleteFrom('rendered_documents')
        .where((eb) =>
          eb.or([eb('as_of', '<', key), eb.and([eb('as_of', '=', key), eb('render_key', '!=', renderKey)])]),
        )
        .execute();
      // Bytes stored already (by another replica, with their copies) are not sent again.
      const there = await trx
        .selectFrom('rendered_documents')
        .select(['name', 'tag'])
        .where('as_of', '=', key)
        .where('render_key', '=', renderKey)
        .execute();
      const stored = new Map(there.map((r) => [r.name, r.tag]));
      for (const [name, { tag, body }] of documents) {
        if (stored.get(name) === tag && !replace.has(name)) continue;
        await trx
          .insertInto('rendered_documents')
          .values({ name, as_of: key, render_key: renderKey, tag, body })
          .onConflict((oc) => oc.columns(['name', 'as_of', 'render_key']).doUpdateSet({ tag, body }))
          .execute();
        // Copies of what was stored under this tag were made from other bytes.
        if (replace.has(name)) await trx.deleteFrom('rendered_copies').where('tag', '=', tag).execute();
      }
      // Copies go with the bytes they were made from.
      await trx
        .deleteFrom('rendered_copies')
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('rendered_documents')
                .select('name')
                .whereRef('rendered_documents.tag', '=', 'rendered_copies.tag'),
            ),
          ),
        )
        .execute();
      return true;
    });
  }

  async findCopy(tag: string, coding: 'gzip' | 'br'): Promise<Uint8Array | undefined> {
    const row = await this.db
      .selectFrom('rendered_copies')
      .select('body')
      .where('tag', '=', tag)
      .where('coding', '=', coding)
      .executeTakeFirst();
    return row?.body;
  }

  saveCopy(tag: string, coding: 'gzip' | 'br', bytes: Uint8Array): Promise<void> {
    return inTransaction(this.db, async (trx) => {
      const stored = await trx
        .selectFrom('rendered_documents')
        .select('name')
        .where('tag', '=', tag)
        .limit(1)
        .executeTakeFirst();
      if (!stored) return;
      await trx
        .insertInto('rendered_copies')
        .values({ tag, coding, body: bytes })
        .onConflict((oc) => oc.columns(['tag', 'coding']).doNothing())
        .execute();
    });
  }
}
