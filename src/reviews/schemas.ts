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

/** The business, with schema.org property names plus its service catalogue and technicians. */
export const Business = z
  .object({
    name: z.string().min(1).max(300),
    description: z.string().max(5000).optional(),
    url: z.url().optional(),
    telephone: z.string().max(50).optional(),
    email: z.email().optional(),
    address: PostalAddress.optional(),
    areaServed: z.array(z.string().min(1).max(200)).default([]),
    services: z.array(Service).default([]),
    technicians: z.array(Technician).default([]),
  })
  .strict();

export const OwnerResponse = z
  .object({ date: IsoDate, text: z.string().min(1).max(20000) })
  .strict();

const reviewFields = {
  id: z.string().min(1).max(200).describe('Stable review id, unique within the business'),
  date: IsoDate,
  rating: z.number().int().min(1).max(5),
  text: z.string().min(1).max(20000),
  author: z.string().min(1).max(200),
  technicians: z.array(z.string().min(1).max(200)).default([]).describe('Technician names'),
  services: z.array(ServiceId).default([]),
  serviceArea: z.string().min(1).max(200).optional(),
  source: z.string().min(1).max(200).optional().describe('Where the review was collected'),
  title: z.string().min(1).max(500).optional(),
  response: OwnerResponse.optional().describe("The business owner's public reply"),
};

/** A published review, as every endpoint shows it. */
export const Review = z.object(reviewFields).strict();

/** One record of an import file; only `"verified": true` records are ever published. */
export const ImportedReview = z
  .object({ ...reviewFields, verified: z.boolean().default(false) })
  .strict();

export const RatingDistribution = z
  .object({ '1': z.number().int(), '2': z.number().int(), '3': z.number().int(), '4': z.number().int(), '5': z.number().int() })
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

export const ReviewsDataset = z
  .object({ business: Business.nullable(), aggregateRating: AggregateRating, reviews: z.array(Review) })
  .strict();

export type IsoDate = z.infer<typeof IsoDate>;
export type AspectId = z.infer<typeof AspectId>;
export type Service = z.infer<typeof Service>;
export type Technician = z.infer<typeof Technician>;
export type Business = z.infer<typeof Business>;
export type Review = z.infer<typeof Review>;
export type ImportedReview = z.infer<typeof ImportedReview>;
export type AggregateRating = z.infer<typeof AggregateRating>;
export type ReviewsDataset = z.infer<typeof ReviewsDataset>;
export type JsonFeedDocument = z.infer<typeof JsonFeedDocument>;
export type InsightsDocument = z.infer<typeof InsightsDocument>;

export const AspectId = z.enum([
  'punctuality', 'responsiveness', 'price', 'quality', 'professionalism', 'communication', 'cleanliness', 'expertise',
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


const Share = z.number().min(-1).max(1);

export const Tally = z.object({
  mentions: z.number().int().describe('Reviews that judge it (each review counts once)'),
  positive: z.number().int(),
  negative: z.number().int(),
  neutral: z.number().int().describe('Reviews whose judgements of it cancel out'),
  score: Share.nullable().describe('(positive − negative) / mentions, two decimals; null below minMentions'),
});

export const Quote = z
  .object({
    reviewId: z.string(),
    date: IsoDate,
    rating: z.number().int().min(1).max(5),
    text: z.string().describe('The clause of the review that decided the judgement, as written'),
    score: Share,
  })
  .strict();

const Quotes = z.object({ positive: z.array(Quote), negative: z.array(Quote) }).strict().describe('Strongest quotes each way');

export const AspectInsight = Tally.extend({
  id: AspectId,
  label: z.string(),
  trend: z.array(Tally.extend({ quarter: z.string().regex(/^\d{4}-Q[1-4]$/) }).strict()).describe('By calendar quarter, oldest first'),
  quotes: Quotes,
  reviewIds: z
    .object({ positive: z.array(z.string()), negative: z.array(z.string()), neutral: z.array(z.string()) })
    .strict()
    .describe('Every review counted, newest first'),
}).strict();

const EntityFields = {
  mentions: z.number().int().describe('Reviews that name it (in their fields or their text)'),
  averageRating: z.number().describe('Mean star rating of those reviews, two decimals'),
  aspects: z.array(Tally.extend({ aspect: AspectId }).strict()).describe('How those reviews judge each aspect'),
  quotes: Quotes,
  reviewIds: z.array(z.string()).describe('Every review counted, newest first'),
};

export const Topic = z
  .object({
    phrase: z.string().describe('A recurring phrase found in the reviews (lowercase, accents folded)'),
    mentions: z.number().int(),
    positive: z.number().int().describe('Reviews using it whose overall sentiment is positive'),
    negative: z.number().int(),
    sentiment: Share.describe('Mean overall sentiment of the reviews using it'),
    examples: z.array(z.string()).describe('Review ids of the newest uses'),
    reviewIds: z.array(z.string()),
  })
  .strict();

export const FaqItem = z
  .object({
    id: z.string(),
    question: z.string(),
    answer: z.string(),
    figures: z.record(z.string(), z.unknown()).describe('The figures the answer states'),
    reviewIds: z.array(z.string()).describe('Reviews that support the answer'),
  })
  .strict();

/** The insights dataset, every figure traceable to the reviews behind it (ids, quotes). */
export const InsightsDocument = z
  .object({
    status: z
      .enum(['building', 'ready'])
      .describe(
        'ready: a complete document, describing the data published at `asOf` (after an import it may lag the reviews until the next one is built; compare `asOf` with the Last-Modified of /reviews.json). building: no insights were ever built for this store yet; sections are empty and the response carries Retry-After',
      ),
    generatedAt: z.iso.datetime().nullable().describe('When this document was built; null while building'),
    asOf: z.iso.datetime().nullable().describe('When the published data it describes last changed (the Last-Modified of that /reviews.json); null while building or for a store that never published'),
    reviewCount: z.number().int().describe('Verified reviews it describes'),
    lexiconVersion: z.string().optional().describe('Version of the home-services lexicon the analysis used'),
    minMentions: z.number().int().optional().describe('Nothing is reported with fewer mentions than this'),
    aspects: z.array(AspectInsight),
    entities: z
      .object({
        technicians: z.array(z.object({ name: z.string(), ...EntityFields }).strict()),
        services: z.array(z.object({ id: z.string(), name: z.string(), category: z.string().nullable(), ...EntityFields }).strict()),
        serviceAreas: z.array(z.object({ name: z.string(), ...EntityFields }).strict()),
      })
      .strict(),
    topics: z.array(Topic),
    faq: z.array(FaqItem),
    summary: z.object({ text: z.string(), figures: z.record(z.string(), z.unknown()).optional() }).strict(),
  })
  .strict();
