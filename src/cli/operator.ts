// The operator's commands on stored reviews: `status`, `unmatched`, `remove`, `restore`, `verify`, `unverify` and `log`, each
// with `--json`. Exit codes: 0 done, 1 refused (nothing changed).
import type { Decision, StoreFigures } from '../store/operator-store.js';
import type { OperatorAction } from '../store/operator-log.js';
import type { Store, UnmatchedReview } from '../store/types.js';
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

export async function runDecision(
  store: Store,
  decision: Decision,
  id: string,
  reason: string | undefined,
  options: { json: boolean },
): Promise<number> {
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

type WebSubStats = Awaited<ReturnType<Store['websub']['stats']>>;

interface InsightsStatus {
  asOf: string | null;
  dataVersion: string | null;
  lagging: boolean;
}

/** The reviews stored per source and state, and the last import of each source. */
function printReviews(figures: StoreFigures): void {
  const sources = Object.entries(figures.bySource);
  write(
    sources.length
      ? formatTable(
          ['source', 'published', 'unpublished', 'removed', 'withdrawn', 'newest'],
          sources.map(([source, c]) => [
            source,
            n(c.published),
            n(c.unpublished),
            n(c.removed),
            n(c.withdrawn),
            c.newest ?? '-',
          ]),
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
}

/** What the published reviews' verification rests on, what waits, and the job ledger behind it. */
function printVerification(figures: StoreFigures): void {
  const methods = Object.entries(figures.verification.byMethod).filter(([, count]) => count > 0);
  const { waiting } = figures.verification;
  write(
    `\npublished, verified by: ${methods.length ? methods.map(([m, count]) => `${m} ${n(count)}`).join(', ') : 'none yet'}` +
      `; waiting: ${n(waiting.none)} for a job, ${n(waiting.ambiguous)} that two or more jobs fit (reviews unmatched lists them)` +
      `${figures.verification.unverifiedByOperator ? `; ${n(figures.verification.unverifiedByOperator)} unverified by the operator` : ''}\n`,
  );
  const ledger = Object.entries(figures.ledger.jobs);
  write(
    `job ledger: ${ledger.length ? ledger.map(([source, count]) => `${n(count)} jobs from ${source}`).join(', ') : 'no jobs imported'}\n`,
  );
  for (const [source, i] of Object.entries(figures.ledger.lastImports))
    write(
      `  last job import from ${source}: ${i.at}, added ${n(i.added)}, updated ${n(i.updated)} (${i.files.join(', ')})\n`,
    );
}

/** The insights, the subscriptions and the store itself. */
function printServing(
  engine: Store['engine'],
  figures: StoreFigures,
  websub: WebSubStats,
  insights: InsightsStatus,
): void {
  write(
    `\ninsights: ${insights.asOf === null ? 'none built yet' : `describe the data of ${insights.asOf}`}` +
      `${insights.lagging ? ` (behind: the data changed at ${insights.dataVersion}; a running server builds them)` : insights.asOf ? ' (up to date)' : ''}\n`,
  );
  const subs = Object.entries(websub.subscriptions)
    .map(([state, count]) => `${count} ${state}`)
    .join(', ');
  write(`subscriptions: ${subs}; ${n(websub.pendingDeliveries)} deliveries waiting\n`);
  const size = figures.sizeBytes === null ? 'size unknown' : `${(figures.sizeBytes / 2 ** 20).toFixed(1)} MiB`;
  write(`store: ${engine}, ${size}, schema ${figures.schemaVersion ?? 'unknown'}, revision ${figures.revision}\n`);
}

export async function showStatus(store: Store, options: { json: boolean }): Promise<number> {
  const figures = await store.operator.figures();
  const websub = await store.websub.stats();
  const insights: InsightsStatus = {
    asOf: figures.insightsAsOf,
    dataVersion: figures.publishedAt,
    lagging: figures.publishedAt !== null && figures.insightsAsOf !== figures.publishedAt,
  };
  const storeInfo = {
    engine: store.engine,
    sizeBytes: figures.sizeBytes,
    schemaVersion: figures.schemaVersion,
    revision: figures.revision,
  };
  if (options.json) {
    json({
      reviews: figures.bySource,
      lastImports: figures.lastImports,
      verification: figures.verification,
      ledger: figures.ledger,
      insights,
      subscriptions: websub.subscriptions,
      pendingDeliveries: websub.pendingDeliveries,
      store: storeInfo,
    });
    return 0;
  }
  printReviews(figures);
  printVerification(figures);
  printServing(store.engine, figures, websub, insights);
  return 0;
}

const WHY: Record<UnmatchedReview['state'], string> = {
  none: 'no completed job of this customer within the window yet',
  ambiguous: 'two or more completed jobs fit',
  anonymous: 'the platform shows the reviewer anonymously: only a job reference can match it',
  unnamed: 'the reviewer gives no first name and last initial: only a job reference can match it',
};

/** `reviews unmatched`: the reviews waiting for a job, those two or more fit first, with the jobs' dates only. */
export async function showUnmatched(store: Store, options: { json: boolean; limit: number }): Promise<number> {
  const { reviews, total } = await store.ledger.unmatched(options.limit);
  if (options.json) {
    json({ total, reviews: reviews.map((r) => ({ ...r, why: WHY[r.state] })) });
    return 0;
  }
  if (!reviews.length) {
    write('no review waits for a job\n');
    return 0;
  }
  const rows = reviews.map((r) => [
    r.id,
    r.date,
    r.source ?? 'own',
    r.state === 'ambiguous' ? `${WHY.ambiguous}: completed ${r.candidates.join(', ')}` : WHY[r.state],
  ]);
  write(formatTable(['review', 'date', 'source', 'why'], rows));
  if (total > reviews.length) write(`… ${n(total - reviews.length)} more (--limit N shows more)\n`);
  write(
    `${n(total)} reviews wait; \`reviews verify <id> --reason R\` decides one the ledger cannot (a job paid in cash)\n`,
  );
  return 0;
}

/** `reviews status <id>`: one review's state and why. */
export async function showReview(store: Store, id: string, options: { json: boolean }): Promise<number> {
  const review = await store.operator.find(id);
  if (!review) {
    if (options.json) json({ ok: false, error: 'not-found', message: `no review "${id}" is stored` });
    else process.stderr.write(`no review "${id}" is stored\n`);
    return 1;
  }
  if (options.json) {
    json(review);
    return 0;
  }
  const lines = [`${review.id} (${review.source ?? 'own'}, ${review.date}): ${review.state}`];
  if (review.verification)
    lines.push(
      `verified: ${review.verification.method}, ${review.verification.date}${review.decided ? ' (the operator decided)' : ''}`,
    );
  else
    lines.push(
      `not verified${review.decided ? ' (the operator decided: unverify)' : review.match && review.match.state !== 'matched' ? `: ${WHY[review.match.state]}` : ''}`,
    );
  if (review.match?.state === 'ambiguous') lines.push(`jobs that fit: completed ${review.match.candidates.join(', ')}`);
  if (review.removed)
    lines.push(`removed ${review.removed.at}${review.removed.reason ? `: ${review.removed.reason}` : ''}`);
  if (review.withdrawnAt) lines.push(`withdrawn by its platform ${review.withdrawnAt}`);
  write(`${lines.join('\n')}\n`);
  return 0;
}

export async function showLog(
  store: Store,
  options: { json: boolean; limit: number; action?: OperatorAction },
): Promise<number> {
  const entries = await store.operator.log(options.limit, options.action);
  if (options.json) {
    json(entries);
    return 0;
  }
  if (!entries.length) {
    write('no operator changes logged\n');
    return 0;
  }
  const rows = entries.map((e) => [e.at, e.action, e.reviewId ?? describeImport(e.action, e.details), e.reason ?? '']);
  write(formatTable(['at', 'action', 'what', 'reason'], rows));
  return 0;
}

function describeImport(action: OperatorAction, details: Record<string, unknown> | undefined): string {
  if (!details) return '';
  const files = Array.isArray(details.files) ? details.files.join(', ') : '';
  const count = (key: string) => (typeof details[key] === 'number' ? n(details[key] as number) : '0');
  if (action === 'import-jobs') {
    const m = (details.match ?? {}) as Record<string, unknown>;
    return `jobs from ${String(details.source ?? 'own')}: ${files} (added ${count('added')}, updated ${count('updated')}; ${String(m.verified ?? 0)} reviews newly verified, ${String(m.unverified ?? 0)} no longer)`;
  }
  const verified = details.verified === true ? ', --verified' : '';
  return `${String(details.source ?? 'own')}${verified}: ${files} (added ${count('added')}, updated ${count('updated')}, removed ${count('removed')}, withdrawn ${count('withdrawn')})`;
}
