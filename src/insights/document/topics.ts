// Recurring phrases beyond the eight aspects, found from the data: sticky two- and three-word phrases that many
// reviews share, with no opinion word in them, ranked by how many reviews use them.
import model from 'wink-eng-lite-web-model';
import winkNLP from 'wink-nlp';
import type { TopicInsight } from '../../reviews/insights-document.js';
import type { PublishedReview } from '../../reviews/published.js';
import type { Business } from '../../reviews/schemas.js';
import { fold } from '../../reviews/text.js';
import type { Contribution } from './contribution.js';
import { MIN_MENTIONS } from './insights.js';
import { OrderedReviews } from './ordered.js';
import { TextIndex, type TextFeatures } from './text-index.js';

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

/**
 * The topics, kept up to date as reviews come and go: the text index counts every phrase, and the reviews of each
 * phrase listed as a topic are kept in review order (a phrase that becomes a topic has its reviews collected once).
 */
export class Topics {
  private readonly index = new TextIndex();
  /** Per phrase listed as a topic by the last `sections`: the reviews that use it. */
  private readonly users = new Map<number, OrderedReviews>();

  /** The features of a review's text (read only when the text is new to the index). */
  features(review: PublishedReview): TextFeatures {
    return this.index.put(review.id, review.text);
  }

  /** The review is gone: its text no longer counts. */
  forget(reviewId: string): void {
    this.index.delete(reviewId);
  }

  add(c: Contribution): void {
    for (const p of c.features.phrases) this.users.get(p)?.add(c);
  }

  remove(c: Contribution): void {
    for (const p of c.features.phrases) this.users.get(p)?.remove(c);
  }

  /** `all` holds every contribution counted in, in review order. */
  sections(all: readonly Contribution[], business: Business | null): TopicInsight[] {
    const { index } = this;
    if (index.stale()) {
      index.clear();
      this.users.clear();
      for (const c of all) c.features = index.put(c.review.id, c.review.text);
    }
    const kept = this.topicPhrases(business);
    for (const p of this.users.keys()) if (!kept.includes(p)) this.users.delete(p);
    this.collectUsers(kept.filter((p) => !this.users.has(p)), all);
    return kept.map((p) => {
      const using = this.users.get(p)!.contributions();
      let positive = 0;
      let negative = 0;
      let sentiment = 0;
      for (const c of using) {
        const { label, score } = c.analysis.sentiment;
        if (label === 'positive') positive++;
        else if (label === 'negative') negative++;
        sentiment += score;
      }
      const ids = this.users.get(p)!.ids();
      return {
        phrase: index.phrases[p]!.text,
        mentions: ids.length,
        positive,
        negative,
        sentiment: Math.round((sentiment / ids.length) * 100) / 100,
        examples: ids.slice(0, EXAMPLES),
        reviewIds: ids,
      };
    });
  }

  /** The phrases to list, best first: used by many reviews, sticky, no opinion or name in them, noun phrases. */
  private topicPhrases(business: Business | null): number[] {
    const { index } = this;
    const counts = index.counts();
    const names = nameWords(business, index);
    const phrases = index.phrases;
    const candidates: number[] = [];
    for (let p = 0; p < counts.phrases.length; p++) {
      const mentions = counts.phrases[p]!;
      if (mentions < MIN_MENTIONS) continue;
      const phrase = phrases[p]!;
      if (phrase.opinion || phrase.words.some((w) => names.has(w))) continue;
      const rarest = Math.min(...phrase.words.map((w) => counts.words[w]!));
      if (mentions / rarest >= STICKINESS) candidates.push(p);
    }
    const mentionsOf = (p: number) => counts.phrases[p]!;
    candidates.sort((a, b) => mentionsOf(b) - mentionsOf(a) || (phrases[a]!.text < phrases[b]!.text ? -1 : 1));
    // A phrase inside a longer one used by nearly the same reviews says nothing new ("water heater" vs "new water
    // heater"). Tagging is the costly test, so it runs last and only as far down the ranking as the topics reach.
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
    return kept;
  }

  /** Lists the reviews of phrases that were not topics before: one pass over every contribution. */
  private collectUsers(phrases: readonly number[], all: readonly Contribution[]): void {
    if (phrases.length === 0) return;
    const lists = new Map(phrases.map((p) => [p, new OrderedReviews()]));
    for (const c of all) for (const p of c.features.phrases) lists.get(p)?.add(c);
    for (const [p, list] of lists) this.users.set(p, list);
  }
}
