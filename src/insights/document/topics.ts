// Recurring phrases beyond the eight aspects, found from the data: sticky two- and three-word noun phrases that many
// reviews share, with no opinion, aspect, name or review boilerplate in them ("reading reviews"), near-duplicates
// merged ("ceiling fan", "ceiling fans"), ranked by how many reviews use them, each with the sentences behind it.
import model from 'wink-eng-lite-web-model';
import winkNLP from 'wink-nlp';
import type { TopicInsight, TopicQuote } from '../../reviews/insights-document.js';
import type { PublishedReview } from '../../reviews/published.js';
import type { Business } from '../../reviews/schemas.js';
import { fold } from '../../reviews/text.js';
import { foldedText } from '../analysis/fold.js';
import type { Contribution } from './contribution.js';
import { MIN_MENTIONS } from './insights.js';
import { OrderedReviews } from './ordered.js';
import { TextIndex, type TextFeatures } from './text-index.js';
import { topicName } from './topic-name.js';

const TOPICS = 20;
const EXAMPLES = 3;
/** A topic's name is the form most of its newest this many uses write its phrase in. */
const NAMING_USES = 20;
/** A phrase is a unit when it accounts for this share of its rarer word's uses ("water heater", not "the water"). */
const STICKINESS = 0.25;
/** Two overlapping pairs of words are one topic when this share of the rarer pair's uses are uses of both. */
const SAME_USE = 0.8;

const tagger = winkNLP(model, ['sbd', 'pos']);
/** Adverbs the tagger reads as nouns ("a wad of wipes halfway down the line"): a phrase never ends in one. */
const ADVERBS = new Set([
  'halfway',
  'upstairs',
  'downstairs',
  'overnight',
  'outside',
  'inside',
  'underneath',
  'nearby',
  'anyway',
  'afterwards',
  'ahead',
  'tomorrow',
  'tonight',
  'ago',
  'instead',
  'throughout',
  'everywhere',
  'somewhere',
  'anywhere',
  'together',
  'apart',
  'away',
]);
const IRREGULAR_PAST = new Set([
  'took',
  'came',
  'went',
  'got',
  'made',
  'said',
  'did',
  'left',
  'found',
  'put',
  'ran',
  'saw',
  'told',
  'kept',
  'paid',
  'brought',
  'thought',
  'was',
  'were',
]);

/**
 * Topics are things customers talk about: noun phrases ("water heater", "same day", "maintenance plan"), not
 * fragments ("job took", "start to finish"). A noun directly before a word tagged as a verb makes a compound noun
 * ("heat pump", "shoe covers") unless that word is a past tense.
 */
function isNounPhrase(phrase: string): boolean {
  const tags = tagger.readDoc(phrase).tokens().out(tagger.its.pos) as string[];
  const words = phrase.split(' ');
  if (ADVERBS.has(words[words.length - 1]!)) return false;
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
    .concat(
      fold(business?.name ?? '')
        .split(/[^\p{L}\p{N}]+/u)
        .filter(Boolean),
    );
  return new Set(names.flatMap((n) => index.wordId(n) ?? []));
}

/** The form of a phrase its near-duplicates share: each word without a plural "s" ("ceiling fans" → "ceiling fan"). */
const mergeKey = (text: string) =>
  text
    .split(' ')
    .map((w) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w))
    .join(' ');

/** A topic: the phrase that names it (the most used) and every phrase it counts, the name first. */
interface TopicGroup {
  lead: number;
  members: number[];
}

const SENTENCE = /[^.!?\n]+[.!?]*/g;
const QUOTE_LENGTH = 240;

/** The first sentence of `text` that uses one of `phrases` (folded word runs), as written. */
function sentenceUsing(text: string, phrases: readonly string[]): string | undefined {
  for (const m of text.matchAll(SENTENCE)) {
    const words = ` ${foldedText(m[0])
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean)
      .join(' ')} `;
    if (phrases.some((p) => words.includes(` ${p} `))) {
      const sentence = m[0].trim();
      return sentence.length > QUOTE_LENGTH ? `${sentence.slice(0, QUOTE_LENGTH - 1).trimEnd()}…` : sentence;
    }
  }
  return undefined;
}

