// Podium's review objects (a `{ data: [...] }` list answer, an array, or one object). Podium re-serves reviews
// written on Google, Facebook and others: each is keyed by the platform it was written on and that platform's id,
// so a Google review imported from Google and from Podium is one review.
import { z } from 'zod';
import { localDate } from '../reviews/dates.js';
import { parseRecord, type Adapter } from './adapter.js';
import { Instant, latest, trimmed } from './fields.js';
import { isObject, openPlatformFile, pagesOrReviews } from './platform-file.js';

const Response = z.object({
  body: z.string().max(20000).nullable().optional(),
  createdAt: Instant.nullable().optional(),
  updatedAt: Instant.nullable().optional(),
});

const PodiumReview = z.object({
  uid: z.string().max(180).optional(),
  review: z.object({
    body: z.string().max(20000).nullable().optional(),
    rating: z.number().nullable().optional(),
    siteName: z.string().min(1).max(100),
    siteReviewId: z
      .union([z.string().min(1).max(180), z.number()])
      .nullable()
      .optional(),
  }),
  author: z
    .object({ name: z.string().max(200).nullable().optional() })
    .nullable()
    .optional(),
  responses: z.array(Response).nullable().optional(),
  /** A Facebook recommendation: Podium gives it a rating of 5 (or 1), but it is no star rating. */
  isRecommendation: z.boolean().nullable().optional(),
  createdAt: Instant,
  updatedAt: Instant.nullable().optional(),
});

/** The platform a review was written on, as the service names it (`Google` → `google`; Birdeye's "Our Website" is Birdeye's own). */
export function platformName(site: string): string {
  if (/^our website$/i.test(site.trim())) return 'birdeye';
  return (
    site
      .trim()
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'unknown'
  );
}

export const podium: Adapter = {
  name: 'podium',
  complete: { feed: 'podium' },
  open: (file) =>
    openPlatformFile(
      file,
      'podium',
      pagesOrReviews(
        'data',
        (value) => isObject(value.review) && 'siteName' in value.review,
        'a Podium reviews answer ({ "data": [...] }), an array of reviews, or a review object ({ "review": { "body", "rating", "siteName", "siteReviewId" }, "author", "createdAt", ... })',
      ),
    ),
  map(value, { timeZone, verified }) {
    const parsed = parseRecord(PodiumReview, value);
    if (!parsed.ok) return parsed.mapped;
    const r = parsed.record;
    const rating = r.review.rating;
    if (r.isRecommendation === true || rating === null || rating === undefined || rating === 0)
      return { kind: 'skip', reason: `a ${r.review.siteName} recommendation, not a star rating` };
    if (!Number.isInteger(rating) || rating < 1 || rating > 5)
      return {
        kind: 'invalid',
        problems: [{ field: 'review.rating', reason: 'a star rating is a whole number from 1 to 5' }],
      };
    const source = platformName(r.review.siteName);
    const platformId = r.review.siteReviewId ?? null;
    if (platformId === null && !r.uid)
      return {
        kind: 'invalid',
        problems: [{ field: 'review.siteReviewId', reason: 'a review needs its platform id (or a Podium uid)' }],
      };
    const reply = [...(r.responses ?? [])].reverse().find((x) => trimmed(x.body));
    const name = trimmed(r.author?.name);
    return {
      kind: 'review',
      review: {
        id: platformId !== null ? `${source}:${platformId}` : `podium:${r.uid}`,
        date: localDate(r.createdAt, timeZone),
        rating,
        text: trimmed(r.review.body),
        author: name || `A ${r.review.siteName} user`,
        technicians: [],
        services: [],
        source,
        ...(reply
          ? {
              response: {
                date: localDate(reply.updatedAt ?? reply.createdAt ?? r.updatedAt ?? r.createdAt, timeZone),
                text: trimmed(reply.body),
              },
            }
          : {}),
        verification: verified ? 'operator' : null,
        feed: 'podium',
        upstreamUpdatedAt: latest(
          r.createdAt,
          r.updatedAt,
          ...(r.responses ?? []).flatMap((x) => [x.createdAt, x.updatedAt]),
        )!,
        ...(name ? {} : { anonymous: true }),
      },
    };
  },
};
