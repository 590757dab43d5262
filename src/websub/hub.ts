// The WebSub hub's background work: verification of intent, announcing changed topics, and the delivery worker.
import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import { startPolling } from '../poll.js';
import type { Publisher } from '../publishing/publisher.js';
import type { View } from '../publishing/view.js';
import { ROUTES } from '../reviews/links.js';
import type { ClaimedDelivery, DeliveryOutcome, Store } from '../store/types.js';
import { CallbackClient } from './client.js';
import { FairShare } from './fair-share.js';
import { topicContent, topicsOf, type HubTopic } from './topics.js';

/** Consecutive failed deliveries that end a subscription (interface §8). */
export const MAX_FAILURES = 3;

/** How long a subscription whose verification failed is kept before it is removed. */
const REJECTED_KEPT_MS = 24 * 3600 * 1000;

/** How often the worker looks for due deliveries queued by any process, and for lapsed leases. */
const WORKER_POLL_MS = 1000;

export interface SubscriptionIntent {
  mode: 'subscribe' | 'unsubscribe';
  topic: string;
  callback: URL;
  leaseSeconds: number;
  secret: string | null;
}

/** Appends hub.* parameters to the callback's own query string, which stays byte for byte (W3C WebSub §5.1). */
function withParams(callback: URL, params: Record<string, string>): URL {
  const url = new URL(callback);
  const added = new URLSearchParams(params).toString();
  url.search = url.search ? `${url.search}&${added}` : added;
  return url;
}

export class Hub {
  /** Deliveries this process attempted, by outcome (for metrics). */
  readonly deliveries: Record<DeliveryOutcome['kind'], number> = { delivered: 0, gone: 0, failed: 0 };
  readonly topics: HubTopic[];
  readonly hubUrl: string;
  private readonly client: CallbackClient;
  private readonly slots: FairShare;
  private stopPolling: () => void = () => undefined;
  private stopWatching: () => void = () => undefined;
  private pumping = false;
  private pumpAgain = false;
  private stopped = false;
  private announcing: Promise<void> = Promise.resolve();

  constructor(
    private readonly config: Config,
    private readonly store: Store,
    private readonly publisher: Publisher,
    private readonly log: FastifyBaseLogger,
  ) {
    this.topics = topicsOf(config.baseUrl);
    this.hubUrl = `${config.baseUrl}${ROUTES.hub}`;
    this.client = new CallbackClient({
      timeoutMs: config.websub.timeoutMs,
      allowPrivate: config.websub.allowPrivateCallbacks,
      connectionsPerOrigin: config.websub.concurrency,
    });
    this.slots = new FairShare(
      { total: config.websub.concurrency, perClient: config.websub.concurrencyPerClient },
      () => this.pump(),
    );
  }

  /** Announces the current content (deliveries missed while no hub ran are queued now), then works the outbox. */
  private readonly onPublished = (view: View): void => {
    // One announcement at a time, in the order the versions were served.
    this.announcing = this.announcing
      .then(() => this.announce(view))
      .catch((error: unknown) => this.log.error({ err: error }, 'announcing WebSub topics failed'));
  };

  /** Resolves once every version served so far has been announced (its deliveries queued). */
  announced(): Promise<void> {
    return this.announcing;
  }