/**
 * The topics, kept up to date as reviews come and go: the text index counts every phrase, and the reviews of each
 * phrase listed as a topic are kept in review order (a phrase that becomes a topic has its reviews collected once).
 */
export class Topics {
  private readonly index = new TextIndex();
  /** Per topic listed by the last `sections`, by its lead phrase: the reviews that use one of its phrases. */
  private readonly users = new Map<number, OrderedReviews>();
  /** Each phrase of a listed topic → the topic's lead phrase. */
  private leadOf = new Map<number, number>();
  /** Per listed topic: its phrases, as a key that changes when a phrase joins or leaves it. */
  private membersOf = new Map<number, string>();
  /** Per listed topic, its name and the uses it was read from (a name is read again only when they change). */
  private names = new Map<number, { name: string; from: readonly Contribution[] }>();

  /** The features of a review's text (read only when the text is new to the index). */
  features(review: PublishedReview): TextFeatures {
    return this.index.put(review.id, review.text);
  }

  /** The review is gone: its text no longer counts. */
  forget(reviewId: string): void {
    this.index.delete(reviewId);
  }

  /** The listed topics a contribution uses, each once (a review may use two phrases of one topic). */
  private topicsOf(c: Contribution): Set<number> {
    const leads = new Set<number>();
    for (const p of c.features.phrases) {
      const lead = this.leadOf.get(p);
      if (lead !== undefined) leads.add(lead);
    }
    return leads;
  }

  add(c: Contribution): void {
    for (const lead of this.topicsOf(c)) this.users.get(lead)?.add(c);
  }

  remove(c: Contribution): void {
    for (const lead of this.topicsOf(c)) this.users.get(lead)?.remove(c);
  }

  /** `all` holds every contribution counted in, in review order. */
  sections(all: readonly Contribution[], business: Business | null): TopicInsight[] {
    const { index } = this;
    if (index.stale()) {
      index.clear();
      this.users.clear();
      this.membersOf.clear();
      this.names.clear();
      for (const c of all) c.features = index.put(c.review.id, c.review.text);
    }
    const groups = this.topicGroups(business);
    const members = new Map(groups.map((g) => [g.lead, g.members.join(' ')]));
    // A topic no longer listed, or whose phrases changed, has its reviews collected again.
    for (const lead of this.users.keys()) if (members.get(lead) !== this.membersOf.get(lead)) this.users.delete(lead);
    this.membersOf = members;
    for (const lead of this.names.keys()) if (!members.has(lead)) this.names.delete(lead);
    this.leadOf = new Map(groups.flatMap((g) => g.members.map((m) => [m, g.lead] as const)));
    this.collectUsers(
      groups.filter((g) => !this.users.has(g.lead)),
      all,
    );
    return groups.map(({ lead: p, members: memberIds }) => {
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
      const phrases = memberIds.map((m) => index.phrases[m]!.text);
      const quotes = using.slice(0, EXAMPLES).flatMap(({ review }): TopicQuote[] => {
        const text = sentenceUsing(review.text, phrases);
        return text === undefined ? [] : [{ reviewId: review.id, date: review.date, rating: review.rating, text }];
      });
      return {
        phrase: phrases[0]!,
        name: this.nameOf(p, using),
        phrases,
        mentions: ids.length,
        positive,
        negative,
        sentiment: Math.round((sentiment / ids.length) * 100) / 100,
        examples: ids.slice(0, EXAMPLES),
        quotes,
        reviewIds: ids,
      };
    });
  }

