// `reviews subscriptions [--json]`: the operator's view of WebSub subscriptions.
import type { Store } from '../store/types.js';

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
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  process.stdout.write(`${[line(header), ...rows.map(line)].join('\n')}\n`);
  const counts = new Map<string, number>();
  for (const s of subscriptions) counts.set(s.state, (counts.get(s.state) ?? 0) + 1);
  process.stdout.write(`${subscriptions.length} subscriptions: ${[...counts].map(([state, n]) => `${n} ${state}`).join(', ')}\n`);
  return 0;
}
