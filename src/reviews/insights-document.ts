// The insights document's schema: one definition for its TypeScript types, the OpenAPI components, the MCP output
// schemas and the checks the tests make of what /insights.json serves.
import { z } from 'zod';
import { AspectId, IsoDate } from './schemas.js';

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

const Quotes = z
  .object({ positive: z.array(Quote), negative: z.array(Quote) })
  .strict()
  .describe('Strongest quotes each way');

export const AspectInsight = Tally.extend({
  id: AspectId,
  label: z.string(),
  trend: z
    .array(Tally.extend({ quarter: z.string().regex(/^\d{4}-Q[1-4]$/) }).strict())
    .describe('By calendar quarter, oldest first'),
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

/** A topic's quote: an aspect quote's fields but its score, the text being a whole sentence. */
export const TopicQuote = Quote.omit({ score: true }).extend({
  text: z.string().describe('The sentence of the review that uses the phrase, as written'),
});

export const TopicInsight = z
  .object({
    phrase: z
      .string()
      .describe(
        'A recurring phrase found in the reviews (lowercase, accents folded): the most used of the topic, which `name` writes as customers do',
      ),
    name: z
      .string()
      .describe(
        'The topic\'s name: its phrase as most of its newest uses write it, hyphenated words whole ("spring tune-up", "AC repair")',
      ),
    phrases: z
      .array(z.string())
      .describe(
        'Every phrase the topic counts: its name first, then near-duplicates merged into it: plurals ("ceiling fan", "ceiling fans"), phrases used by nearly the same reviews ("condenser fan", "fan motor")',
      ),
    mentions: z.number().int(),
    positive: z.number().int().describe('Reviews using it whose overall sentiment is positive'),
    negative: z.number().int(),
    sentiment: Share.describe('Mean overall sentiment of the reviews using it'),
    examples: z.array(z.string()).describe('Review ids of the newest uses'),
    quotes: z.array(TopicQuote).describe('The sentences of the newest uses'),
    reviewIds: z.array(z.string()),
  })
  .strict();

const RatedName = z.object({ name: z.string(), averageRating: z.number(), reviews: z.number().int() }).strict();

/** The figures an FAQ answer states: one shape per kind of question. */
const FaqFigures = z.union([
  z
    .object({
      aspect: AspectId,
      mentions: z.number().int(),
      positive: z.number().int(),
      negative: z.number().int(),
      positiveShare: z.number().int().describe('Whole percent'),
    })
    .strict(),
  z
    .object({
      reviews: z.number().int(),
      fourOrFiveStars: z.number().int(),
      share: z.number().int().describe('Whole percent'),
    })
    .strict(),
  z.object({ technicians: z.array(RatedName) }).strict(),
  z
    .object({
      services: z.array(z.object({ id: z.string(), reviews: z.number().int(), averageRating: z.number() }).strict()),
    })
    .strict(),
]);

export const FaqItem = z
  .object({
    id: z.string(),
    question: z.string(),
    answer: z.string(),
    figures: FaqFigures.describe('The figures the answer states'),
    reviewIds: z.array(z.string()).describe('Reviews that support the answer'),
  })
  .strict();

export const SummaryInsight = z
  .object({
    text: z.string().describe('An editorial paragraph, written from the figures beside it and only from them'),
    figures: z
      .object({
        reviewCount: z.number().int(),
        averageRating: z.number().optional(),
        mostPraised: z
          .object({ aspect: AspectId, positive: z.number().int(), mentions: z.number().int() })
          .strict()
          .optional(),
        mostCriticised: z
          .object({ aspect: AspectId, negative: z.number().int(), mentions: z.number().int() })
          .strict()
          .optional(),
        bestTechnician: RatedName.optional(),
        trend: z
          .object({
            recentQuarters: z.array(z.string()),
            recentAverage: z.number(),
            recentReviews: z.number().int(),
            earlierAverage: z.number(),
            earlierReviews: z.number().int(),
          })
          .strict()
          .optional(),
      })
      .strict()
      .optional(),
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
    asOf: z.iso
      .datetime()
      .nullable()
      .describe(
        'When the published data it describes last changed (the Last-Modified of that /reviews.json); null while building or for a store that never published',
      ),
    reviewCount: z.number().int().describe('Verified reviews it describes: those analysed (see `languages`)'),
    languages: z
      .object({
        analysed: z
          .number()
          .int()
          .describe(
            "Reviews analysed: written in English, or with the platform's English translation (which is what is analysed then)",
          ),
        ratingOnly: z
          .number()
          .int()
          .describe(
            'Reviews that are a rating without text: counted in the aggregate rating of /reviews.json, not here',
          ),
        notAnalysed: z
          .record(z.string(), z.number().int())
          .describe('Reviews in other languages without an English translation, by BCP 47 tag: counted, not analysed'),
      })
      .strict()
      .optional()
      .describe('Which published reviews the insights analyse: the analysis reads English'),
    lexiconVersion: z.string().optional().describe('Version of the home-services lexicon the analysis used'),
    minMentions: z.number().int().optional().describe('Nothing is reported with fewer mentions than this'),
    aspects: z.array(AspectInsight),
    entities: z
      .object({
        technicians: z.array(z.object({ name: z.string(), ...EntityFields }).strict()),
        services: z.array(
          z.object({ id: z.string(), name: z.string(), category: z.string().nullable(), ...EntityFields }).strict(),
        ),
        serviceAreas: z.array(z.object({ name: z.string(), ...EntityFields }).strict()),
      })
      .strict(),
    topics: z.array(TopicInsight),
    faq: z.array(FaqItem),
    summary: SummaryInsight,
  })
  .strict();

export type Tally = z.infer<typeof Tally>;
export type Quote = z.infer<typeof Quote>;
export type AspectInsight = z.infer<typeof AspectInsight>;
export type TopicInsight = z.infer<typeof TopicInsight>;
export type TopicQuote = z.infer<typeof TopicQuote>;
export type FaqItem = z.infer<typeof FaqItem>;
export type SummaryInsight = z.infer<typeof SummaryInsight>;
export type InsightsDocument = z.infer<typeof InsightsDocument>;
export type TechnicianInsight = InsightsDocument['entities']['technicians'][number];
export type ServiceInsight = InsightsDocument['entities']['services'][number];
export type AreaInsight = InsightsDocument['entities']['serviceAreas'][number];