  /**
   * The topics to list, best first: phrases used by many reviews, sticky, with no opinion, aspect, name or
   * boilerplate in them, noun phrases; a phrase whose near-duplicate is listed joins its topic.
   */
  private topicGroups(business: Business | null): TopicGroup[] {
    const { index } = this;
    const counts = index.counts();
    const names = nameWords(business, index);
    const phrases = index.phrases;
    const candidates: number[] = [];
    for (let p = 0; p < counts.phrases.length; p++) {
      const mentions = counts.phrases[p]!;
      if (mentions < MIN_MENTIONS) continue;
      const phrase = phrases[p]!;
      if (phrase.opinion || phrase.aspect || phrase.boilerplate || phrase.words.some((w) => names.has(w))) continue;
      const rarest = Math.min(...phrase.words.map((w) => counts.words[w]!));
      if (mentions / rarest >= STICKINESS) candidates.push(p);
    }
    const mentionsOf = (p: number) => counts.phrases[p]!;
    candidates.sort((a, b) => mentionsOf(b) - mentionsOf(a) || (phrases[a]!.text < phrases[b]!.text ? -1 : 1));
    // A phrase that says nothing new joins a listed topic (topics are distinct): one that holds or is held by a
    // phrase of the topic, or a fragment of a longer phrase the two make. Tagging is the costly test, so it runs
    // last and only as far down the ranking as topics reach.
    const kept: TopicGroup[] = [];
    const byKey = new Map<string, TopicGroup>();
    for (const p of candidates) {
      const phrase = phrases[p]!;
      const joins =
        byKey.get(mergeKey(phrase.text)) ??
        kept.find((g) => g.members.some((m) => this.sameTopic(m, p, counts.phrases)));
      if (joins) {
        joins.members.push(p);
        continue;
      }
      if (kept.length === TOPICS) continue;
      if ((phrase.nounPhrase ??= isNounPhrase(phrase.text))) {
        const group = { lead: p, members: [p] };
        kept.push(group);
        byKey.set(mergeKey(phrase.text), group);
      }
    }
    return kept;
  }

  /**
   * Whether one phrase says nothing the other does not: one holds the other (every use of "hot water heater" is a
   * use of "water heater"), or two pairs overlap in a word and the three words together have most of the rarer
   * pair's uses ("condenser fan" beside "fan motor": "condenser fan motor").
   */
  private sameTopic(a: number, b: number, counts: Int32Array): boolean {
    const { index } = this;
    const [x, y] = [index.phrases[a]!.words, index.phrases[b]!.words];
    const [short, long] = x.length <= y.length ? [x, y] : [y, x];
    if (long.some((_, i) => short.every((w, k) => long[i + k] === w))) return true;
    if (x.length !== 2 || y.length !== 2) return false;
    const joined = x[1] === y[0] ? [x[0]!, ...y] : y[1] === x[0] ? [y[0]!, ...x] : undefined;
    const both = joined && index.phraseId(joined);
    return both !== undefined && counts[both]! >= SAME_USE * Math.min(counts[a]!, counts[b]!);
  }

  /** The topic's name, read from its newest uses. */
  private nameOf(lead: number, using: readonly Contribution[]): string {
    const from = using.slice(0, NAMING_USES);
    const known = this.names.get(lead);
    if (known && known.from.length === from.length && known.from.every((c, i) => c === from[i])) return known.name;
    const name = topicName(
      from.map((c) => c.review.text),
      this.index.phrases[lead]!.text.split(' '),
    );
    this.names.set(lead, { name, from });
    return name;
  }

  /** Lists the reviews of topics that were not listed before: one pass over every contribution. */
  private collectUsers(groups: readonly TopicGroup[], all: readonly Contribution[]): void {
    if (groups.length === 0) return;
    const lists = new Map(groups.map((g) => [g.lead, new OrderedReviews()]));
    for (const c of all) for (const lead of this.topicsOf(c)) lists.get(lead)?.add(c);
    for (const [lead, list] of lists) this.users.set(lead, list);
  }
}