  async start(): Promise<void> {
    this.publisher.on('published', this.onPublished);
    await this.announce(this.publisher.current());
    this.stopPolling = await startPolling(() => this.tick(), WORKER_POLL_MS, this.log, 'the WebSub worker failed');
    // Deliveries another replica queued are claimed at once where the store says so (PostgreSQL), not at the next poll.
    this.stopWatching = this.store.watch((change) => {
      if (change.kind === 'outbox' || change.kind === 'resumed') this.pump();
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.publisher.off('published', this.onPublished);
    this.stopPolling();
    this.stopWatching();
    // Deliveries in flight finish (or time out); an unfinished claim expires and another worker takes it.
    await this.slots.drained();
    await this.client.close();
  }

  refusal(callback: URL): string | undefined {
    return this.client.refusal(callback);
  }

  /**
   * Verifies intent in the background; the hub request has already been answered 202. The verification is charged to
   * `client` (its address, as the rate limits key it): a flood of subscribe requests from one address holds at most
   * its share of WEBSUB_CONCURRENCY and waits in its own queue, so other clients' verifications still go out.
   */
  verifyLater(intent: SubscriptionIntent, client: string): void {
    this.slots
      .verification(client, () => this.verify(intent))
      .catch((error: unknown) => this.log.error({ err: error, topic: intent.topic }, 'WebSub verification failed'));
  }

  async verify(intent: SubscriptionIntent): Promise<boolean> {
    const challenge = randomBytes(24).toString('base64url');
    const params: Record<string, string> = {
      'hub.mode': intent.mode,
      'hub.topic': intent.topic,
      'hub.challenge': challenge,
    };
    if (intent.mode === 'subscribe') params['hub.lease_seconds'] = String(intent.leaseSeconds);
    // The lease runs from the moment the hub asked (W3C WebSub §5.3).
    const now = new Date();
    const response = await this.client.send(withParams(intent.callback, params), { method: 'GET' });
    const verified = response.ok && response.status >= 200 && response.status < 300 && response.body === challenge;
    const callback = intent.callback.href;
    if (intent.mode === 'subscribe') {
      if (verified) {
        const expiresAt = new Date(now.getTime() + intent.leaseSeconds * 1000).toISOString();
        await this.store.websub.activate(
          intent.topic,
          callback,
          { secret: intent.secret, leaseSeconds: intent.leaseSeconds, expiresAt },
          now.toISOString(),
        );
      } else {
        await this.store.websub.reject(intent.topic, callback, now.toISOString());
      }
    } else if (verified) {
      await this.store.websub.remove(intent.topic, callback);
    }
    this.log.info(
      {
        mode: intent.mode,
        topic: intent.topic,
        callback,
        verified,
        answer: response.ok ? response.status : response.error,
      },
      'WebSub verification of intent',
    );
    return verified;
  }

  private async announce(view: View): Promise<void> {
    const now = new Date().toISOString();
    let queued = 0;
    for (const topic of this.topics) {
      queued += await this.store.websub.announce(
        topic.url,
        topicContent(view, topic).tag,
        view.snapshot.version.revision,
        now,
      );
    }
    if (queued > 0) {
      this.log.info({ queued, revision: view.snapshot.version.revision }, 'WebSub deliveries queued');
      this.pump();
    }
  }

  private async tick(): Promise<void> {
    const lapsed = await this.store.websub.lapseExpired(new Date().toISOString());
    if (lapsed > 0) this.log.info({ lapsed }, 'WebSub leases lapsed');
    // A failed verification stays visible (`subscriptions`, metrics) for a day, then goes: bogus subscribe
    // requests leave no rows behind for good.
    const pruned = await this.store.websub.pruneRejected(new Date(Date.now() - REJECTED_KEPT_MS).toISOString());
    if (pruned > 0) this.log.info({ pruned }, 'rejected WebSub subscriptions removed');
    this.pump();
  }

  /** Claims due deliveries while there is room in flight; a finished delivery makes room and pumps again. */
  private pump(): void {
    if (this.stopped) return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    this.fill()
      .catch((error: unknown) => this.log.error({ err: error }, 'claiming WebSub deliveries failed'))
      .finally(() => {
        this.pumping = false;
        if (this.pumpAgain) {
          this.pumpAgain = false;
          this.pump();
        }
      });
  }

  private async fill(): Promise<void> {
    // The slots are taken before the claim, so a verification admitted while the store answers cannot overbook them.
    const room = this.slots.takeForDeliveries(this.config.websub.concurrency);
    if (room === 0) return;
    let claimed: ClaimedDelivery[] = [];
    try {
      const view = this.publisher.current();
      const now = Date.now();
      // A claim outlives the longest attempt, so a crashed worker's deliveries become due again, not lost.
      const claimUntil = new Date(now + this.config.websub.timeoutMs * 2 + 5000).toISOString();
      claimed = await this.store.websub.claimDue(
        room,
        new Date(now).toISOString(),
        claimUntil,
        view.snapshot.version.revision,
      );
    } finally {
      // Stopped meanwhile: the claims lapse and another worker (or the next start) delivers them; none counts as failed.
      this.slots.returnDeliveries(this.stopped ? room : room - claimed.length);
    }
    if (this.stopped) return;
    for (const delivery of claimed) {
      this.deliver(delivery)
        .catch((error: unknown) =>
          this.log.error({ err: error, callback: delivery.subscription.callback }, 'WebSub delivery crashed'),
        )
        .finally(() => this.slots.endDelivery());
    }
    if (claimed.length === room) this.pumpAgain = true;
  }

  private async deliver(delivery: ClaimedDelivery): Promise<void> {
    const { subscription } = delivery;
    const topic = this.topics.find((t) => t.url === subscription.topic);
    if (!topic || subscription.state !== 'active' || (subscription.expiresAt ?? '') <= new Date().toISOString()) {
      // Nothing to send (a lapsed lease, or a topic this BASE_URL does not serve): drop the row, or it comes back forever.
      await this.store.websub.lapseExpired(new Date().toISOString());
      await this.store.websub.dropDelivery(subscription.id);
      return;
    }
    // The newest content this process serves, which is at least as new as the change that queued the delivery.
    const view = this.publisher.current();
    const { body } = topicContent(view, topic);
    const headers: Record<string, string> = {
      'content-type': topic.document.mediaType,
      link: `<${this.hubUrl}>; rel="hub", <${topic.url}>; rel="self"`,
    };
    if (subscription.secret)
      headers['x-hub-signature'] = `sha256=${createHmac('sha256', subscription.secret).update(body).digest('hex')}`;
    const response = await this.client.send(new URL(subscription.callback), { method: 'POST', headers, body });
    const outcome: DeliveryOutcome = !response.ok
      ? { kind: 'failed', reason: response.error }
      : response.status === 410
        ? { kind: 'gone' }
        : response.status >= 200 && response.status < 300
          ? { kind: 'delivered', status: response.status }
          : { kind: 'failed', reason: `HTTP ${response.status}` };
    // Settled as what it carried: the view can be newer than the claimed change (served between the claim and now),
    // and that newer change, announced before or after this settles, must not be sent to this subscriber again.
    const carried: ClaimedDelivery = { ...delivery, revision: view.snapshot.version.revision };
    const result = await this.store.websub.settle(
      carried,
      outcome,
      new Date().toISOString(),
      this.config.websub.retryDelaysMs,
      MAX_FAILURES,
    );
    this.deliveries[outcome.kind]++;
    this.log.info(
      { callback: subscription.callback, topic: topic.url, outcome: outcome.kind, result: result.kind },
      'WebSub delivery',
    );
    if (result.kind === 'removed' && result.reason === 'failures') {
      await this.deny(
        subscription.callback,
        topic.url,
        `${MAX_FAILURES} consecutive deliveries failed; subscribe again to resume`,
      );
    }
  }

  /** W3C WebSub §5.2: tells the subscriber its subscription ended; one attempt, its answer ignored. */
  private async deny(callback: string, topic: string, reason: string): Promise<void> {
    await this.client.send(
      withParams(new URL(callback), { 'hub.mode': 'denied', 'hub.topic': topic, 'hub.reason': reason }),
      { method: 'GET' },
    );
  }
}
