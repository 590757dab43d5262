// `reviews subscriptions [--json]`: the operator's view of WebSub subscriptions.
import type { Store } from '../store/types.js';
import { formatTable } from './table.js';

export async function listSubscriptions(store: Store, options: { json: boolean }): Promise<number> {
  const subscriptions = await store.websub.list();
  if (options.json) {
    process.stdout.write(`${JSON.stringify(subscriptions)}\n`);
    return 0;
  }
  if (subscriptions.length === 0) {
    process.stdout.write('no subscriptions\n');
    return 0;
  }
  const rows = subscriptions.map((s) => [
    s.state,
    s.topic,
    s.callback,
    s.expiresAt ?? '-',
    String(s.failures),
    s.lastDeliveryAt ? `${s.lastDeliveryAt} ${s.lastDeliveryResult ?? ''}`.trim() : '-',
  ]);
  const header = ['state', 'topic', 'callback', 'lease expires', 'failures', 'last delivery'];
  process.stdout.write(formatTable(header, rows));
  const counts = new Map<string, number>();
  for (const s of subscriptions) counts.set(s.state, (counts.get(s.state) ?? 0) + 1);
  process.stdout.write(
    `${subscriptions.length} subscriptions: ${[...counts].map(([state, n]) => `${n} ${state}`).join(', ')}\n`,
  );
  return 0;
}
