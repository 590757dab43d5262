// Zod schemas of the public JSON and of imported records: one source for validation, TS types and OpenAPI.
import { z } from 'zod';

/** A calendar date, YYYY-MM-DD; impossible dates such as 2025-02-30 are rejected. */
export const IsoDate = z.iso
  .date({ error: 'must be a calendar date written YYYY-MM-DD (e.g. 2025-02-28)' })
  .describe('Calendar date, YYYY-MM-DD');

export const ServiceId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'lowercase letters, digits and hyphens, at most 64 characters')
  .describe('Service id from the business catalogue, e.g. "ac-repair"');

export const Service = z
  .object({
    id: ServiceId,
    name: z.string().min(1).max(200),
    category: z.string().min(1).max(100).describe('Trade, e.g. cooling, plumbing, electrical'),
  })
  .strict();

export const Technician = z
  .object({
    name: z.string().min(1).max(200),
    aliases: z.array(z.string().min(1).max(100)).optional().describe('Nicknames customers use'),
  })
  .strict();

export const PostalAddress = z
  .object({
    streetAddress: z.string().max(300).optional(),
    addressLocality: z.string().max(200).optional(),
    addressRegion: z.string().max(200).optional(),
    postalCode: z.string().max(50).optional(),
    addressCountry: z.string().max(100).optional(),
  })
  .strict();

const WEB_URL = 'must be an absolute http:// or https:// URL';

/**
 * A URL the operator gives that the pages may turn into a link: http(s) only, so never `javascript:` or `data:`.
 * The scheme must be written with its `//` (`http:example.com` would parse, but is not what anyone means).
 */
export const WebUrl = z.url({ protocol: /^https?$/, abort: true, error: WEB_URL }).regex(/^https?:\/\//i, WEB_URL);

export const isWebUrl = (value: string): boolean => WebUrl.safeParse(value).success;

/** An IANA time zone name (`America/Phoenix`): the zone whose calendar gives every review its date. */
export const TimeZone = z
  .string()
  .min(1)
  .max(100)
  .refine(isTimeZone, 'must be an IANA time zone name, e.g. America/Phoenix')
  .describe('IANA time zone of the business: review and reply dates are its local dates');

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return /^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/.test(name);
  } catch {
    return false;
  }
}

const businessFields = {
  name: z.string().min(1).max(300),
  description: z.string().max(5000).optional(),
  url: z.url().optional(),
  telephone: z.string().max(50).optional(),
  email: z.email().optional(),
  address: PostalAddress.optional(),
  areaServed: z.array(z.string().min(1).max(200)).default([]),
  services: z.array(Service).default([]),
  technicians: z.array(Technician).default([]),
  timeZone: TimeZone.optional(),
};

/**
 * The business, with schema.org property names plus its service catalogue and technicians. Its `url` stays any URL
 * here because a stored business is read back through this schema: one imported before imports required http(s)
 * must still be served (the pages link to it only when it is http(s)).
 */
export const Business = z.object(businessFields).strict();

/** The business of an import file: every URL in it is http(s), or the import is refused. */
export const ImportedBusiness = z.object({ ...businessFields, url: WebUrl.optional() }).strict();

export const OwnerResponse = z.object({ date: IsoDate, text: z.string().min(1).max(20000) }).strict();

/** A BCP 47 language tag as platforms and the detector give them: `en`, `es`, `pt-BR`, `zh-Hant`. */
export const LanguageTag = z
  .string()
  .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'a BCP 47 language tag, e.g. en, es, pt-BR')
  .describe('BCP 47 language tag');

export const Translation = z
  .object({ language: LanguageTag, text: z.string().min(1).max(20000) })
  .strict()
  .describe(
    "The platform's machine translation of the review's text, labelled as such; `text` stays the customer's own words",
  );

export const VerificationMethod = z
  .enum(['job', 'reference', 'operator', 'platform'])
  .describe(
    'What the verification rests on: a completed job of the customer (`job`), a job reference the review carries (`reference`), ' +
      "the operator's word (`operator`), or the platform's own verification (`platform`)",
  );

export const MentionFromJob = z.enum(['technicians', 'services', 'serviceArea']);
export type MentionFromJob = z.infer<typeof MentionFromJob>;

export const Verification = z
  .object({
    method: VerificationMethod,
    date: IsoDate.describe("When the review was verified (the business's local date)"),
    fromJob: z
      .array(MentionFromJob)
      .optional()
      .describe(
        'The mentions the review takes from the completed job it matched, where it names none itself (the others come from the review)',
      ),
  })
  .strict();

