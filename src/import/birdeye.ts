// Birdeye's review objects (a list answer, or one object). Birdeye re-serves reviews from Google, Facebook and
// others, but gives no platform's own review id: its reviews are keyed by Birdeye's id, with `source` the platform.
// `rating: 0` is no star rating (a recommendation): left out.
import { z } from 'zod';
import { isCalendarDate } from '../reviews/dates.js';
import { parseRecord, type Adapter } from './adapter.js';
import { trimmed } from './fields.js';
import { openPlatformFile, pagesOrReviews } from './platform-file.js';
import { platformName } from './podium.js';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** Birdeye's `reviewDate` ("Jan 20, 2014"), already the business's local date, as YYYY-MM-DD. */
export function birdeyeDate(value: string): string | undefined {
  const match = /^([A-Za-z]{3})[a-z]*\.? (\d{1,2}), (\d{4})$/.exec(value.trim());
  if (!match) return undefined;
  const month = MONTHS.indexOf(match[1]!.toLowerCase()) + 1;
  if (!month) return undefined;
  const day = `${match[3]}-${String(month).padStart(2, '0')}-${match[2]!.padStart(2, '0')}`;
  return isCalendarDate(day) ? day : undefined;
}

const LocalDate = z.string().transform((value, ctx) => {
  const day = birdeyeDate(value);
  if (day === undefined) {
    ctx.addIssue({ code: 'custom', message: `"${value.slice(0, 40)}" is not a date like "Jan 20, 2014"` });
    return z.NEVER;
  }
  return day;
});

const Reply = z.union([
  z.string(),
  z.object({ comments: z.string().nullable().optional(), responseDate: LocalDate.nullable().optional() }),
]);

const BirdeyeReview = z.object({
  reviewId: z.union([z.number().int(), z.string().min(1).max(180)]),
  rating: z.number().min(0).max(5),
  comments: z.string().max(20000).nullable().optional(),
  title: z.string().max(500).nullable().optional(),
  reviewer: z
    .object({
      firstName: z.string().max(100).nullable().optional(),
      lastName: z.string().max(100).nullable().optional(),
      nickName: z.string().max(200).nullable().optional(),
    })
    .nullable()
    .optional(),
  sourceType: z.string().min(1).max(100),
  reviewDate: LocalDate,
  response: Reply.nullable().optional(),
  responseDate: LocalDate.nullable().optional(),
});

export const birdeye: Adapter = {
  name: 'birdeye',
  complete: { feed: 'birdeye' },
  open: (file) =>
    openPlatformFile(
      file,
      'birdeye',
      pagesOrReviews(
        'reviews',
        (value) => 'reviewId' in value && 'sourceType' in value,
        'a Birdeye reviews answer (an array of reviews or { "reviews": [...] }) or a review object ({ "reviewId", "rating", "sourceType", "reviewDate", ... })',
      ),
    ),
  map(value, { verified }) {
    const parsed = parseRecord(BirdeyeReview, value);
    if (!parsed.ok) return parsed.mapped;
    const r = parsed.record;
    if (r.rating === 0) return { kind: 'skip', reason: 'rating 0 is not a star rating' };
    if (!Number.isInteger(r.rating))
      return {
        kind: 'invalid',
        problems: [{ field: 'rating', reason: 'a star rating is a whole number from 1 to 5' }],
      };
    const reviewer = r.reviewer ?? {};
    const name =
      trimmed(reviewer.nickName) || [trimmed(reviewer.firstName), trimmed(reviewer.lastName)].filter(Boolean).join(' ');
    const replyText = typeof r.response === 'string' ? trimmed(r.response) : trimmed(r.response?.comments);
    const replyDate =
      (typeof r.response === 'object' ? r.response?.responseDate : undefined) ?? r.responseDate ?? r.reviewDate;
    const title = trimmed(r.title);
    return {
      kind: 'review',
      review: {
        id: `birdeye:${r.reviewId}`,
        date: r.reviewDate,
        rating: r.rating,
        text: trimmed(r.comments),
        author: name || `A ${r.sourceType} user`,
        technicians: [],
        services: [],
        source: platformName(r.sourceType),
        ...(title ? { title } : {}),
        ...(replyText ? { response: { date: replyDate, text: replyText } } : {}),
        verification: verified ? 'operator' : null,
        feed: 'birdeye',
        ...(name ? {} : { anonymous: true }),
      },
    };
  },
};
