// What the service says of its verification in public: the rule in one sentence, and how many reviews the business
// received, published and holds back, per source. Every output that states it (the dataset, the home page, the
// feeds, MCP `get_business`) takes it from here, so they say the same.
import type { VerificationSummary } from './schemas.js';

/** The store's figures behind the summary: reviews by source, as received and as published. */
export interface VerificationCounts {
  /** Days after a job within which its customer's review matches it, as the reviews were last matched. */
  windowDays: number;
  /** Reviews received by source (the platform written on, `own` for the service's own records), not withdrawn upstream. */
  bySource: Record<string, { received: number; published: number; unmatched: number; removed: number }>;
}

/** Days after a job's completion within which its customer's review matches it, unless `VERIFY_WINDOW_DAYS` says otherwise. */
export const DEFAULT_WINDOW_DAYS = 60;

/** The figures of a store that holds no review. */
export const NO_COUNTS: VerificationCounts = { windowDays: DEFAULT_WINDOW_DAYS, bySource: {} };

/** The rule, as a person reads it. */
export function ruleSentence(windowDays: number): string {
  return (
    `A review is verified when it matches a completed job of the business, by a job reference it carries or by the customer's name ` +
    `within ${windowDays} days after the job; where no job record can decide, the business's word or the platform's own verification ` +
    'counts, and the rating never does.'
  );
}

export function verificationSummary(counts: VerificationCounts): VerificationSummary {
  const total = { received: 0, published: 0, unmatched: 0, removed: 0 };
  const bySource: VerificationSummary['bySource'] = {};
  for (const source of Object.keys(counts.bySource).sort()) {
    const c = counts.bySource[source]!;
    total.received += c.received;
    total.published += c.published;
    total.unmatched += c.unmatched;
    total.removed += c.removed;
    bySource[source] = { received: c.received, published: c.published };
  }
  return { rule: ruleSentence(counts.windowDays), ...total, bySource };
}

const n = (x: number) => x.toLocaleString('en-US');

/** What the home page says under the rating: the counts, that the rating never mattered, and the rule. */
export function verificationStatement(summary: VerificationSummary): string {
  const { published, received } = summary;
  const reviews = (count: number) => `${n(count)} review${count === 1 ? '' : 's'}`;
  let shown: string;
  if (received === 0) shown = 'No reviews received yet.';
  else if (published === received)
    shown =
      received === 1
        ? 'The one review received is verified and shown, whatever its rating.'
        : `All ${reviews(received)} received are verified and shown, whatever their rating.`;
  else if (published === 0) shown = `None of the ${reviews(received)} received is verified yet.`;
  else if (published === 1) shown = `The one verified review of ${n(received)} received is shown, whatever its rating.`;
  else shown = `All ${n(published)} verified reviews of ${n(received)} received are shown, whatever their rating.`;
  return `${shown} ${summary.rule}`;
}
