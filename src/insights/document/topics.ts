// Recurring phrases beyond the eight aspects, found from the data: sticky two- and three-word phrases that many
// reviews share, with no opinion word in them, ranked by how many reviews use them.
import type { Business } from '../../reviews/schemas.js';
import { fold } from '../../reviews/text.js';
import type { PublishedReview } from '../../store/types.js';
import type { ReviewAnalysis } from '../analysis/analyzer.js';
import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import { ENTRIES, INTENSIFIERS, NEGATORS } from '../analysis/lexicon.js';

export interface Topic {
  phrase: string;
  mentions: number;
  positive: number;
  negative: number;
  /** Mean overall sentiment of the reviews that use the phrase, −1..1. */
  sentiment: number;
  examples: string[];
  reviewIds: string[];
}

const TOPICS = 20;
const EXAMPLES = 3;
/** A phrase is a unit when it accounts for this share of its rarer word's uses ("water heater", not "the water"). */
const STICKINESS = 0.25;

const STOPWORDS = new Set(
  ('a an the and or but if then than so to of in on at by for with from as is are was were be been being am it its this that ' +
    'these those there here i me my we our us you your he him his she her they them their what which who whom whose when ' +
    'where why how all any both each few more most other some such only own same too very can will just do does did done ' +
    'have has had having would could should about into over after before again further once up down out off while until ' +
    'because also get got go went come came one two three really well even still back much many lot lots day days time ' +
    'today yesterday week weeks year years month months thing things way made make said told ask asked new old first last')
    .split(' '),
);

const tagger = winkNLP(model, ['sbd', 'pos']);
const IRREGULAR_PAST = new Set(['took', 'came', 'went', 'got', 'made', 'said', 'did', 'left', 'found', 'put', 'ran', 'saw', 'told', 'kept', 'paid', 'brought', 'thought', 'was', 'were']);

/**
 * Topics are things customers talk about: noun phrases ("water heater", "same day", "maintenance plan"), not
 * fragments ("job took", "start to finish"). A noun directly before a word tagged as a verb makes a compound noun
 * ("heat pump", "shoe covers") unless that word is a past tense.
 */
function isNounPhrase(phrase: string): boolean {
  const tags = tagger.readDoc(phrase).tokens().out(tagger.its.pos) as string[];
  const words = phrase.split(' ');
  return tags.every((tag, i) => {
    if (i < tags.length - 1) return tag === 'NOUN' || tag === 'PROPN' || tag === 'ADJ';
    if (tag === 'NOUN' || tag === 'PROPN') return true;
    const word = words[i] ?? '';
    return tag === 'VERB' && tags[i - 1] === 'NOUN' && !word.endsWith('ed') && !IRREGULAR_PAST.has(word);
  });
}

function words(text: string): string[][] {
  // Sentences and clauses bound phrases: a phrase never spans a full stop or comma.
  return text
    .split(/[.!?;:,()\n"]+/)
    .map((part) => part.split(/[^\p{L}\p{N}]+/u).filter(Boolean));
}

function isOpinion(word: string): boolean {
  const entry = ENTRIES[word];
  return (entry?.valence !== undefined && entry.aspect === undefined) || NEGATORS.has(word) || word in INTENSIFIERS;
}

export function findTopics(
  reviews: readonly PublishedReview[],
  analyses: ReadonlyMap<string, ReviewAnalysis>,
  folded: ReadonlyMap<string, string>,
  business: Business | null,
  minMentions: number,
): Topic[] {
  const names = new Set(
    (business?.technicians ?? []).flatMap((t) => [t.name, ...(t.aliases ?? [])].flatMap((n) => fold(n).split(/\s+/))).concat(
      fold(business?.name ?? '').split(/[^\p{L}\p{N}]+/u).filter(Boolean),
    ),
  );
  const wordReviews = new Map<string, number>();
  const phraseReviews = new Map<string, string[]>();
  for (const review of reviews) {
    const seenWords = new Set<string>();
    const seenPhrases = new Set<string>();
    for (const part of words(folded.get(review.id)!)) {
      for (const w of part) seenWords.add(w);
      for (let n = 2; n <= 3; n++) {
        for (let i = 0; i + n <= part.length; i++) {
          const gram = part.slice(i, i + n);
          if (STOPWORDS.has(gram[0]!) || STOPWORDS.has(gram[n - 1]!)) continue;
          if (gram.some((w) => isOpinion(w) || names.has(w) || /^\d+$/.test(w) || w.length < 2)) continue;
          seenPhrases.add(gram.join(' '));
        }
      }
    }
    for (const w of seenWords) wordReviews.set(w, (wordReviews.get(w) ?? 0) + 1);
    for (const p of seenPhrases) {
      const list = phraseReviews.get(p);
      if (list) list.push(review.id);
      else phraseReviews.set(p, [review.id]);
    }
  }
  const candidates = [...phraseReviews]
    .filter(([phrase, ids]) => {
      if (ids.length < minMentions) return false;
      const rarest = Math.min(...phrase.split(' ').map((w) => wordReviews.get(w) ?? Infinity));
      return ids.length / rarest >= STICKINESS && !(ENTRIES[phrase]?.valence !== undefined) && isNounPhrase(phrase);
    })
    .sort(([a, ia], [b, ib]) => ib.length - ia.length || (a < b ? -1 : 1));
  // A phrase inside a longer one used by nearly the same reviews says nothing new ("water heater" vs "new water heater").
  const kept: [string, string[]][] = [];
  for (const [phrase, ids] of candidates) {
    const overlaps = kept.some(([k, kIds]) => (k.includes(phrase) || phrase.includes(k)) && Math.min(kIds.length, ids.length) / Math.max(kIds.length, ids.length) > 0.8);
    if (!overlaps) kept.push([phrase, ids]);
    if (kept.length === TOPICS) break;
  }
  const byId = new Map(reviews.map((r) => [r.id, r]));
  return kept.map(([phrase, ids]) => {
    const sentiments = ids.map((id) => analyses.get(id)!.sentiment);
    const examples = ids
      .map((id) => byId.get(id)!)
      .slice(0, EXAMPLES)
      .map((r) => r.id);
    return {
      phrase,
      mentions: ids.length,
      positive: sentiments.filter((s) => s.label === 'positive').length,
      negative: sentiments.filter((s) => s.label === 'negative').length,
      sentiment: Math.round((sentiments.reduce((sum, s) => sum + s.score, 0) / ids.length) * 100) / 100,
      examples,
      reviewIds: ids,
    };
  });
}
