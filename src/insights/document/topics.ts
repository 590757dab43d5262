// Recurring phrases beyond the eight aspects, found from the data: sticky two- and three-word phrases that many
// reviews share, with no opinion word in them, ranked by how many reviews use them.
import model from 'wink-eng-lite-web-model';
import winkNLP from 'wink-nlp';
import type { TopicInsight } from '../../reviews/insights-document.js';
import type { Business } from '../../reviews/schemas.js';
import { fold } from '../../reviews/text.js';
import type { Judged } from './judged.js';
import type { TextFeatures, TextIndex } from './text-index.js';

const TOPICS = 20;
const EXAMPLES = 3;
/** A phrase is a unit when it accounts for this share of its rarer word's uses ("water heater", not "the water"). */
const STICKINESS = 0.25;

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

/** Words of the business's and technicians' names: a phrase with a name in it is about a person, not a topic. */
function nameWords(business: Business | null, index: TextIndex): Set<number> {
  const names = (business?.technicians ?? [])
    .flatMap((t) => [t.name, ...(t.aliases ?? [])].flatMap((n) => fold(n).split(/\s+/)))
    .concat(fold(business?.name ?? '').split(/[^\p{L}\p{N}]+/u).filter(Boolean));
  return new Set(names.flatMap((n) => index.wordId(n) ?? []));
}

/** `features` are what `index.read` just gave for the judged reviews, in their order; topics list review ids in it. */
export function findTopics(
  judged: Judged,
  features: readonly TextFeatures[],
  index: TextIndex,
  business: Business | null,
  minMentions: number,
): TopicInsight[] {
  const counts = index.counts();
  const names = nameWords(business, index);
  const phrases = index.phrases;
  const candidates: number[] = [];
  counts.phrases.forEach((mentions, p) => {
    if (mentions < minMentions) return;
    const phrase = phrases[p]!;
    if (phrase.opinion || phrase.words.some((w) => names.has(w))) return;
    const rarest = Math.min(...phrase.words.map((w) => counts.words[w]!));
    if (mentions / rarest >= STICKINESS) candidates.push(p);
  });
  const mentionsOf = (p: number) => counts.phrases[p]!;
  candidates.sort((a, b) => mentionsOf(b) - mentionsOf(a) || (phrases[a]!.text < phrases[b]!.text ? -1 : 1));
  // A phrase inside a longer one used by nearly the same reviews says nothing new ("water heater" vs "new water heater").
  // Tagging is the costly test, so it runs last and only as far down the ranking as the topics reach.
  const kept: number[] = [];
  for (const p of candidates) {
    const phrase = phrases[p]!;
    const overlaps = kept.some((k) => {
      const other = phrases[k]!.text;
      return (other.includes(phrase.text) || phrase.text.includes(other)) && Math.min(mentionsOf(k), mentionsOf(p)) / Math.max(mentionsOf(k), mentionsOf(p)) > 0.8;
    });
    if (!overlaps && (phrase.nounPhrase ??= isNounPhrase(phrase.text))) kept.push(p);
    if (kept.length === TOPICS) break;
  }
  // The reviews of each kept phrase, in review order: one pass, a slot per phrase id, lists at their final size.
  const slot = new Int32Array(phrases.length).fill(-1);
  kept.forEach((p, k) => (slot[p] = k));
  const users = kept.map((p) => new Int32Array(mentionsOf(p)));
  const filled = new Int32Array(kept.length);
  features.forEach((f, i) => {
    for (const p of f.phrases) {
      const k = slot[p]!;
      if (k >= 0) users[k]![filled[k]!++] = i;
    }
  });
  return kept.map((p, k) => {
    const using = users[k]!;
    const ids = new Array<string>(using.length);
    let positive = 0;
    let negative = 0;
    let sentiment = 0;
    using.forEach((i, n) => {
      ids[n] = judged.ids[i]!;
      const { label, score } = judged.analyses[i]!.sentiment;
      if (label === 'positive') positive++;
      else if (label === 'negative') negative++;
      sentiment += score;
    });
    return {
      phrase: phrases[p]!.text,
      mentions: ids.length,
      positive,
      negative,
      sentiment: Math.round((sentiment / ids.length) * 100) / 100,
      examples: ids.slice(0, EXAMPLES),
      reviewIds: ids,
    };
  });
}
