// Delivery bookkeeping of the WebSub store (settle), on a real SQLite file and on the real PostgreSQL: retries, removal
// after failures, Gone, newer changes, and a change announced while a delivery is claimed (delivered once, newest).
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/store/open.js';
import type { ClaimedDelivery, Store } from '../src/store/types.js';
import { MAX_FAILURES } from '../src/websub/hub.js';
import { testEngines } from './support/engines.js';

const engines = testEngines('websub');
/** The engine of the tests running now (set by the block of each engine). */
let engine = engines[0]!;
let stores: Store[] = [];

afterEach(async () => {
  await Promise.all(stores.map((store) => store.close()));
  stores = [];
});

const TOPIC = 'https://reviews.example/reviews.json';
const CALLBACK = 'https://subscriber.example/callback?id=7';
const T0 = Date.parse('2026-01-01T00:00:00.000Z');
/** The ISO time `ms` after T0. */
const at = (ms: number) => new Date(T0 + ms).toISOString();
/** A claim that outlives every attempt in these tests. */
const CLAIM_UNTIL = at(3_600_000);
const DELAYS = [1000, 5000];

/** A store of its own (a SQLite file, a PostgreSQL schema), closed after the test. */
async function freshStore(): Promise<Store> {
  const store = await openStore(await engine.url());
  stores.push(store);
  return store;
}

/** One active subscription with a secret and a day's lease, and the delivery of revision 1 claimed at T0 until `claimUntil`. */
async function claimedDelivery(claimUntil = CLAIM_UNTIL): Promise<{ store: Store; delivery: ClaimedDelivery }> {
  const store = await freshStore();
  await store.websub.activate(
    TOPIC,
    CALLBACK,
    { secret: 's3cret', leaseSeconds: 86_400, expiresAt: at(86_400_000) },
    at(0),
  );
  expect(await store.websub.announce(TOPIC, 'tag-1', 1, at(0))).toBe(1);
  const [delivery, ...more] = await store.websub.claimDue(10, at(0), claimUntil, 1);
  expect(more).toEqual([]);
  if (!delivery) throw new Error('the announced delivery was not claimable');
  return { store, delivery };
}

/** Claims the subscription's delivery again at `now`, as the next attempt would. */
async function claimAgain(store: Store, now: string, maxRevision = 1): Promise<ClaimedDelivery> {
  const [delivery] = await store.websub.claimDue(10, now, CLAIM_UNTIL, maxRevision);
  if (!delivery) throw new Error(`nothing was due at ${now}`);
  return delivery;
}

const failed = (reason = 'HTTP 500') => ({ kind: 'failed', reason }) as const;
const delivered = { kind: 'delivered', status: 200 } as const;

/**
 * The claimed delivery as the worker settles it: carrying the content of the newest version it serves when it sends,
 * which is `revision` when a newer version was served between the claim and the attempt.
 */
const carrying = (delivery: ClaimedDelivery, revision: number): ClaimedDelivery => ({ ...delivery, revision });

