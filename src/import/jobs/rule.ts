// The verification rule: a review is verified when exactly one completed job fits it, by a reference it carries or
// by its customer's name (first name and last initial, and the whole last name where both give it) and a date
// within the window after the job. It reads the review's author, date and
// reference only, never its rating or its words, so a one-star and a five-star review fare alike.
import type { MatchJob, Matcher, MatchOutcome, MatchReview } from '../../store/types.js';
import { fold } from '../../reviews/text.js';

/**
 * Short forms of first names, each to the name it stands for. Only forms that stand for one name are here
 * ("Pat", "Alex", "Sam" could be several, so they match only themselves).
 */
const NICKNAMES: Record<string, string> = {
  bob: 'robert',
  bobby: 'robert',
  rob: 'robert',
  robbie: 'robert',
  bill: 'william',
  billy: 'william',
  will: 'william',
  willy: 'william',
  liam: 'william',
  jim: 'james',
  jimmy: 'james',
  mike: 'michael',
  mikey: 'michael',
  mick: 'michael',
  dave: 'david',
  davey: 'david',
  tom: 'thomas',
  tommy: 'thomas',
  joe: 'joseph',
  joey: 'joseph',
  dan: 'daniel',
  danny: 'daniel',
  chris: 'christopher',
  matt: 'matthew',
  matty: 'matthew',
  tony: 'anthony',
  steve: 'steven',
  stephen: 'steven',
  stevie: 'steven',
  kate: 'katherine',
  katie: 'katherine',
  kathy: 'katherine',
  cathy: 'katherine',
  catherine: 'katherine',
  kathryn: 'katherine',
  liz: 'elizabeth',
  lizzie: 'elizabeth',
  beth: 'elizabeth',
  betty: 'elizabeth',
  eliza: 'elizabeth',
  jen: 'jennifer',
  jenny: 'jennifer',
  jenn: 'jennifer',
  sue: 'susan',
  susie: 'susan',
  nick: 'nicholas',
  nicky: 'nicholas',
  ben: 'benjamin',
  benny: 'benjamin',
  andy: 'andrew',
  drew: 'andrew',
  rich: 'richard',
  richie: 'richard',
  dick: 'richard',
  ed: 'edward',
  eddie: 'edward',
  greg: 'gregory',
  josh: 'joshua',
  jon: 'jonathan',
  tim: 'timothy',
  timmy: 'timothy',
  ken: 'kenneth',
  kenny: 'kenneth',
  larry: 'lawrence',
  peggy: 'margaret',
  maggie: 'margaret',
  meg: 'margaret',
  becky: 'rebecca',
  becca: 'rebecca',
  debbie: 'deborah',
  deb: 'deborah',
  vicky: 'victoria',
  tori: 'victoria',
  pepe: 'jose',
  nacho: 'ignacio',
  paco: 'francisco',
  pancho: 'francisco',
  lupe: 'guadalupe',
};

/** Words around a name that are not part of it. */
const NOT_NAMES = new Set(['mr', 'mrs', 'ms', 'miss', 'dr', 'jr', 'sr', 'ii', 'iii', 'iv']);

/**
 * Bumped whenever the rule reads names or dates differently: a store whose reviews were matched by another version
 * matches all of them again (as with another window), and keys its jobs again when they are next imported.
 */
export const RULE_VERSION = 'names-2';

/** A name's words, case and accents folded ("Zoë O'Neil" is zoe, oneil); "Smith, Robert" is robert, smith. */
function words(name: string): string[] {
  const comma = name.indexOf(',');
  const ordered = comma > 0 ? `${name.slice(comma + 1)} ${name.slice(0, comma)}` : name;
  return (
    fold(ordered)
      // A hyphenated surname is one name, read by its first part ("Ávila-Núñez" is ávila): the initial customers give.
      .replace(/-\p{L}+/gu, '')
      .replace(/['’.]/g, (c) => (c === '.' ? ' ' : ''))
      .split(/[^\p{L}]+/u)
      .filter((w) => w && !NOT_NAMES.has(w))
  );
}

/** A first name as the name it stands for. */
function canonicalFirst(first: string): string {
  return NICKNAMES[first] ?? first;
}

/**
 * What a name is matched by: its key, the first name (a short form read as the name it stands for) and the last
 * name's initial, `robert s`; and the whole last name, folded, when it is more than an initial. Undefined for a
 * name that lacks a first or a last name (a first name alone matches nobody).
 */
export function nameOf(
  name: string | { firstName?: string; lastName?: string },
): { key: string; last?: string } | undefined {
  const all =
    typeof name === 'string'
      ? words(name)
      : [words(name.firstName ?? '')[0], words(name.lastName ?? '').at(-1)].filter((w): w is string => !!w);
  if (all.length < 2) return undefined;
  const last = all.at(-1)!;
  return { key: `${canonicalFirst(all[0]!)} ${last[0]}`, ...(last.length > 1 ? { last } : {}) };
}

/** Two jobs of one customer: the same whole last name, and an email or phone in common. */
function sameCustomer(a: MatchJob, b: MatchJob): boolean {
  return a.lastName !== null && a.lastName === b.lastName && a.contacts.some((c) => b.contacts.includes(c));
}

/** `date` plus `days` days, as a calendar date. */
function addDays(date: string, days: number): string {
  const at = new Date(`${date}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

/** The rule, with its window: what verifies one review among the jobs that share its reference or its name key. */
export function matcher(windowDays: number): Matcher {
  return {
    windowDays,
    version: RULE_VERSION,
    nameOf: (author) => nameOf(author),
    decide(review: MatchReview, byReference: readonly MatchJob[], byName: readonly MatchJob[]): MatchOutcome {
      const one = (jobs: readonly MatchJob[], method: 'reference' | 'job'): MatchOutcome =>
        jobs.length === 1
          ? { kind: 'matched', method, job: jobs[0]! }
          : { kind: 'ambiguous', dates: jobs.map((j) => j.date).sort() };
      if (byReference.length) return one(byReference, 'reference');
      // An anonymous reviewer is nobody's name: a review shown as "A Google User" matches by reference only.
      if (review.anonymous || review.nameKey === null) return { kind: 'none' };
      // "Robert Smith" is not Robert Stone's review: where both give the whole last name, it must agree too.
      const sameName = (job: MatchJob) =>
        review.lastName === null || job.lastName === null || job.lastName === review.lastName;
      const fitting = byName.filter(
        (job) => sameName(job) && job.date <= review.date && review.date <= addDays(job.date, windowDays),
      );
      if (!fitting.length) return { kind: 'none' };
      // Two visits to one customer (the same last name and a contact in common) are one customer: the latest fits.
      const [first, ...others] = fitting.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
      if (others.every((job) => sameCustomer(first!, job))) return { kind: 'matched', method: 'job', job: first! };
      return one(fitting, 'job');
    },
  };
}
