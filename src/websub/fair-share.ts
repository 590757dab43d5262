// The hub's outbound slots: at most `total` requests in flight; verifications charged to the client that asked, at
// most `perClient` each, waiting in that client's own queue and served round-robin; deliveries up to their own cap.

export interface SlotLimits {
  /** Requests in flight at once (WEBSUB_CONCURRENCY). */
  total: number;
  /** Verifications one client may hold (WEBSUB_CONCURRENCY_PER_CLIENT, at most `total`). */
  perClient: number;
}

/**
 * The most slots deliveries may hold. A delivery can hold its slot for a whole timeout (a slow subscriber), and a
 * fan-out claims every free slot at once, so without a cap a new verification would wait behind it. Deliveries
 * therefore leave one client's full share and one slot more to verifications: while one client floods and every
 * delivery hangs, a second client's verification still finds a slot at once. They keep at least half of the slots
 * whatever the share, since delivering is the hub's main work and retries cost subscribers more than a late
 * verification does; below that, a second client waits for the next slot to free, which round-robin gives it.
 */
export function deliveryCap({ total, perClient }: SlotLimits): number {
  return Math.max(Math.ceil(total / 2), total - perClient - 1);
}

interface ClientShare {
  running: number;
  waiting: (() => void)[];
}

export class FairShare {
  private inFlight = 0;
  private deliveriesInFlight = 0;
  private readonly maxDeliveries: number;
  private readonly clients = new Map<string, ClientShare>();
  /** Clients with verifications waiting, in turn order: the head is offered the next free slot. */
  private readonly turns: string[] = [];
  private readonly drainedWaiters = new Set<() => void>();

  /** `onRoom` is called when a finished request leaves room that deliveries may take. */
  constructor(
    private readonly limits: SlotLimits,
    private readonly onRoom: () => void,
  ) {
    this.maxDeliveries = deliveryCap(limits);
  }

  /** Runs a verification for `client` once it has a slot within its share. */
  async verification<T>(client: string, send: () => Promise<T>): Promise<T> {
    await this.admit(client);
    try {
      return await send();
    } finally {
      this.endVerification(client);
    }
  }

  /** Slots deliveries may take now, up to `wanted`; the caller holds them until it ends or returns each. */
  takeForDeliveries(wanted: number): number {
    const taken = Math.max(
      0,
      Math.min(wanted, this.limits.total - this.inFlight, this.maxDeliveries - this.deliveriesInFlight),
    );
    this.inFlight += taken;
    this.deliveriesInFlight += taken;
    return taken;
  }

  /** A delivery ended: its slot goes to a waiting verification, or back to deliveries. */
  endDelivery(): void {
    this.freeDeliveries(1);
    if (this.deliveryRoom() > 0) this.onRoom();
  }

  /**
   * Slots taken for deliveries that found nothing to claim. Unlike an ended delivery this does not ask for another
   * claim: the claim that found nothing would only be repeated at once.
   */
  returnDeliveries(count: number): void {
    if (count > 0) this.freeDeliveries(count);
  }

  /** Resolves once nothing is in flight (waiting verifications have run by then). */
  drained(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((done) => this.drainedWaiters.add(done));
  }

  private deliveryRoom(): number {
    return Math.min(this.limits.total - this.inFlight, this.maxDeliveries - this.deliveriesInFlight);
  }

  private admit(client: string): Promise<void> {
    let share = this.clients.get(client);
    if (!share) {
      share = { running: 0, waiting: [] };
      this.clients.set(client, share);
    }
    if (share.waiting.length === 0 && share.running < this.limits.perClient && this.inFlight < this.limits.total) {
      share.running++;
      this.inFlight++;
      return Promise.resolve();
    }
    const queued = share;
    return new Promise<void>((go) => {
      if (queued.waiting.length === 0) this.turns.push(client);
      queued.waiting.push(go);
    });
  }

  private endVerification(client: string): void {
    const share = this.clients.get(client)!;
    share.running--;
    // A client is remembered only while it has work: addresses seen once leave nothing behind.
    if (share.running === 0 && share.waiting.length === 0) this.clients.delete(client);
    this.inFlight--;
    this.dispatch();
    if (this.deliveryRoom() > 0) this.onRoom();
    this.checkDrained();
  }

  private freeDeliveries(count: number): void {
    this.inFlight -= count;
    this.deliveriesInFlight -= count;
    this.dispatch();
    this.checkDrained();
  }

  /**
   * Offers free slots to waiting clients in turn, as around a ring: the head client starts its oldest verification
   * and, if it has more, goes to the back; a client already holding its share is passed over.
   */
  private dispatch(): void {
    let unseen = this.turns.length;
    while (this.inFlight < this.limits.total && unseen > 0) {
      const client = this.turns.shift()!;
      const share = this.clients.get(client)!;
      if (share.running >= this.limits.perClient) {
        this.turns.push(client);
        unseen--;
        continue;
      }
      const go = share.waiting.shift()!;
      share.running++;
      this.inFlight++;
      if (share.waiting.length > 0) this.turns.push(client);
      unseen = this.turns.length;
      go();
    }
  }

  private checkDrained(): void {
    if (this.inFlight !== 0) return;
    for (const done of this.drainedWaiters) done();
    this.drainedWaiters.clear();
  }
}