const reviewFields = {
  id: z
    .string()
    .min(1)
    .max(200)
    .describe("Stable review id, unique within the business; a platform's review is `<platform>:<its id>`"),
  date: IsoDate,
  rating: z.number().int().min(1).max(5),
  text: z.string().max(20000).describe("The customer's own words; empty for a rating-only review"),
  author: z.string().min(1).max(200),
  technicians: z.array(z.string().min(1).max(200)).default([]).describe('Technician names'),
  services: z.array(ServiceId).default([]),
  serviceArea: z.string().min(1).max(200).optional(),
  source: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe(
      'The platform the review was written on (`google`, `trustpilot`, `facebook`, …), or where it was collected',
    ),
  title: z.string().min(1).max(500).optional(),
  response: OwnerResponse.optional().describe("The business owner's public reply"),
};

/** A published review, as every endpoint shows it. */
export const Review = z
  .object({
    ...reviewFields,
    language: LanguageTag.describe(
      "BCP 47 language of `text`: the platform's when it gives one, else detected (`und` when it cannot be told)",
    ),
    translation: Translation.optional(),
    verification: Verification,
  })
  .strict();

/**
 * One record of the service's own import format; only `"verified": true` records are ever published (the
 * operator's word). A record without `language` has it detected from its text.
 */
export const ImportedReview = z
  .object({
    ...reviewFields,
    language: LanguageTag.optional(),
    verified: z.boolean().default(false),
    reference: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe('A job id the review carries, matched against the job ledger; private, never published'),
  })
  .strict();

export const RatingDistribution = z
  .object({
    '1': z.number().int(),
    '2': z.number().int(),
    '3': z.number().int(),
    '4': z.number().int(),
    '5': z.number().int(),
  })
  .strict();

export const AggregateRating = z
  .object({
    ratingValue: z.number().nullable().describe('Mean rating to two decimals; null without reviews'),
    reviewCount: z.number().int(),
    bestRating: z.literal(5),
    worstRating: z.literal(1),
    distribution: RatingDistribution,
  })
  .strict();

const Count = z.number().int().min(0);

export const VerificationSummary = z
  .object({
    rule: z
      .string()
      .describe(
        'The verification rule, in one sentence: the home page, both feeds and MCP `get_business` state the same',
      ),
    received: Count.describe(
      'Reviews the business received (on every platform and in its own records), not withdrawn by their platform',
    ),
    published: Count.describe('Verified reviews, all of which are published whatever their rating'),
    unmatched: Count.describe('Reviews waiting for a completed job to match, or that two or more jobs fit'),
    removed: Count.describe('Reviews taken out of every output at the request of their author'),
    bySource: z
      .record(z.string(), z.object({ received: Count, published: Count }).strict())
      .describe("The same by the platform a review was written on (`own` for the business's own records)"),
  })
  .strict();

export const ReviewsDataset = z
  .object({
    business: Business.nullable(),
    aggregateRating: AggregateRating,
    verification: VerificationSummary,
    reviews: z.array(Review),
  })
  .strict();

export type IsoDate = z.infer<typeof IsoDate>;
export type AspectId = z.infer<typeof AspectId>;
export type Service = z.infer<typeof Service>;
export type Technician = z.infer<typeof Technician>;
export type Business = z.infer<typeof Business>;
export type Review = z.infer<typeof Review>;
export type ImportedReview = z.infer<typeof ImportedReview>;
export type VerificationSummary = z.infer<typeof VerificationSummary>;
export type Translation = z.infer<typeof Translation>;
export type Verification = z.infer<typeof Verification>;
export type VerificationMethod = z.infer<typeof VerificationMethod>;
export type AggregateRating = z.infer<typeof AggregateRating>;
export type ReviewsDataset = z.infer<typeof ReviewsDataset>;
export type JsonFeedDocument = z.infer<typeof JsonFeedDocument>;

export const AspectId = z.enum([
  'punctuality',
  'responsiveness',
  'price',
  'quality',
  'professionalism',
  'communication',
  'cleanliness',
  'expertise',
]);

/** The JSON Feed 1.1 document this service publishes (the spec's fields plus a `_review` extension). */
export const JsonFeedDocument = z
  .object({
    version: z.literal('https://jsonfeed.org/version/1.1'),
    title: z.string(),
    home_page_url: z.url(),
    feed_url: z.url(),
    description: z.string(),
    language: z.string(),
    hubs: z.array(z.object({ type: z.string(), url: z.url() }).strict()),
    items: z
      .array(
        z
          .object({
            id: z.string(),
            url: z.url(),
            title: z.string(),
            content_text: z.string(),
            language: z.string().describe("BCP 47 language of the review's text"),
            date_published: z.iso.datetime(),
            date_modified: z.iso.datetime(),
            authors: z.array(z.object({ name: z.string() }).strict()),
            tags: z.array(z.string()),
            _review: z
              .object({
                about: z.url().describe('Where this extension is described'),
                id: z.string(),
                rating: z.number().int().min(1).max(5),
                technicians: z.array(z.string()),
                services: z.array(z.string()),
                serviceArea: z.string().optional(),
              })
              .strict()
              .describe('Extension: the review fields a feed reader cannot otherwise see'),
          })
          .strict(),
      )
      .max(50),
  })
  .strict();
