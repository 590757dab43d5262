// Google Business Profile API v4: `accounts.locations.reviews.list` answers (`{ reviews[], averageRating,
// totalReviewCount, nextPageToken }`), arrays of them, and single review objects.
import { z } from 'zod';
import { localDate } from '../reviews/dates.js';
import { detectLanguage } from '../reviews/language.js';
import { parseRecord, type Adapter } from './adapter.js';
import { Instant, latest, trimmed } from './fields.js';
import { openPlatformFile, pagesOrReviews } from './platform-file.js';

const STARS = { ONE: 1, TWO: 2, THREE: 3, FOUR: 4, FIVE: 5 } as const;

const GoogleReview = z.object({
  reviewId: z.string().min(1).max(190),
  reviewer: z.object({ displayName: z.string().optional(), isAnonymous: z.boolean().optional() }).optional(),
  starRating: z.enum(['STAR_RATING_UNSPECIFIED', 'ONE', 'TWO', 'THREE', 'FOUR', 'FIVE']),
  comment: z.string().max(40000).optional(),
  createTime: Instant,
  updateTime: Instant.optional(),
  reviewReply: z.object({ comment: z.string(), updateTime: Instant.optional() }).optional(),
});

/** How Google names a reviewer it does not show. */
export const GOOGLE_ANONYMOUS = 'A Google User';

const TRANSLATED = '(Translated by Google)';
const ORIGINAL = '(Original)';

/**
 * Splits Google's translation envelope: `(Translated by Google) <translation>\n\n(Original)\n<the customer's words>`,
 * the same with the original first, or the prefix alone (Google kept no original: its words are all there is).
 */
export function splitTranslation(comment: string): { text: string; translation?: string } {
  const at = comment.indexOf(TRANSLATED);
  if (at < 0) return { text: comment.trim() };
  const original = comment.indexOf(ORIGINAL);
  if (at === 0 && original > 0) {
    return {
      text: comment.slice(original + ORIGINAL.length).trim(),
      translation: comment.slice(TRANSLATED.length, original).trim(),
    };
  }
  if (at === 0) return { text: comment.slice(TRANSLATED.length).trim() };
  // The original first, then `(Translated by Google)` and the translation.
  const text = comment
    .slice(0, at)
    .replace(/^\s*\(Original\)\s*/, '')
    .trim();
  return { text, translation: comment.slice(at + TRANSLATED.length).trim() };
}

export const google: Adapter = {
  name: 'google',
  complete: { idPrefix: 'google:' },
  open: (file) =>
    openPlatformFile(
      file,
      'google',
      pagesOrReviews(
        'reviews',
        (value) => 'reviewId' in value,
        'a Google Business Profile reviews.list answer ({ "reviews": [...], "nextPageToken"?: ... }), an array of them, or a review object ({ "reviewId", "starRating", "createTime", ... })',
        (value) => 'totalReviewCount' in value || 'averageRating' in value || Object.keys(value).length === 0,
      ),
    ),
  map(value, { timeZone, verified }) {
    const parsed = parseRecord(GoogleReview, value);
    if (!parsed.ok) return parsed.mapped;
    const r = parsed.record;
    if (r.starRating === 'STAR_RATING_UNSPECIFIED')
      return { kind: 'skip', reason: 'starRating STAR_RATING_UNSPECIFIED is not a rating' };
    const { text, translation } = splitTranslation(r.comment ?? '');
    const anonymous = r.reviewer?.isAnonymous === true;
    const reply = r.reviewReply && trimmed(r.reviewReply.comment);
    return {
      kind: 'review',
      review: {
        id: `google:${r.reviewId}`,
        date: localDate(r.createTime, timeZone),
        rating: STARS[r.starRating],
        text,
        author: anonymous ? GOOGLE_ANONYMOUS : trimmed(r.reviewer?.displayName) || GOOGLE_ANONYMOUS,
        technicians: [],
        services: [],
        source: 'google',
        ...(translation ? { translation: { language: translationLanguage(translation), text: translation } } : {}),
        ...(reply
          ? {
              response: {
                date: localDate(r.reviewReply!.updateTime ?? r.updateTime ?? r.createTime, timeZone),
                text: reply,
              },
            }
          : {}),
        verification: verified ? 'operator' : null,
        feed: 'google',
        upstreamUpdatedAt: latest(r.createTime, r.updateTime, r.reviewReply?.updateTime)!,
        ...(anonymous ? { anonymous } : {}),
      },
    };
  },
};

/** Google translates into its reader's language, English for the business's own export, unless the words say otherwise. */
function translationLanguage(text: string): string {
  const detected = detectLanguage(text);
  return detected === 'und' ? 'en' : detected;
}
