// WebSub state over Kysely, shared by every engine: subscriptions, announced topic content, and the delivery outbox.
import { createHash } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type {
  ClaimedDelivery,
  DeliveryOutcome,
  SettleResult,
  Subscription,
  SubscriptionState,
  WebSubStore,
} from './types.js';
import { inTransaction } from './transaction.js';
import { isPostgres, notifyChange } from './dialect.js';

export interface WebSubTables {
  websub_subscriptions: {
    id: string;
    topic: string;
    callback: string;
    state: string;
    secret: string | null;
    lease_seconds: number | null;
    expires_at: string | null;
    failures: number;
    last_delivery_at: string | null;
    last_delivery_result: string | null;
    created_at: string;
    updated_at: string;
    /** Who asked (address, an IPv6 one by /64); null for rows older than the per-client cap. */
    client: string | null;
    /** The newest revision whose content the subscriber acknowledged; null before its first delivery. */
    delivered_revision: number | null;
  };
  websub_topics: { topic: string; content_tag: string; revision: number };
  websub_deliveries: {
    subscription_id: string;
    revision: number;
    due_at: string;
    claimed_until: string | null;
    created_at: string;
  };
}

type SubscriptionRow = Selectable<WebSubTables['websub_subscriptions']>;

/** One subscription per (topic, callback), as WebSub identifies them. */
export function subscriptionId(topic: string, callback: string): string {
  return createHash('sha256').update(`${topic}\n${callback}`).digest('base64url');
}

