// Writes one review's text, title and owner reply from vocabulary fragments; the opinions follow the rating.
import type { Metro, ServiceProfile, TechnicianProfile } from './profiles.js';
import type { Random } from './random.js';
import {
  ASPECTS,
  BACKGROUND,
  CLOSERS,
  CONTRAST_LINKS,
  DETAILS,
  DURATIONS,
  JOB,
  NEGATIVE_FIRST_LINKS,
  OPENER_ENDINGS,
  OPENER_TIMES,
  RESPONSES,
  ROLE_NOUNS,
  SECOND_SERVICE,
  SHORT,
  TEAM,
  TITLES,
  TYPOS,
  type Aspect,
} from './fragments.js';

export type Band = 'positive' | 'mixed' | 'negative';

/** What the business says about itself, shared by every review. */
export interface Voice {
  companyNames: readonly string[];
  metro: Metro;
  telephone: string;
  owner: string;
}

/** The facts of one review, decided before any words are chosen. */
export interface ReviewPlan {
  rating: number;
  service: ServiceProfile;
  secondService: ServiceProfile | undefined;
  technicians: readonly TechnicianProfile[];
  /** Whether the customer names the technician (otherwise "the plumber"). */
  nameTechnician: boolean;
  month: number;
  weekday: number;
  sourceLabel: string;
}

export interface WrittenReview {
  text: string;
  /** A title the source may or may not show; the caller decides. */
  title: string;
  /** The aspects the text complains about, for the owner's reply to answer. */
  complaints: Aspect[];
  /** Whether the text talks about the second service, without which the record must not list it. */
  mentionsSecondService: boolean;
}

const ASPECT_IDS = Object.keys(ASPECTS) as Aspect[];
const PRAISE_WEIGHT: Record<Aspect, number> = {
  punctuality: 12,
  responsiveness: 10,
  price: 10,
  quality: 20,
  professionalism: 16,
  communication: 12,
  cleanliness: 8,
  expertise: 14,
};
const COMPLAINT_WEIGHT: Record<Aspect, number> = {
  punctuality: 16,
  responsiveness: 16,
  price: 20,
  quality: 18,
  professionalism: 8,
  communication: 14,
  cleanliness: 5,
  expertise: 6,
};
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const ROLES = { cooling: 'AC company', plumbing: 'plumber', electrical: 'electrician' } as const;

export function bandOf(rating: number): Band {
  return rating >= 4 ? 'positive' : rating === 3 ? 'mixed' : 'negative';
}

export function stripAccents(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '');
}

export function firstName(name: string): string {
  return name.split(' ')[0] ?? name;
}

export function formatPrice(dollars: number): string {
  return `$${String(dollars).replace(/\B(?=(\d{3})+$)/g, ',')}`;
}

/** Fills {tokens}; a closure keeps per-review choices (the tech's name form, the finding) consistent across sentences. */
class Filler {
  techMentioned = false;
  private techUses = 0;
  private readonly tokens: Record<string, (sentenceStart: boolean) => string>;

