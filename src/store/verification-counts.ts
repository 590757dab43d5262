// The figures behind the published verification summary, read with the published reviews in one transaction.
import { sql, type QueryExecutorProvider } from 'kysely';
import { DEFAULT_WINDOW_DAYS, type VerificationCounts } from '../reviews/verification.js';
import { REVIEW_STATE } from './rows.js';

export async function readVerificationCounts(db: QueryExecutorProvider): Promise<VerificationCounts> {
  const { rows } = await sql<{ source: string; state: string; n: number }>`
    SELECT coalesce(source, 'own') AS source, ${REVIEW_STATE} AS state, count(*) AS n FROM reviews GROUP BY 1, 2`.execute(
    db,
  );
  const bySource: VerificationCounts['bySource'] = {};
  for (const { source, state, n } of rows) {
    if (state === 'withdrawn') continue;
    const entry = (bySource[source] ??= { received: 0, published: 0, unmatched: 0, removed: 0 });
    entry.received += Number(n);
    if (state === 'published') entry.published += Number(n);
    else if (state === 'removed') entry.removed += Number(n);
    else entry.unmatched += Number(n);
  }
  const ledger = await sql<{
    matched_window_days: number | null;
  }>`SELECT matched_window_days FROM ledger_state WHERE id = 1`.execute(db);
  return { windowDays: Number(ledger.rows[0]?.matched_window_days ?? DEFAULT_WINDOW_DAYS), bySource };
}
