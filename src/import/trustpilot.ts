// Trustpilot's business-units review answers (`{ reviews[] }` pages) and single review objects. Its terms forbid
// editing a review and showing emails or reference numbers: the text is kept as written, `referenceId` is kept
// private (for matching to a job) and `referralEmail` is never read.
import { z } from 'zod';
import { localDate } from '../reviews/dates.js';
import { parseRecord, type Adapter } from './adapter.js';
import { Instant, latest, trimmed } from './fields.js';
import { openPlatformFile, pagesOrReviews } from './platform-file.js';

const TrustpilotReview = z.object({
  id: z.string().min(1).max(180),
  stars: z.number().int().min(1).max(5),
  title: z.string().max(500).nullable().optional(),
  text: z.string().max(20000).nullable().optional(),
  language: z.string().max(35).nullable().optional(),
  createdAt: Instant,
  updatedAt: Instant.nullable().optional(),
  consumer: z
    .object({ displayName: z.string().max(200).nullable().optional() })
    .nullable()
    .optional(),
  companyReply: z
    .object({
      text: z.string().max(20000).nullable().optional(),
      createdAt: Instant.nullable().optional(),
      updatedAt: Instant.nullable().optional(),
    })
    .nullable()
    .optional(),
  isVerified: z.boolean().optional(),
  referenceId: z.string().max(200).nullable().optional(),
});

/** How Trustpilot names a consumer without a display name. */
const TRUSTPILOT_ANONYMOUS = 'Trustpilot customer';

export const trustpilot: Adapter = {
  name: 'trustpilot',
  complete: { idPrefix: 'trustpilot:' },
  open: (file) =>
    openPlatformFile(
      file,
      'trustpilot',
      pagesOrReviews(
        'reviews',
        (value) => 'stars' in value && 'id' in value,
        'a Trustpilot business-unit reviews answer ({ "reviews": [...] }), an array of them, or a review object ({ "id", "stars", "createdAt", ... })',
      ),
    ),
  map(value, { timeZone, verified }) {
    const parsed = parseRecord(TrustpilotReview, value);
    if (!parsed.ok) return parsed.mapped;
    const r = parsed.record;
    const reply = r.companyReply && trimmed(r.companyReply.text);
    const replyAt = r.companyReply?.updatedAt ?? r.companyReply?.createdAt ?? r.updatedAt ?? r.createdAt;
    const title = trimmed(r.title);
    const language = trimmed(r.language);
    const name = trimmed(r.consumer?.displayName);
    return {
      kind: 'review',
      review: {
        id: `trustpilot:${r.id}`,
        date: localDate(r.createdAt, timeZone),
        rating: r.stars,
        text: trimmed(r.text),
        author: name || TRUSTPILOT_ANONYMOUS,
        technicians: [],
        services: [],
        source: 'trustpilot',
        ...(title ? { title } : {}),
        ...(reply ? { response: { date: localDate(replyAt, timeZone), text: reply } } : {}),
        ...(language ? { language } : {}),
        verification: r.isVerified ? 'platform' : verified ? 'operator' : null,
        feed: 'trustpilot',
        upstreamUpdatedAt: latest(r.createdAt, r.updatedAt, r.companyReply?.createdAt, r.companyReply?.updatedAt)!,
        ...(name ? {} : { anonymous: true }),
        ...(r.referenceId ? { reference: r.referenceId } : {}),
      },
    };
  },
};