  constructor(rng: Random, plan: ReviewPlan, voice: Voice) {
    const household = rng.chance(0.45);
    const tech = plan.technicians[0];
    const tech2 = plan.technicians[1];
    const named = plan.nameTechnician && tech !== undefined;
    const techRef = named ? nameForm(rng, tech) : rng.pick(ROLE_NOUNS[plan.service.category]);
    const pronoun = tech?.pronoun ?? 'they';
    const [finding, work] = rng.pick(plan.service.fixes);
    const mainNoun = rng.pick(plan.service.nouns);
    const [lo, hi] = plan.service.price;
    const step = hi > 2000 ? 50 : 5;
    this.tokens = {
      tech: (sentenceStart) => {
        this.techMentioned ||= named;
        // After the first mention a sentence may open with "she"/"he", as people write; "they was" would not do.
        if (this.techUses++ > 0 && sentenceStart && pronoun !== 'they' && rng.chance(0.6)) return pronoun;
        return techRef;
      },
      tech2: () => (tech2 ? nameForm(rng, tech2) : 'another tech'),
      techFirst: () => (tech ? firstName(tech.name) : 'the tech'),
      he: () => pronoun,
      his: () => ({ he: 'his', she: 'her', they: 'their' })[pronoun],
      him: () => ({ he: 'him', she: 'her', they: 'them' })[pronoun],
      i: () => (household ? 'we' : 'I'),
      my: () => (household ? 'our' : 'my'),
      me: () => (household ? 'us' : 'me'),
      svc: () => (rng.chance(0.75) ? mainNoun : rng.pick(plan.service.nouns)),
      svc2: () => rng.pick(plan.secondService?.nouns ?? plan.service.nouns),
      co: () => (rng.chance(0.8) ? (voice.companyNames[0] ?? 'them') : rng.pick(voice.companyNames)),
      role: () => ROLES[plan.service.category],
      finding: () => finding,
      work: () => work,
      price: () => formatPrice(Math.round(rng.int(lo, hi) / step) * step),
      duration: () => rng.pick(DURATIONS[plan.service.kind]),
      hours: () => rng.pick(['two', 'three', 'four']),
      day: () => WEEKDAYS[(plan.weekday + 7 - rng.int(1, 6)) % 7] ?? 'Monday',
      month: () => MONTHS[(plan.month + 12 - rng.int(0, 1)) % 12] ?? 'June',
      temp: () => `${rng.int(voice.metro.heat[0], voice.metro.heat[1])} degrees`,
      source: () => plan.sourceLabel,
    };
  }

  fill(template: string): string {
    return template.replace(/\{(\w+)\}/g, (_match, key: string, offset: number) => {
      const token = this.tokens[key];
      if (!token) throw new Error(`unknown token {${key}} in demo vocabulary`);
      return token(offset === 0 || /[.!?:]\s$/.test(template.slice(0, offset)));
    });
  }
}

/** How a customer refers to a technician: first name mostly, sometimes full name, nickname or unaccented. */
function nameForm(rng: Random, tech: TechnicianProfile): string {
  const first = firstName(tech.name);
  const roll = rng.next();
  if (roll < 0.2) return tech.name;
  if (roll < 0.42 && tech.aliases && tech.aliases.length > 0) return rng.pick(tech.aliases);
  if (roll < 0.52 && stripAccents(first) !== first) return stripAccents(first);
  return first;
}

interface Opinions {
  praise: Aspect[];
  complaints: Aspect[];
  mild: Aspect[];
}

function planOpinions(rng: Random, rating: number, hot: boolean): Opinions {
  const used = new Set<Aspect>();
  const draw = (
    weights: Record<Aspect, number>,
    count: number,
    allowed: (a: Aspect) => boolean = () => true,
  ): Aspect[] => {
    const out: Aspect[] = [];
    for (let k = 0; k < count; k++) {
      const candidates = ASPECT_IDS.filter((a) => !used.has(a) && allowed(a));
      if (candidates.length === 0) break;
      const aspect = rng.weighted(candidates, (a) => weights[a]);
      used.add(aspect);
      out.push(aspect);
    }
    return out;
  };
  // The summer rush is when schedules slip, so complaints shift towards waiting.
  const complaintWeights = hot
    ? {
        ...COMPLAINT_WEIGHT,
        punctuality: COMPLAINT_WEIGHT.punctuality * 1.8,
        responsiveness: COMPLAINT_WEIGHT.responsiveness * 1.8,
      }
    : COMPLAINT_WEIGHT;
  const few = (): number => rng.weighted([1, 2, 3], (n) => [0, 30, 45, 25][n] ?? 0);
  switch (rating) {
    case 5:
      return {
        praise: draw(PRAISE_WEIGHT, few()),
        complaints: [],
        mild: rng.chance(0.08) ? draw(COMPLAINT_WEIGHT, 1, (a) => a === 'price') : [],
      };
    case 4:
      return {
        praise: draw(PRAISE_WEIGHT, few()),
        complaints: [],
        mild: rng.chance(0.4) ? draw(complaintWeights, 1) : [],
      };
    case 3:
      return {
        praise: draw(PRAISE_WEIGHT, rng.int(1, 2)),
        complaints: draw(complaintWeights, rng.int(1, 2)),
        mild: [],
      };
    case 2:
      return {
        complaints: draw(complaintWeights, few()),
        praise: rng.chance(0.5) ? draw(PRAISE_WEIGHT, 1) : [],
        mild: [],
      };
    default:
      // A one-star customer concedes at most that the tech was polite or on time.
      return {
        complaints: draw(complaintWeights, rng.int(2, 3)),
        praise: rng.chance(0.12) ? draw(PRAISE_WEIGHT, 1, (a) => a === 'professionalism' || a === 'punctuality') : [],
        mild: [],
      };
  }
}