function fromRow(row: SubscriptionRow): Subscription {
  return {
    id: row.id,
    topic: row.topic,
    callback: row.callback,
    state: row.state as SubscriptionState,
    secret: row.secret,
    leaseSeconds: row.lease_seconds === null ? null : Number(row.lease_seconds),
    expiresAt: row.expires_at,
    failures: Number(row.failures),
    lastDeliveryAt: row.last_delivery_at,
    lastDeliveryResult: row.last_delivery_result,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export class KyselyWebSubStore implements WebSubStore {
  constructor(private readonly db: Kysely<WebSubTables>) {}

  recordRequest(topic: string, callback: string, now: string, client: string | null = null): Promise<Subscription> {
    const id = subscriptionId(topic, callback);
    return inTransaction(this.db, async (trx) => {
      await trx
        .insertInto('websub_subscriptions')
        .values({ id, topic, callback, state: 'pending', failures: 0, created_at: now, updated_at: now, client })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
      await trx
        .updateTable('websub_subscriptions')
        .set({ state: 'pending', updated_at: now, client })
        .where('id', '=', id)
        .where('state', 'in', ['rejected', 'lapsed'])
        .execute();
      return fromRow(
        await trx.selectFrom('websub_subscriptions').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
      );
    });
  }

  async activate(
    topic: string,
    callback: string,
    lease: { secret: string | null; leaseSeconds: number; expiresAt: string },
    now: string,
  ): Promise<void> {
    const id = subscriptionId(topic, callback);
    const values = {
      state: 'active',
      secret: lease.secret,
      lease_seconds: lease.leaseSeconds,
      expires_at: lease.expiresAt,
      failures: 0,
      updated_at: now,
    };
    await inTransaction(this.db, (trx) =>
      trx
        .insertInto('websub_subscriptions')
        .values({ id, topic, callback, created_at: now, ...values })
        .onConflict((oc) => oc.column('id').doUpdateSet(values))
        .execute(),
    );
  }

  async reject(topic: string, callback: string, now: string): Promise<void> {
    await inTransaction(this.db, (trx) =>
      trx
        .updateTable('websub_subscriptions')
        .set({ state: 'rejected', updated_at: now })
        .where('id', '=', subscriptionId(topic, callback))
        .where('state', '=', 'pending')
        .execute(),
    );
  }

  async countByClient(client: string): Promise<number> {
    const row = await this.db
      .selectFrom('websub_subscriptions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('client', '=', client)
      .where('state', 'in', ['pending', 'active'])
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async pruneRejected(before: string): Promise<number> {
    const result = await inTransaction(this.db, (trx) =>
      trx
        .deleteFrom('websub_subscriptions')
        .where('state', '=', 'rejected')
        .where('updated_at', '<', before)
        .executeTakeFirst(),
    );
    return Number(result.numDeletedRows);
  }

  async remove(topic: string, callback: string): Promise<void> {
    const id = subscriptionId(topic, callback);
    await inTransaction(this.db, async (trx) => {
      await trx.deleteFrom('websub_deliveries').where('subscription_id', '=', id).execute();
      await trx.deleteFrom('websub_subscriptions').where('id', '=', id).execute();
    });
  }

  async get(topic: string, callback: string): Promise<Subscription | undefined> {
    const row = await this.db
      .selectFrom('websub_subscriptions')
      .selectAll()
      .where('id', '=', subscriptionId(topic, callback))
      .executeTakeFirst();
    return row ? fromRow(row) : undefined;
  }

  async list(): Promise<Subscription[]> {
    const rows = await this.db
      .selectFrom('websub_subscriptions')
      .selectAll()
      .orderBy('topic')
      .orderBy('callback')
      .execute();
    return rows.map(fromRow);
  }

  async countActive(topic: string): Promise<number> {
    const row = await this.db
      .selectFrom('websub_subscriptions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('topic', '=', topic)
      .where('state', 'in', ['active', 'pending'])
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  announce(topic: string, contentTag: string, revision: number, now: string): Promise<number> {
    return inTransaction(this.db, async (trx) => {
      // One statement decides, under the topic row's lock, whether this is news: of several processes announcing
      // the same change, one queues the deliveries and the others find the tag written. Content of an older
      // revision than the one announced (a process that read the store before the last import) is not news.
      const changed = await trx
        .insertInto('websub_topics')
        .values({ topic, content_tag: contentTag, revision })
        .onConflict((oc) =>
          oc
            .column('topic')
            .doUpdateSet((eb) => ({
              content_tag: eb.ref('excluded.content_tag'),
              revision: eb.ref('excluded.revision'),
            }))
            .where((eb) =>
              eb.and([
                eb('websub_topics.content_tag', '<>', eb.ref('excluded.content_tag')),
                eb('websub_topics.revision', '<=', eb.ref('excluded.revision')),
              ]),
            ),
        )
        .returning('topic')
        .executeTakeFirst();
      if (!changed) return 0;
      const subscribers = await trx
        .selectFrom('websub_subscriptions')
        .select('id')
        .where('topic', '=', topic)
        .where('state', '=', 'active')
        .where('expires_at', '>', now)
        .execute();
      // A pending delivery is replaced, not joined by a second one: the subscriber gets the newest content once.
      for (let i = 0; i < subscribers.length; i += 500) {
        await trx
          .insertInto('websub_deliveries')
          .values(
            subscribers
              .slice(i, i + 500)
              .map((s) => ({ subscription_id: s.id, revision, due_at: now, claimed_until: null, created_at: now })),
          )
          .onConflict((oc) =>
            oc
              .column('subscription_id')
              .doUpdateSet((eb) => ({ revision: eb.ref('excluded.revision'), due_at: eb.ref('excluded.due_at') })),
          )
          .execute();
      }
      if (subscribers.length > 0) await notifyChange(trx, { kind: 'outbox' });
      return subscribers.length;
    });
  }

  claimDue(limit: number, now: string, claimUntil: string, maxRevision: number): Promise<ClaimedDelivery[]> {
    return inTransaction(this.db, async (trx) => {
      const claimed: ClaimedDelivery[] = [];
      while (claimed.length < limit) {
        const wanted = limit - claimed.length;
        const due = await trx
          .selectFrom('websub_deliveries')
          .innerJoin('websub_subscriptions', 'websub_subscriptions.id', 'websub_deliveries.subscription_id')
          .selectAll('websub_subscriptions')
          .select(['websub_deliveries.revision as delivery_revision'])
          .where('websub_deliveries.due_at', '<=', now)
          .where((eb) =>
            eb.or([
              eb('websub_deliveries.claimed_until', 'is', null),
              eb('websub_deliveries.claimed_until', '<=', now),
            ]),
          )
          .where('websub_deliveries.revision', '<=', maxRevision)
          .orderBy('websub_deliveries.due_at')
          .limit(wanted)
          // Several processes claim at once on PostgreSQL: each takes rows no other claim holds (SQLite has one writer).
          .$if(isPostgres(trx), (qb) => qb.forUpdate('websub_deliveries').skipLocked())
          .execute();
        // The subscriber already acknowledged content at least this new (a worker sent a version newer than the one it
        // claimed, and that version's announcement queued this row after the attempt settled): dropped, not sent
        // again. Decided here, under the claim's lock, as announce may read the subscription before such a settle commits.
        const covered: typeof due = [];
        const fresh: typeof due = [];
        for (const row of due)
          (row.delivered_revision !== null && Number(row.delivery_revision) <= Number(row.delivered_revision)
            ? covered
            : fresh
          ).push(row);
        if (covered.length > 0)
          await trx
            .deleteFrom('websub_deliveries')
            .where(
              'subscription_id',
              'in',
              covered.map((d) => d.id),
            )
            .execute();
        if (fresh.length > 0) {
          await trx
            .updateTable('websub_deliveries')
            .set({ claimed_until: claimUntil })
            .where(
              'subscription_id',
              'in',
              fresh.map((d) => d.id),
            )
            .execute();
        }
        claimed.push(...fresh.map((row) => ({ subscription: fromRow(row), revision: Number(row.delivery_revision) })));
        // Only dropped rows leave room that more due rows may fill; a short batch means none are left.
        if (covered.length === 0 || due.length < wanted) break;
      }
      return claimed;
    });
  }

  /**
   * `delivery.revision` is the revision of the content the attempt carried: the worker sends the newest version it
   * serves, which may be newer than the change it claimed, and once acknowledged no change up to it is sent again.
   */
  settle(
    delivery: ClaimedDelivery,
    outcome: DeliveryOutcome,
    now: string,
    retryDelaysMs: number[],
    maxFailures: number,
  ): Promise<SettleResult> {
    const id = delivery.subscription.id;
    return inTransaction(this.db, async (trx): Promise<SettleResult> => {
      const dropDelivery = () => trx.deleteFrom('websub_deliveries').where('subscription_id', '=', id).execute();
      if (outcome.kind === 'gone') {
        await dropDelivery();
        await trx.deleteFrom('websub_subscriptions').where('id', '=', id).execute();
        return { kind: 'removed', reason: 'gone' };
      }
      if (outcome.kind === 'delivered') {
        // A newer change queued while this one was in flight stays due; otherwise the delivery is done.
        await trx
          .deleteFrom('websub_deliveries')
          .where('subscription_id', '=', id)
          .where('revision', '<=', delivery.revision)
          .execute();
        await trx
          .updateTable('websub_deliveries')
          .set({ claimed_until: null })
          .where('subscription_id', '=', id)
          .execute();
        await trx
          .updateTable('websub_subscriptions')
          .set({
            failures: 0,
            last_delivery_at: now,
            last_delivery_result: `delivered (${outcome.status})`,
            updated_at: now,
          })
          .where('id', '=', id)
          .execute();
        // Never backwards: an attempt that outlived its claim may settle after a newer one did.
        await trx
          .updateTable('websub_subscriptions')
          .set({ delivered_revision: delivery.revision })
          .where('id', '=', id)
          .where((eb) =>
            eb.or([eb('delivered_revision', 'is', null), eb('delivered_revision', '<', delivery.revision)]),
          )
          .execute();
        return { kind: 'delivered' };
      }
      const row = await trx
        .selectFrom('websub_subscriptions')
        .select('failures')
        .where('id', '=', id)
        .executeTakeFirst();
      const failures = Number(row?.failures ?? 0) + 1;
      if (failures >= maxFailures) {
        await dropDelivery();
        await trx.deleteFrom('websub_subscriptions').where('id', '=', id).execute();
        return { kind: 'removed', reason: 'failures' };
      }
      const wait = retryDelaysMs[Math.min(failures - 1, retryDelaysMs.length - 1)] ?? 0;
      const retryAt = new Date(Date.parse(now) + wait).toISOString();
      await trx
        .updateTable('websub_deliveries')
        .set({ due_at: retryAt, claimed_until: null })
        .where('subscription_id', '=', id)
        .execute();
      await trx
        .updateTable('websub_subscriptions')
        .set({
          failures,
          last_delivery_at: now,
          last_delivery_result: `failed: ${outcome.reason}`.slice(0, 500),
          updated_at: now,
        })
        .where('id', '=', id)
        .execute();
      return { kind: 'retry', retryAt };
    });
  }

  lapseExpired(now: string): Promise<number> {
    return inTransaction(this.db, async (trx) => {
      const expired = await trx
        .selectFrom('websub_subscriptions')
        .select('id')
        .where('state', '=', 'active')
        .where('expires_at', '<=', now)
        .execute();
      if (expired.length === 0) return 0;
      const ids = expired.map((e) => e.id);
      await trx.deleteFrom('websub_deliveries').where('subscription_id', 'in', ids).execute();
      await trx
        .updateTable('websub_subscriptions')
        .set({ state: 'lapsed', updated_at: now })
        .where('id', 'in', ids)
        .execute();
      return ids.length;
    });
  }

  async dropDelivery(subscriptionId: string): Promise<void> {
    await inTransaction(this.db, (trx) =>
      trx.deleteFrom('websub_deliveries').where('subscription_id', '=', subscriptionId).execute(),
    );
  }

  async nextDueAt(): Promise<string | null> {
    const row = await this.db
      .selectFrom('websub_deliveries')
      .select((eb) => eb.fn.min<string>('due_at').as('due'))
      .executeTakeFirst();
    return row?.due ?? null;
  }

  async stats(): Promise<{ subscriptions: Record<SubscriptionState, number>; pendingDeliveries: number }> {
    const rows = await this.db
      .selectFrom('websub_subscriptions')
      .select(['state', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('state')
      .execute();
    const subscriptions: Record<SubscriptionState, number> = { pending: 0, active: 0, rejected: 0, lapsed: 0 };
    for (const row of rows)
      if (row.state in subscriptions) subscriptions[row.state as SubscriptionState] = Number(row.n);
    const pending = await this.db
      .selectFrom('websub_deliveries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return { subscriptions, pendingDeliveries: Number(pending.n) };
  }
}
