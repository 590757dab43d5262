// get_insights: one section of the insights document, cut to fit an assistant's context. Every entry keeps its
// counts; its lists of review ids keep the newest few, and the result says what was left out and how to get it.
import { z } from 'zod';
import { InsightsDocument } from '../reviews/insights-document.js';
import { technicianKeys } from '../reviews/text.js';

export const INSIGHT_SECTIONS = ['aspects', 'technicians', 'services', 'areas', 'topics', 'faq', 'summary'] as const;
type Section = (typeof INSIGHT_SECTIONS)[number];

/** Entries of a list section, and review ids per list, returned by default and at most. */
export const INSIGHT_LIMITS = { entries: { default: 10, max: 50 }, ids: { default: 5, max: 100 } } as const;

export const InsightsArguments = z
  .object({
    section: z
      .enum(INSIGHT_SECTIONS)
      .describe('Which part of the insights: aspects, technicians, services, areas, topics, faq or summary'),
    name: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe(
        'Pick one entry of the section: an aspect id, technician name (first name works), service id or name, area, topic or question',
      ),
    limit: z
      .number()
      .int()
      .min(1)
      .max(INSIGHT_LIMITS.entries.max)
      .default(INSIGHT_LIMITS.entries.default)
      .describe(
        `Entries returned from a list section, most mentioned first: 1 to ${INSIGHT_LIMITS.entries.max}, default ${INSIGHT_LIMITS.entries.default}`,
      ),
    ids: z
      .number()
      .int()
      .min(0)
      .max(INSIGHT_LIMITS.ids.max)
      .default(INSIGHT_LIMITS.ids.default)
      .describe(
        `Review ids kept in each list of ids (newest first): 0 to ${INSIGHT_LIMITS.ids.max}, default ${INSIGHT_LIMITS.ids.default}. The counts beside a list are its full size; search_reviews pages through the reviews themselves`,
      ),
  })
  .strict();
export type InsightsArguments = z.output<typeof InsightsArguments>;

const { aspects, entities, topics, faq, summary } = InsightsDocument.shape;
const { technicians, services, serviceAreas } = entities.shape;

export const InsightsResult = z
  .object({
    section: z.enum(INSIGHT_SECTIONS),
    generatedAt: InsightsDocument.shape.generatedAt,
    asOf: InsightsDocument.shape.asOf,
    reviewCount: z.number().int().describe('Verified reviews the insights describe'),
    data: z
      .union([
        aspects,
        aspects.element,
        technicians,
        technicians.element,
        services,
        services.element,
        serviceAreas,
        serviceAreas.element,
        topics,
        topics.element,
        faq,
        faq.element,
        summary,
      ])
      .describe('The section: a list of entries, the one entry `name` picked, or the summary object'),
    entries: z
      .object({ returned: z.number().int(), total: z.number().int() })
      .strict()
      .optional()
      .describe('For a list section: entries returned and entries in the section'),
    reviewIdsCut: z
      .number()
      .int()
      .optional()
      .describe('Review ids left out of the lists of ids (each list keeps its `ids` newest)'),
    hint: z.string().optional().describe('What was left out and how to ask for it'),
  })
  .strict();
export type InsightsResult = z.output<typeof InsightsResult>;

type Entry = object;

function sectionOf(insights: InsightsDocument, section: Section): Entry[] | InsightsDocument['summary'] {
  switch (section) {
    case 'technicians':
      return insights.entities.technicians;
    case 'services':
      return insights.entities.services;
    case 'areas':
      return insights.entities.serviceAreas;
    default:
      return insights[section];
  }
}

/** The text an entry is picked by: its id, name, topic phrase or question. */
function entryNames(entry: Entry): string[] {
  return (['id', 'name', 'phrase', 'question'] as const).flatMap((k) =>
    k in entry && typeof (entry as Record<typeof k, unknown>)[k] === 'string'
      ? [(entry as Record<typeof k, string>)[k]]
      : [],
  );
}

/** The entry with each list of review ids cut to its `keep` newest; `cut` counts the ids left out. */
function withIdsCut<E extends Entry>(entry: E, keep: number, counter: { cut: number }): E {
  const cut = (ids: string[]) => {
    counter.cut += Math.max(0, ids.length - keep);
    return ids.length > keep ? ids.slice(0, keep) : ids;
  };
  const copy = { ...entry } as Record<string, unknown>;
  for (const key of ['reviewIds', 'examples'] as const) {
    const value = copy[key];
    if (Array.isArray(value)) copy[key] = cut(value as string[]);
    else if (value && typeof value === 'object')
      copy[key] = Object.fromEntries(
        Object.entries(value as Record<string, string[]>).map(([k, ids]) => [k, cut(ids)]),
      );
  }
  return copy as E;
}

/** The tool's answer: the section (or one entry of it) within the limits, or why no entry has that name. */
export function insightsAnswer(
  insights: InsightsDocument,
  args: InsightsArguments,
): { ok: true; value: InsightsResult } | { ok: false; message: string } {
  const { section, name, limit, ids } = args;
  const head = { section, generatedAt: insights.generatedAt, asOf: insights.asOf, reviewCount: insights.reviewCount };
  const data = sectionOf(insights, section);
  if (!Array.isArray(data)) return { ok: true, value: { ...head, data } };
  const counter = { cut: 0 };
  if (name !== undefined) {
    const wanted = technicianKeys(name)[0] ?? '';
    // Full or first name, as search's mentions_technician: "zoe" picks "Zoë Martínez".
    const entry = data.find((e) => entryNames(e).some((n) => technicianKeys(n).includes(wanted)));
    if (!entry) {
      const known = data.flatMap((e) => entryNames(e).slice(0, 1));
      return {
        ok: false,
        message: `No ${section} entry named "${name}". ${known.length ? `Known: ${known.join(', ')}.` : 'This section has no entries yet.'}`,
      };
    }
    const picked = withIdsCut(entry, ids, counter);
    return {
      ok: true,
      value: { ...head, data: picked as InsightsResult['data'], ...cutFields(section, undefined, counter.cut, ids) },
    };
  }
  const returned = data.slice(0, limit).map((e) => withIdsCut(e, ids, counter));
  const entries = { returned: returned.length, total: data.length };
  return {
    ok: true,
    value: {
      ...head,
      data: returned as InsightsResult['data'],
      entries,
      ...cutFields(section, entries, counter.cut, ids),
    },
  };
}

function cutFields(
  section: Section,
  entries: { returned: number; total: number } | undefined,
  idsCut: number,
  ids: number,
): Pick<InsightsResult, 'reviewIdsCut' | 'hint'> {
  const hints: string[] = [];
  if (entries && entries.returned < entries.total) {
    hints.push(
      `Showing ${entries.returned} of ${entries.total} ${section}; raise limit (up to ${INSIGHT_LIMITS.entries.max}) for more, or give name for one.`,
    );
  }
  if (idsCut > 0) {
    hints.push(
      `Each list of review ids holds its ${ids} newest (${idsCut} more left out; the counts beside each list are complete). Raise ids (up to ${INSIGHT_LIMITS.ids.max}), or page through the reviews with search_reviews (mentions_technician, mentions_service, since/until) and read one with get_review.`,
    );
  }
  return { ...(idsCut > 0 ? { reviewIdsCut: idsCut } : {}), ...(hints.length ? { hint: hints.join(' ') } : {}) };
}