function lowerFirst(text: string): string {
  // Names and "I" keep their capital; only a lowercase-able opening word is lowered for use mid-sentence.
  return /^(I\b|[A-Z][a-z]*[A-Z]|[A-Z]\/)/.test(text) ? text : text.charAt(0).toLowerCase() + text.slice(1);
}

function capitalizeSentences(text: string): string {
  return text.replace(/(^|[.!?]\s+)(\p{Ll})/gu, (_m, lead: string, letter: string) => lead + letter.toUpperCase());
}

function endSentence(rng: Random, band: Band): string {
  const bang = band === 'positive' ? 0.22 : band === 'negative' ? 0.15 : 0.03;
  if (rng.chance(bang)) return rng.chance(0.2) ? '!!' : '!';
  return '.';
}

/** Composes a review; every sentence comes from a fragment pool that agrees with the rating's band. */
export function writeReview(rng: Random, plan: ReviewPlan, voice: Voice): WrittenReview {
  const band = bandOf(plan.rating);
  const filler = new Filler(rng, plan, voice);
  const opinions = planOpinions(rng, plan.rating, plan.month >= 4 && plan.month <= 8);
  const shortChance = [0, 0.15, 0.1, 0.12, 0.2, 0.25][plan.rating] ?? 0.2;
  const short = rng.chance(shortChance);
  const raw = short ? writeShort(rng, plan, band, filler) : writeBody(rng, plan, band, opinions, filler);
  let text = capitalizeSentences(raw);
  if (rng.chance(0.06)) text = addTypo(rng, text);
  if (rng.chance(0.04)) text = text.toLowerCase();
  const title = writeTitle(rng, plan, band, filler);
  // A one-liner names no aspects, so the reply must not answer any.
  const complaints = short ? [] : [...opinions.complaints, ...opinions.mild];
  return { text, title, complaints, mentionsSecondService: !short && plan.secondService !== undefined };
}

function writeShort(rng: Random, plan: ReviewPlan, band: Band, filler: Filler): string {
  const named = plan.nameTechnician && plan.technicians.length > 0;
  const words = (pool: readonly string[]): string => {
    const picked = rng.sample(pool, rng.int(2, 4));
    const last = picked.pop() ?? '';
    return picked.length === 0 ? last : `${picked.join(', ')}${rng.chance(0.6) ? ' and ' : ', '}${last}`;
  };
  const joint = (): string =>
    rng.pick(band === 'positive' ? ['. ', '! ', ' - ', ', ', '. '] : ['. ', '. ', '! ', ', ']);
  const end = (): string =>
    rng.pick(band === 'positive' ? ['.', '!', '!!', '', ' :)', '!'] : ['.', '.', '!', '', '!!']);
  let parts: string[];
  if (band === 'positive') {
    const praise = named ? rng.pick(SHORT.techPraise) : rng.pick(SHORT.servicePraise);
    parts = rng.chance(0.5) ? [praise, words(SHORT.praiseWords)] : [words(SHORT.praiseWords), praise];
    if (rng.chance(0.25)) parts.push(rng.pick(SHORT.servicePraise));
  } else if (band === 'negative') {
    parts = [rng.chance(0.5) ? words(SHORT.complaintWords) : rng.pick(SHORT.complaints)];
    if (named) parts.push(rng.pick(SHORT.techComplaints));
    if (rng.chance(0.4)) parts.push(rng.pick(SHORT.complaints));
  } else {
    parts = [rng.pick(SHORT.mixed)];
    if (named && !parts[0]?.includes('{tech}'))
      parts.push(rng.chance(0.5) ? '{tech} was nice enough' : '{tech} did fine');
  }
  const [head = '', ...tail] = [...new Set(parts)].map((part) => filler.fill(part));
  return tail.reduce((text, part) => text + joint() + part, head) + end();
}

