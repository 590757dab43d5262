// The operator's commands on stored reviews: `status`, `remove`, `restore`, `verify`, `unverify` and `log`, each
// with `--json`. Exit codes: 0 done, 1 refused (nothing changed).
import type { Decision } from '../store/operator-store.js';
import type { OperatorAction } from '../store/operator-log.js';
import type { Store } from '../store/types.js';
import { formatTable } from './table.js';

const write = (text: string) => process.stdout.write(text);
const json = (value: unknown) => write(`${JSON.stringify(value)}\n`);
const n = (x: number) => x.toLocaleString('en-US');

const DONE: Record<Decision, string> = {
  remove: 'removed: it is gone from every public output, and no import brings it back until `reviews restore`',
  restore: 'restored',
  verify: 'verified by the operator',
  unverify: 'no longer verified: it is not published, and no import verifies it again until `reviews verify`',
};

export async function runDecision(store: Store, decision: Decision, id: string, reason: string | undefined, options: { json: boolean }): Promise<number> {
  const result = await store.operator.decide(decision, id, reason);
  if (!result.ok) {
    if (options.json) json({ ok: false, error: result.error, message: result.message });
    else process.stderr.write(`${result.message}; nothing was changed\n`);
    return 1;
  }
  if (options.json) json({ ok: true, review: result.review, publishedChanged: result.publishedChanged });
  else write(`${id}: ${DONE[decision]} (now ${result.review.state})\n`);
  return 0;
}

export async function showStatus(store: Store, options: { json: boolean }): Promise<number> {
  const figures = await store.operator.figures();
  const websub = await store.websub.stats();
  const insights = {
    asOf: figures.insightsAsOf,
    dataVersion: figures.publishedAt,
    lagging: figures.publishedAt !== null && figures.insightsAsOf !== figures.publishedAt,
  };
  const storeInfo = { engine: store.engine, sizeBytes: figures.sizeBytes, schemaVersion: figures.schemaVersion, revision: figures.revision };
  if (options.json) {
    json({ reviews: figures.bySource, lastImports: figures.lastImports, insights, subscriptions: websub.subscriptions, pendingDeliveries: websub.pendingDeliveries, store: storeInfo });
    return 0;
  }
  const sources = Object.entries(figures.bySource);
  write(
    sources.length
      ? formatTable(
          ['source', 'published', 'unpublished', 'removed', 'withdrawn', 'newest'],
          sources.map(([source, c]) => [source, n(c.published), n(c.unpublished), n(c.removed), n(c.withdrawn), c.newest ?? '-']),
        )
      : 'no reviews stored\n',
  );
  const imports = Object.entries(figures.lastImports);
  if (imports.length) {
    write('\nlast import per source:\n');
    write(
      formatTable(
        ['source', 'at', 'added', 'updated', 'withdrawn', 'files'],
        imports.map(([source, i]) => [source, i.at, n(i.added), n(i.updated), n(i.withdrawn), i.files.join(', ')]),
      ),
    );
  }
  write(
    `\ninsights: ${insights.asOf === null ? 'none built yet' : `describe the data of ${insights.asOf}`}` +
      `${insights.lagging ? ` (behind: the data changed at ${insights.dataVersion}; a running server builds them)` : insights.asOf ? ' (up to date)' : ''}\n`,
  );
  const subs = Object.entries(websub.subscriptions).map(([state, count]) => `${count} ${state}`).join(', ');
  write(`subscriptions: ${subs}; ${n(websub.pendingDeliveries)} deliveries waiting\n`);
  const size = figures.sizeBytes === null ? 'size unknown' : `${(figures.sizeBytes / 2 ** 20).toFixed(1)} MiB`;
  write(`store: ${store.engine}, ${size}, schema ${figures.schemaVersion ?? 'unknown'}, revision ${figures.revision}\n`);
  return 0;
}

export async function showLog(store: Store, options: { json: boolean; limit: number; action?: OperatorAction }): Promise<number> {
  const entries = await store.operator.log(options.limit, options.action);
  if (options.json) {
    json(entries);
    return 0;
  }
  if (!entries.length) {
    write('no operator changes logged\n');
    return 0;
  }
  const rows = entries.map((e) => [e.at, e.action, e.reviewId ?? describeImport(e.details), e.reason ?? '']);
  write(formatTable(['at', 'action', 'what', 'reason'], rows));
  return 0;
}

function describeImport(details: Record<string, unknown> | undefined): string {
  if (!details) return '';
  const files = Array.isArray(details.files) ? details.files.join(', ') : '';
  const count = (key: string) => (typeof details[key] === 'number' ? n(details[key] as number) : '0');
  const verified = details.verified === true ? ', --verified' : '';
  return `${String(details.source ?? 'own')}${verified}: ${files} (added ${count('added')}, updated ${count('updated')}, removed ${count('removed')}, withdrawn ${count('withdrawn')})`;
}
