// The verification rule: a review is verified when exactly one completed job fits it, by a reference it carries or
// by its customer's name (first name and last initial, and the whole last name where both give it) and a date
// within the window after the job. It reads the review's author, date and
// reference only, never its rating or its words, so a one-star and a five-star review fare alike.
import type { MatchJob, Matcher, MatchOutcome, MatchReview } from '../../store/types.js';

/**
 * Short forms of first names, each to the name it stands for. Only forms that stand for one name are here
 * ("Pat", "Alex", "Sam" could be several, so they match only themselves).
 */
const NICKNAMES: Record<string, string> = {
  bob: 'robert', bobby: 'robert', rob: 'robert', robbie: 'robert', bert: 'robert',
  bill: 'william', billy: 'william', will: 'william', willy: 'william', liam: 'william',
  jim: 'james', jimmy: 'james', jamie: 'james',
  mike: 'michael', mikey: 'michael', mick: 'michael',
  dave: 'david', davey: 'david',
  tom: 'thomas', tommy: 'thomas',
  joe: 'joseph', joey: 'joseph',
  dan: 'daniel', danny: 'daniel',
  chris: 'christopher', kit: 'christopher',
  matt: 'matthew', matty: 'matthew',
  tony: 'anthony',
  steve: 'steven', stephen: 'steven', stevie: 'steven',
  kate: 'katherine', katie: 'katherine', kathy: 'katherine', cathy: 'katherine', catherine: 'katherine', kathryn: 'katherine',
  liz: 'elizabeth', lizzie: 'elizabeth', beth: 'elizabeth', betty: 'elizabeth', eliza: 'elizabeth',
  jen: 'jennifer', jenny: 'jennifer', jenn: 'jennifer',
  sue: 'susan', susie: 'susan',
  nick: 'nicholas', nicky: 'nicholas',
  ben: 'benjamin', benny: 'benjamin',
  andy: 'andrew', drew: 'andrew',
  rick: 'richard', rich: 'richard', richie: 'richard', dick: 'richard',
  ed: 'edward', eddie: 'edward', ted: 'edward',
  greg: 'gregory',
  josh: 'joshua',
  jon: 'jonathan',
  tim: 'timothy', timmy: 'timothy',
  ken: 'kenneth', kenny: 'kenneth',
  larry: 'lawrence',
  jerry: 'gerald',
  peggy: 'margaret', maggie: 'margaret', meg: 'margaret',
  becky: 'rebecca', becca: 'rebecca',
  debbie: 'deborah', deb: 'deborah',
  vicky: 'victoria', tori: 'victoria',
  pepe: 'jose',
  nacho: 'ignacio',
  paco: 'francisco', pancho: 'francisco',
  lupe: 'guadalupe',
};

/** Words around a name that are not part of it. */
const NOT_NAMES = new Set(['mr', 'mrs', 'ms', 'miss', 'dr', 'jr', 'sr', 'ii', 'iii', 'iv']);

/** A name's words, case and accents folded ("Zoë O'Neil" is zoe, oneil). */
function words(name: string): string[] {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    // A hyphenated surname is one name, read by its first part ("Ávila-Núñez" is ávila): the initial customers give.
    .replace(/-\p{L}+/gu, '')
    .replace(/['’.]/g, (c) => (c === '.' ? ' ' : ''))
    .split(/[^\p{L}]+/u)
    .filter((w) => w && !NOT_NAMES.has(w));
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
export function nameOf(name: string | { firstName?: string; lastName?: string }): { key: string; last?: string } | undefined {
  const all = typeof name === 'string' ? words(name) : [words(name.firstName ?? '')[0], words(name.lastName ?? '').at(-1)].filter((w): w is string => !!w);
  if (all.length < 2) return undefined;
  const last = all.at(-1)!;
  return { key: `${canonicalFirst(all[0]!)} ${last[0]}`, ...(last.length > 1 ? { last } : {}) };
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
    nameOf: (author) => nameOf(author),
    decide(review: MatchReview, byReference: readonly MatchJob[], byName: readonly MatchJob[]): MatchOutcome {
      const one = (jobs: readonly MatchJob[], method: 'reference' | 'job'): MatchOutcome =>
        jobs.length === 1 ? { kind: 'matched', method, job: jobs[0]! } : { kind: 'ambiguous', dates: jobs.map((j) => j.date).sort() };
      if (byReference.length) return one(byReference, 'reference');
      // An anonymous reviewer is nobody's name: a review shown as "A Google User" matches by reference only.
      if (review.anonymous || review.nameKey === null) return { kind: 'none' };
      // "Robert Smith" is not Robert Stone's review: where both give the whole last name, it must agree too.
      const sameName = (job: MatchJob) => job.nameKey === review.nameKey && (review.lastName === null || job.lastName === null || job.lastName === review.lastName);
      const fitting = byName.filter((job) => sameName(job) && job.date <= review.date && review.date <= addDays(job.date, windowDays));
      return fitting.length ? one(fitting, 'job') : { kind: 'none' };
    },
  };
}