function writeBody(rng: Random, plan: ReviewPlan, band: Band, opinions: Opinions, filler: Filler): string {
  const long = rng.chance(band === 'negative' ? 0.4 : 0.2);
  const tone = band === 'negative' ? 'negative' : 'positive';
  const sentences: string[] = [];
  const say = (template: string): void => {
    sentences.push(filler.fill(template) + endSentence(rng, band));
  };

  if (rng.chance(long ? 0.85 : 0.55)) say(opener(rng, plan));
  if (rng.chance(long ? 0.4 : 0.12)) say(rng.pick(BACKGROUND[tone]));
  if (plan.nameTechnician && plan.technicians.length > 1 && rng.chance(0.7)) say(rng.pick(TEAM));
  if (plan.nameTechnician || rng.chance(0.35)) {
    say(
      rng.pick(
        JOB[plan.service.kind][
          band === 'negative' && rng.chance(plan.rating === 1 ? 0.7 : 0.5) ? 'negative' : 'neutral'
        ],
      ),
    );
  }

  const fragment = (aspect: Aspect, kind: 'positive' | 'negative' | 'mild'): string => rng.pick(ASPECTS[aspect][kind]);
  const praise = opinions.praise.map((a) => fragment(a, 'positive'));
  const faults = [
    ...opinions.complaints.map((a) => fragment(a, 'negative')),
    ...opinions.mild.map((a) => fragment(a, 'mild')),
  ];
  const clauses: string[] = [];
  if (praise.length > 0 && faults.length > 0 && rng.chance(0.65)) {
    const good = praise.shift() ?? '';
    const bad = faults.shift() ?? '';
    clauses.push(
      band === 'negative' && rng.chance(0.6)
        ? bad + rng.pick(NEGATIVE_FIRST_LINKS) + lowerFirst(good)
        : good + rng.pick(CONTRAST_LINKS) + lowerFirst(bad),
    );
  }
  // Complaints lead in unhappy reviews, praise in happy ones; mixed ones interleave.
  const rest =
    band === 'negative'
      ? [...faults, ...praise]
      : band === 'positive'
        ? [...praise, ...faults]
        : rng.sample([...praise, ...faults], 6);
  for (let k = 0; k < rest.length; k++) {
    const clause = rest[k] ?? '';
    const next = rest[k + 1];
    if (next !== undefined && rng.chance(0.2)) {
      // Fragments mix clauses and bare phrases, so only a comma or dash joins any two of them grammatically enough.
      clauses.push(`${clause}${rng.pick([', ', ', ', ' - '])}${lowerFirst(next)}`);
      k++;
    } else {
      clauses.push(clause);
    }
  }
  for (const clause of clauses) say(clause);

  if (plan.secondService) say(rng.pick(SECOND_SERVICE[tone]));
  const details = band === 'mixed' ? DETAILS.mixed : DETAILS[tone];
  const detailCount = long ? rng.int(1, 2) : rng.chance(0.15) ? 1 : 0;
  for (const detail of rng.sample(details, detailCount)) say(detail);
  if (plan.nameTechnician && plan.technicians.length > 0 && !filler.techMentioned) {
    say(band === 'negative' ? rng.pick(SHORT.techComplaints) : rng.pick(SHORT.techPraise));
  }
  // "Ask for the technician" is what nobody writes: closers that name the tech need a named tech.
  const closers = CLOSERS[band].filter((c) => plan.nameTechnician || !c.includes('{tech}'));
  if (rng.chance(long || plan.rating === 1 ? 0.8 : 0.6)) say(rng.pick(closers));
  return sentences.join(' ');
}