for (const each of engines)
  describe.skipIf(!each.available)(each.name, () => {
    beforeAll(() => {
      engine = each;
    });

    describe('settle: a delivered attempt', () => {
      it('ends the delivery, records when and with which status, and keeps the lease and secret', async () => {
        const { store, delivery } = await claimedDelivery();
        expect(
          await store.websub.settle(delivery, { kind: 'delivered', status: 204 }, at(50), DELAYS, MAX_FAILURES),
        ).toEqual({ kind: 'delivered' });
        expect(await store.websub.get(TOPIC, CALLBACK)).toMatchObject({
          state: 'active',
          failures: 0,
          lastDeliveryAt: at(50),
          lastDeliveryResult: 'delivered (204)',
          secret: 's3cret',
          leaseSeconds: 86_400,
          expiresAt: at(86_400_000),
        });
        expect(await store.websub.nextDueAt()).toBeNull();
        expect(await store.websub.claimDue(10, at(86_000_000), CLAIM_UNTIL, 1)).toEqual([]);
      });

      it('leaves a change announced while the attempt was in flight due at once, with its newer revision', async () => {
        const { store, delivery } = await claimedDelivery();
        expect(await store.websub.announce(TOPIC, 'tag-2', 2, at(10))).toBe(1);
        expect(
          await store.websub.settle(delivery, { kind: 'delivered', status: 200 }, at(20), DELAYS, MAX_FAILURES),
        ).toEqual({ kind: 'delivered' });
        expect(await store.websub.nextDueAt()).toBe(at(10));
        // A worker serving only revision 1 must not take it; one serving revision 2 does.
        expect(await store.websub.claimDue(10, at(20), CLAIM_UNTIL, 1)).toEqual([]);
        expect((await claimAgain(store, at(20), 2)).revision).toBe(2);
      });
    });

    describe('settle: a failed attempt', () => {
      it('keeps the delivery, due again after the first retry delay, and counts one failure', async () => {
        const { store, delivery } = await claimedDelivery();
        expect(await store.websub.settle(delivery, failed(), at(100), DELAYS, MAX_FAILURES)).toEqual({
          kind: 'retry',
          retryAt: at(1100),
        });
        expect(await store.websub.get(TOPIC, CALLBACK)).toMatchObject({
          state: 'active',
          failures: 1,
          lastDeliveryAt: at(100),
          lastDeliveryResult: 'failed: HTTP 500',
          secret: 's3cret',
          expiresAt: at(86_400_000),
        });
        expect(await store.websub.nextDueAt()).toBe(at(1100));
        expect(await store.websub.claimDue(10, at(1099), CLAIM_UNTIL, 1)).toEqual([]);
        expect((await claimAgain(store, at(1100))).subscription.failures).toBe(1);
      });

      it('waits the nth delay after the nth consecutive failure, and the last delay again after that', async () => {
        const { store, delivery } = await claimedDelivery();
        const patient = 5;
        expect(await store.websub.settle(delivery, failed(), at(0), DELAYS, patient)).toEqual({
          kind: 'retry',
          retryAt: at(1000),
        });
        const second = await claimAgain(store, at(1000));
        expect(await store.websub.settle(second, failed(), at(1000), DELAYS, patient)).toEqual({
          kind: 'retry',
          retryAt: at(6000),
        });
        const third = await claimAgain(store, at(6000));
        expect(await store.websub.settle(third, failed(), at(6000), DELAYS, patient)).toEqual({
          kind: 'retry',
          retryAt: at(11_000),
        });
        expect((await store.websub.get(TOPIC, CALLBACK))?.failures).toBe(3);
      });

      it('is due again at once when no retry delay is configured', async () => {
        const { store, delivery } = await claimedDelivery();
        expect(await store.websub.settle(delivery, failed(), at(100), [], MAX_FAILURES)).toEqual({
          kind: 'retry',
          retryAt: at(100),
        });
        expect((await claimAgain(store, at(100))).subscription.failures).toBe(1);
      });

      it('retries a change announced during the attempt once, with the newest revision, after the delay', async () => {
        const { store, delivery } = await claimedDelivery();
        await store.websub.announce(TOPIC, 'tag-2', 2, at(10));
        expect(await store.websub.settle(delivery, failed(), at(20), DELAYS, MAX_FAILURES)).toEqual({
          kind: 'retry',
          retryAt: at(1020),
        });
        expect(await store.websub.claimDue(10, at(1019), CLAIM_UNTIL, 2)).toEqual([]);
        const retried = await store.websub.claimDue(10, at(1020), CLAIM_UNTIL, 2);
        expect(retried.map((d) => d.revision)).toEqual([2]);
      });

      it('records a long reason cut to 500 characters', async () => {
        const { store, delivery } = await claimedDelivery();
        await store.websub.settle(delivery, failed('x'.repeat(2000)), at(0), DELAYS, MAX_FAILURES);
        const result = (await store.websub.get(TOPIC, CALLBACK))?.lastDeliveryResult ?? '';
        expect(result).toHaveLength(500);
        expect(result.startsWith('failed: xxx')).toBe(true);
      });
    });

    describe('settle: the end of a subscription', () => {
      it(`removes the subscription and its delivery at the ${MAX_FAILURES}th consecutive failure, for the hub to send its denial`, async () => {
        const { store, delivery } = await claimedDelivery();
        let attempt = delivery;
        for (let n = 1; n < MAX_FAILURES; n++) {
          const result = await store.websub.settle(attempt, failed(), at(n * 10_000), DELAYS, MAX_FAILURES);
          expect(result.kind, `failure ${n}`).toBe('retry');
          attempt = await claimAgain(store, at(n * 10_000 + 5000));
        }
        expect(await store.websub.settle(attempt, failed(), at(60_000), DELAYS, MAX_FAILURES)).toEqual({
          kind: 'removed',
          reason: 'failures',
        });
        expect(await store.websub.get(TOPIC, CALLBACK)).toBeUndefined();
        expect(await store.websub.nextDueAt()).toBeNull();
        // Gone for good: a later change queues nothing for it.
        expect(await store.websub.announce(TOPIC, 'tag-2', 2, at(70_000))).toBe(0);
      });

      it('starts the count again after a success: failures either side of it do not add up', async () => {
        const { store, delivery } = await claimedDelivery();
        expect((await store.websub.settle(delivery, failed(), at(0), DELAYS, MAX_FAILURES)).kind).toBe('retry');
        const second = await claimAgain(store, at(1000));
        expect((await store.websub.settle(second, failed(), at(1000), DELAYS, MAX_FAILURES)).kind).toBe('retry');
        const third = await claimAgain(store, at(6000));
        expect(
          await store.websub.settle(third, { kind: 'delivered', status: 200 }, at(6000), DELAYS, MAX_FAILURES),
        ).toEqual({ kind: 'delivered' });
        expect((await store.websub.get(TOPIC, CALLBACK))?.failures).toBe(0);

        await store.websub.announce(TOPIC, 'tag-2', 2, at(7000));
        let attempt = await claimAgain(store, at(7000), 2);
        for (let n = 1; n < MAX_FAILURES; n++) {
          expect(
            (await store.websub.settle(attempt, failed(), at(7000 + n * 10_000), DELAYS, MAX_FAILURES)).kind,
            `failure ${n} after the success`,
          ).toBe('retry');
          attempt = await claimAgain(store, at(7000 + n * 10_000 + 5000), 2);
        }
        expect((await store.websub.get(TOPIC, CALLBACK))?.failures).toBe(MAX_FAILURES - 1);
      });

      it('removes the subscription at once on 410 Gone, a removal that is not for failures (no denial)', async () => {
        const { store, delivery } = await claimedDelivery();
        expect(await store.websub.settle(delivery, { kind: 'gone' }, at(10), DELAYS, MAX_FAILURES)).toEqual({
          kind: 'removed',
          reason: 'gone',
        });
        expect(await store.websub.get(TOPIC, CALLBACK)).toBeUndefined();
        expect(await store.websub.nextDueAt()).toBeNull();
      });

      it.each([
        ['failed', failed()],
        ['delivered', { kind: 'delivered', status: 200 } as const],
      ])('leaves nothing behind for an attempt that %s after the subscriber unsubscribed', async (_name, outcome) => {
        const { store, delivery } = await claimedDelivery();
        await store.websub.remove(TOPIC, CALLBACK);
        await store.websub.settle(delivery, outcome, at(10), DELAYS, MAX_FAILURES);
        expect(await store.websub.get(TOPIC, CALLBACK)).toBeUndefined();
        expect(await store.websub.list()).toEqual([]);
        expect(await store.websub.nextDueAt()).toBeNull();
      });
    });

    describe('a change announced while a delivery is claimed', () => {
      it('is delivered once, with the newest revision, by another worker after the claim of a worker that died lapses', async () => {
        const lapsed = at(9000);
        // The worker holding the claim is gone: its attempt never settles.
        const { store } = await claimedDelivery(lapsed);
        expect(await store.websub.announce(TOPIC, 'tag-2', 2, at(1000))).toBe(1);
        expect(await store.websub.claimDue(10, at(1000), CLAIM_UNTIL, 2)).toEqual([]);
        expect(await store.websub.claimDue(10, at(8999), CLAIM_UNTIL, 2)).toEqual([]);
        const [retaken, ...more] = await store.websub.claimDue(10, lapsed, CLAIM_UNTIL, 2);
        expect(more).toEqual([]);
        expect(retaken?.revision).toBe(2);
        expect(await store.websub.settle(carrying(retaken!, 2), delivered, at(9100), DELAYS, MAX_FAILURES)).toEqual({
          kind: 'delivered',
        });
        expect(await store.websub.nextDueAt()).toBeNull();
        expect(await store.websub.claimDue(10, at(86_000_000), CLAIM_UNTIL, 2)).toEqual([]);
      });

      // A worker claims a delivery of revision 1 while it serves revision 1, then serves revision 2 before it sends,
      // and sends that; its own announcement of revision 2 lands before or after the attempt settles.
      it.each([
        ['before', 'announced', 'settled'],
        ['after', 'settled', 'announced'],
      ])(
        'is not sent again when the attempt already carried it, announced %s the attempt settles',
        async (_when, first, second) => {
          const { store, delivery } = await claimedDelivery();
          for (const step of [first, second]) {
            if (step === 'announced') await store.websub.announce(TOPIC, 'tag-2', 2, at(10));
            else
              expect(await store.websub.settle(carrying(delivery, 2), delivered, at(20), DELAYS, MAX_FAILURES)).toEqual(
                { kind: 'delivered' },
              );
          }
          expect(await store.websub.claimDue(10, at(30), CLAIM_UNTIL, 2)).toEqual([]);
          expect(await store.websub.nextDueAt()).toBeNull();
          expect(await store.websub.claimDue(10, at(86_000_000), CLAIM_UNTIL, 2)).toEqual([]);
        },
      );

      it('is sent to another subscriber of the topic that has not had it, once', async () => {
        const { store, delivery } = await claimedDelivery();
        const other = `${CALLBACK}-other`;
        await store.websub.activate(
          TOPIC,
          other,
          { secret: null, leaseSeconds: 86_400, expiresAt: at(86_400_000) },
          at(0),
        );
        await store.websub.settle(carrying(delivery, 2), delivered, at(20), DELAYS, MAX_FAILURES);
        await store.websub.announce(TOPIC, 'tag-2', 2, at(30));
        const due = await store.websub.claimDue(10, at(30), CLAIM_UNTIL, 2);
        expect(due.map((d) => [d.subscription.callback, d.revision])).toEqual([[other, 2]]);
        await store.websub.settle(due[0]!, delivered, at(40), DELAYS, MAX_FAILURES);
        expect(await store.websub.claimDue(10, at(86_000_000), CLAIM_UNTIL, 2)).toEqual([]);
      });

      it('takes the place of a dropped delivery the subscriber already had with the next due one, within the same claim', async () => {
        const { store, delivery } = await claimedDelivery();
        const otherTopic = 'https://reviews.example/feed.xml';
        await store.websub.activate(
          otherTopic,
          CALLBACK,
          { secret: null, leaseSeconds: 86_400, expiresAt: at(86_400_000) },
          at(0),
        );
        await store.websub.settle(carrying(delivery, 2), delivered, at(20), DELAYS, MAX_FAILURES);
        await store.websub.announce(TOPIC, 'tag-2', 2, at(30));
        await store.websub.announce(otherTopic, 'feed-2', 2, at(40));
        const due = await store.websub.claimDue(1, at(50), CLAIM_UNTIL, 2);
        expect(due.map((d) => [d.subscription.topic, d.revision])).toEqual([[otherTopic, 2]]);
        expect(await store.websub.stats()).toMatchObject({ pendingDeliveries: 1 });
      });

      it('is sent once when it is newer than what the attempt carried, announced before or after the attempt settles', async () => {
        for (const announceFirst of [true, false]) {
          const { store, delivery } = await claimedDelivery();
          if (announceFirst) await store.websub.announce(TOPIC, 'tag-3', 3, at(10));
          await store.websub.settle(carrying(delivery, 2), delivered, at(20), DELAYS, MAX_FAILURES);
          if (!announceFirst) await store.websub.announce(TOPIC, 'tag-3', 3, at(10));
          expect(
            await store.websub.claimDue(10, at(30), CLAIM_UNTIL, 2),
            'a worker serving revision 2 has it already',
          ).toEqual([]);
          const [next, ...more] = await store.websub.claimDue(10, at(30), CLAIM_UNTIL, 3);
          expect(more).toEqual([]);
          expect(next?.revision).toBe(3);
          await store.websub.settle(next!, delivered, at(40), DELAYS, MAX_FAILURES);
          expect(await store.websub.claimDue(10, at(86_000_000), CLAIM_UNTIL, 3)).toEqual([]);
        }
      });

      it('is sent again after an attempt that carried it failed', async () => {
        const { store, delivery } = await claimedDelivery();
        await store.websub.announce(TOPIC, 'tag-2', 2, at(10));
        expect(await store.websub.settle(carrying(delivery, 2), failed(), at(20), DELAYS, MAX_FAILURES)).toEqual({
          kind: 'retry',
          retryAt: at(1020),
        });
        expect((await claimAgain(store, at(1020), 2)).revision).toBe(2);
      });
    });

    describe('pruneRejected', () => {
      it('removes subscriptions rejected before the given time, and nothing else', async () => {
        const store = await freshStore();
        await store.websub.recordRequest(TOPIC, CALLBACK, at(0));
        await store.websub.reject(TOPIC, CALLBACK, at(1000));
        await store.websub.recordRequest(TOPIC, `${CALLBACK}-pending`, at(0));
        await store.websub.recordRequest(TOPIC, `${CALLBACK}-late`, at(0));
        await store.websub.reject(TOPIC, `${CALLBACK}-late`, at(5000));
        expect(await store.websub.pruneRejected(at(1000))).toBe(0);
        expect(await store.websub.pruneRejected(at(2000))).toBe(1);
        expect(await store.websub.get(TOPIC, CALLBACK)).toBeUndefined();
        expect((await store.websub.get(TOPIC, `${CALLBACK}-late`))?.state).toBe('rejected');
        expect((await store.websub.get(TOPIC, `${CALLBACK}-pending`))?.state).toBe('pending');
      });
    });
  });