function opener(rng: Random, plan: ReviewPlan): string {
  const hot = plan.month >= 4 && plan.month <= 8;
  const problems =
    hot && plan.service.hotProblems && rng.chance(0.5) ? plan.service.hotProblems : plan.service.problems;
  return rng.pick(OPENER_TIMES) + rng.pick(problems) + rng.pick(OPENER_ENDINGS);
}

function writeTitle(rng: Random, plan: ReviewPlan, band: Band, filler: Filler): string {
  const pool = TITLES[band].filter((t) => plan.technicians.length > 0 || !t.includes('{techFirst}'));
  const title = filler.fill(rng.pick(pool));
  return capitalizeSentences(title) + (band === 'positive' && rng.chance(0.3) ? '!' : '');
}

function addTypo(rng: Random, text: string): string {
  const known = Object.keys(TYPOS).filter((word) => new RegExp(`\\b${word}\\b`).test(text));
  if (known.length > 0) {
    const word = rng.pick(known);
    return text.replace(new RegExp(`\\b${word}\\b`), TYPOS[word] ?? word);
  }
  // Swap two inner letters of a long lowercase word; capitalised words may be names and are left alone.
  const candidates = [...text.matchAll(/\b[a-z]{6,}\b/g)];
  if (candidates.length === 0) return text;
  const match = rng.pick(candidates);
  const word = match[0];
  const at = rng.int(1, word.length - 3);
  const swapped = word.slice(0, at) + word.charAt(at + 1) + word.charAt(at) + word.slice(at + 2);
  return text.slice(0, match.index) + swapped + text.slice(match.index + word.length);
}

/** The owner's public reply: greets the customer by name, thanks or apologises for what they raised. */
export function writeResponse(
  rng: Random,
  plan: ReviewPlan,
  voice: Voice,
  customer: string,
  complaints: readonly Aspect[],
): string {
  const band = bandOf(plan.rating);
  const tech = plan.technicians[0];
  const tokens: Record<string, string> = {
    name: customer,
    co: voice.companyNames[0] ?? 'us',
    svc: rng.pick(plan.service.nouns),
    techFirst: tech ? firstName(tech.name) : 'our tech',
    him: tech?.pronoun === 'she' ? 'her' : 'him',
    phone: voice.telephone,
    owner: voice.owner,
    ownerFirst: firstName(voice.owner),
  };
  const fill = (template: string): string => template.replace(/\{(\w+)\}/g, (m, key: string) => tokens[key] ?? m);
  const greetings = band === 'positive' ? RESPONSES.greetings : RESPONSES.greetings.slice(0, 4);
  const parts: string[] = [fill(rng.pick(greetings))];
  if (band === 'positive') {
    // "Thank you, Ann! Thanks for…" reads like a form letter; a thanking greeting takes a body that does not thank again.
    const thanked = parts[0]?.startsWith('Thank') ?? false;
    parts.push(rng.pick(RESPONSES.thanks.filter((t) => !thanked || !t.startsWith('thank'))));
    if (tech && rng.chance(0.6)) parts.push(rng.pick(RESPONSES.techPraise));
    for (const aspect of complaints.slice(0, 1)) parts.push(RESPONSES.apologies[aspect]);
  } else {
    parts.push(rng.pick(band === 'mixed' ? RESPONSES.mixedOpen : RESPONSES.negativeOpen));
    for (const aspect of complaints.slice(0, 2)) parts.push(RESPONSES.apologies[aspect]);
    parts.push(rng.pick(band === 'mixed' ? RESPONSES.mixedClose : RESPONSES.callToAction));
  }
  const signOff = rng.pick(RESPONSES.signOffs);
  if (signOff) parts.push(signOff);
  return capitalizeSentences(parts.map(fill).join(' '));
}
