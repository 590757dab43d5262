// Deterministic demo business and reviews: the same options always give byte-identical output, dated from `until` only.
import type { Business, ImportedReview } from '../reviews/schemas.js';
import {
  CUSTOMER_FIRST_NAMES,
  LAST_INITIALS,
  METROS,
  NAME_SUFFIXES,
  OWNERS,
  SERVICES,
  SOURCES,
  TECHNICIANS,
  type Metro,
  type ServiceProfile,
  type Source,
  type TechnicianProfile,
} from './profiles.js';
import { firstName, stripAccents, writeResponse, writeReview, type ReviewPlan, type Voice } from './compose.js';
import { Random } from './random.js';

export interface DemoOptions {
  seed?: number;
  reviews?: number;
  /** YYYY-MM-DD: the date of the newest review; the oldest falls within the five years before it. */
  until?: string;
}

export const DEMO_DEFAULTS: Readonly<{ seed: number; reviews: number; until: string }> = Object.freeze({
  seed: 42,
  reviews: 1500,
  until: '2026-11-15',
});

const DAY_MS = 86_400_000;
const YEARS = 5;
/** Share of reviews at each rating 1..5, as a typical home-services listing shows. */
const RATING_WEIGHTS = [0, 10, 5, 7, 18, 60];
/** Owners answer complaints far more often than praise. */
const RESPONSE_RATE = [0, 0.7, 0.6, 0.45, 0.2, 0.15];

/** A hired technician, with what shapes their reviews. */
interface Crew {
  profile: TechnicianProfile;
  /** Fraction of the five years after which they appear in reviews. */
  hiredAt: number;
  /** Multiplies their chance of being on a one- or two-star job. */
  complaintBias: number;
}

interface DemoWorld {
  business: Business;
  voice: Voice;
  metro: Metro;
  services: ServiceProfile[];
  crew: Crew[];
}

export function generateDemo(options: DemoOptions = {}): { business: Business; reviews: ImportedReview[] } {
  const seed = options.seed ?? DEMO_DEFAULTS.seed;
  const count = options.reviews ?? DEMO_DEFAULTS.reviews;
  const until = options.until ?? DEMO_DEFAULTS.until;
  if (!Number.isFinite(seed)) throw new RangeError(`seed must be a finite number, got ${seed}`);
  if (!Number.isInteger(count) || count < 0)
    throw new RangeError(`reviews must be a non-negative integer, got ${count}`);
  const lastDay = parseDay(until);

  // Separate streams keep the business identical whatever the number of reviews asked for.
  const world = buildWorld(new Random(seed, 1), lastDay);
  const reviews = buildReviews(new Random(seed, 2), world, count, lastDay);
  return { business: world.business, reviews };
}

function buildWorld(rng: Random, lastDay: number): DemoWorld {
  const metro = rng.pick(METROS);
  const prefix = rng.pick(metro.namePrefixes);
  const name = `${prefix} ${rng.pick(NAME_SUFFIXES)}`;
  const domain = `${prefix.toLowerCase().replace(/[^a-z]/g, '')}${rng.pick(['', 'home', 'pros'])}.example`;
  const owner = rng.pick(OWNERS);
  const telephone = `+1-${metro.areaCode}-555-01${String(rng.int(10, 99))}`;
  const founded = new Date(lastDay * DAY_MS).getUTCFullYear() - rng.int(8, 30);

  // The metro's own city always leads; the rest is a seed-chosen mix of towns and neighbourhoods.
  const [city = metro.city, ...others] = metro.areas;
  const areaServed = [city, ...rng.sample(others, rng.int(7, 14))];
  const extras = rng.sample(
    SERVICES.filter((s) => !s.core),
    rng.int(2, 8),
  );
  const services = SERVICES.filter((s) => s.core || extras.includes(s));
  const [zoe, robert, william, ...pool] = TECHNICIANS;
  const hired = [zoe, robert, william].filter((t): t is TechnicianProfile => t !== undefined);
  const newcomers = rng.sample(pool, rng.int(3, 7));
  const crew: Crew[] = TECHNICIANS.filter((t) => hired.includes(t) || newcomers.includes(t)).map((profile) => ({
    profile,
    hiredAt: hired.includes(profile) || rng.chance(0.55) ? 0 : 0.15 + rng.next() * 0.5,
    complaintBias: 1,
  }));
  // One technician draws praise, another draws complaints, so the insights have something to find.
  const [star, struggler] = rng.sample(crew, 2);
  if (star) star.complaintBias = 0.35;
  if (struggler) struggler.complaintBias = 2.5;

  const business: Business = {
    name,
    description:
      `${name} is a family-owned cooling, plumbing and electrical contractor serving the ${metro.city} area since ${founded}. ` +
      `Licensed and insured technicians, upfront pricing and same-day service across ${areaServed.length} communities.`,
    url: `https://${domain}`,
    telephone,
    email: `${rng.pick(['hello', 'service', 'office'])}@${domain}`,
    address: {
      streetAddress: `${rng.int(1200, 9800)} ${rng.pick(metro.streets)}`,
      addressLocality: metro.city,
      addressRegion: metro.region,
      postalCode: rng.pick(metro.postalCodes),
      addressCountry: 'US',
    },
    areaServed,
    services: services.map((s) => ({ id: s.id, name: s.name, category: s.category })),
    technicians: crew.map(({ profile }) =>
      profile.aliases ? { name: profile.name, aliases: [...profile.aliases] } : { name: profile.name },
    ),
    timeZone: metro.timeZone,
  };
  const voice: Voice = { companyNames: [prefix, name], metro, telephone, owner };
  return { business, voice, metro, services, crew };
}

function buildReviews(rng: Random, world: DemoWorld, count: number, lastDay: number): ImportedReview[] {
  const firstDay = yearsBefore(lastDay, YEARS) + 1;
  const days = sampleDays(rng, count, firstDay, lastDay);
  const span = Math.max(1, lastDay - firstDay);
  const monthlyServiceWeights = Array.from({ length: 12 }, (_, month) =>
    world.services.map((s) => seasonalWeight(s, month)),
  );
  const areas = world.business.areaServed;
  // A customer sharing a technician's name would blur who a review mentions.
  const fold = (name: string): string => stripAccents(name).toLowerCase();
  const taken = new Set(
    world.crew.flatMap(({ profile }) => [firstName(profile.name), ...(profile.aliases ?? [])].map(fold)),
  );
  const customers = CUSTOMER_FIRST_NAMES.filter((n) => !taken.has(fold(n)));
  const ratings = [1, 2, 3, 4, 5];
  const initials = [...LAST_INITIALS];

  const reviews: ImportedReview[] = new Array<ImportedReview>(count);
  for (let i = 0; i < count; i++) {
    const day = days[i] ?? lastDay;
    const calendar = new Date(day * DAY_MS);
    const month = calendar.getUTCMonth();
    const progress = (day - firstDay) / span;
    const rating = rng.weighted(ratings, (r) => RATING_WEIGHTS[r] ?? 0);
    const serviceWeights = monthlyServiceWeights[month] ?? [];
    const service = rng.weighted(world.services, (s) => serviceWeights[world.services.indexOf(s)] ?? 0);
    const secondService = rng.chance(0.1)
      ? rng.weighted(
          world.services.filter((s) => s !== service),
          (s) => serviceWeights[world.services.indexOf(s)] ?? 0,
        )
      : undefined;
    const technicians = pickTechnicians(rng, world.crew, service, rating, progress);
    const source: Source = rng.weighted(SOURCES, (s) => s.weight);
    const customer = rng.pick(customers);
    const plan: ReviewPlan = {
      rating,
      service,
      secondService,
      technicians,
      nameTechnician: technicians.length > 0 && rng.chance(0.8),
      month,
      weekday: calendar.getUTCDay(),
      sourceLabel: source.id === 'website' ? 'Google' : source.label,
    };
    const written = writeReview(rng, plan, world.voice);
    const review: ImportedReview = {
      id: `rv-${String(i + 1).padStart(6, '0')}`,
      date: isoDay(day),
      rating,
      text: written.text,
      author: `${customer} ${rng.pick(initials)}.`,
      technicians: technicians.map((t) => t.name),
      services: secondService && written.mentionsSecondService ? [service.id, secondService.id] : [service.id],
      verified: rng.chance(0.97),
    };
    if (rng.chance(source.titled)) review.title = written.title;
    if (rng.chance(0.92)) review.serviceArea = rng.weighted(areas, (a) => 1 / (1 + areas.indexOf(a) * 0.25));
    review.source = source.id;
    if (rng.chance(RESPONSE_RATE[rating] ?? 0)) {
      review.response = {
        date: isoDay(Math.min(lastDay, day + responseDelay(rng))),
        text: writeResponse(rng, plan, world.voice, customer, written.complaints),
      };
    }
    reviews[i] = orderKeys(review);
  }
  return reviews;
}

/** Mostly the specialist for the trade, sometimes a pair, sometimes nobody named; only technicians already hired. */
function pickTechnicians(
  rng: Random,
  crew: readonly Crew[],
  service: ServiceProfile,
  rating: number,
  progress: number,
): TechnicianProfile[] {
  const roll = rng.next();
  const wanted = roll < 0.07 ? 0 : roll < 0.16 ? 2 : 1;
  const onStaff = crew.filter((c) => c.hiredAt <= progress);
  const weight = (c: Crew): number =>
    (c.profile.specialty === service.category ? 6 : 0.4) * (rating <= 2 ? c.complaintBias : 1);
  const chosen: Crew[] = [];
  for (let k = 0; k < wanted; k++) {
    const candidates = onStaff.filter((c) => !chosen.includes(c));
    if (candidates.length === 0) break;
    chosen.push(rng.weighted(candidates, weight));
  }
  return chosen.map((c) => c.profile);
}

/** Demand for a service in a month: its base weight, swollen around its peak month. */
function seasonalWeight(service: ServiceProfile, month: number): number {
  return service.weight * (1 + service.seasonality * Math.cos((2 * Math.PI * (month - service.peakMonth)) / 12));
}

/**
 * `count` days in ascending order between first and last, denser as the business grows and in summer.
 * Stratified sampling walks the cumulative weights once, so 100,000 reviews need no sort.
 */
function sampleDays(rng: Random, count: number, first: number, last: number): number[] {
  const total = last - first + 1;
  const cumulative = new Float64Array(total);
  let sum = 0;
  for (let d = 0; d < total; d++) {
    const date = new Date((first + d) * DAY_MS);
    const dayOfYear =
      (Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()) - Date.UTC(date.getUTCFullYear(), 0, 1)) /
      DAY_MS;
    const growth = 1 + 2.2 * (d / total) ** 1.3;
    const season =
      1 +
      0.35 * Math.cos((2 * Math.PI * (dayOfYear - 196)) / 365.25) +
      0.12 * Math.cos((2 * Math.PI * (dayOfYear - 15)) / 365.25);
    const weekday = [0.6, 1.1, 1, 1, 1, 0.95, 0.85][date.getUTCDay()] ?? 1;
    sum += growth * season * weekday;
    cumulative[d] = sum;
  }
  const days: number[] = new Array<number>(count);
  let cursor = 0;
  for (let i = 0; i < count; i++) {
    const target = ((i + rng.next()) / count) * sum;
    while (cursor < total - 1 && (cumulative[cursor] ?? sum) <= target) cursor++;
    days[i] = first + cursor;
  }
  // The newest review falls on `until` itself, so the option means what it says.
  if (count > 0) days[count - 1] = last;
  return days;
}

function responseDelay(rng: Random): number {
  const roll = rng.next();
  return roll < 0.3 ? 0 : roll < 0.6 ? 1 : roll < 0.9 ? rng.int(2, 7) : rng.int(8, 30);
}

/** A stable key order, so JSON output reads the same way for every record. */
function orderKeys(review: ImportedReview): ImportedReview {
  const { id, date, rating, title, text, author, technicians, services, serviceArea, source, response, verified } =
    review;
  return {
    id,
    date,
    rating,
    ...(title !== undefined && { title }),
    text,
    language: 'en',
    author,
    technicians,
    services,
    ...(serviceArea !== undefined && { serviceArea }),
    ...(source !== undefined && { source }),
    ...(response !== undefined && { response }),
    verified,
  };
}

function parseDay(iso: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  const day = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / DAY_MS : Number.NaN;
  if (!match || isoDay(day) !== iso)
    throw new RangeError(`until must be a real date in YYYY-MM-DD form, got ${JSON.stringify(iso)}`);
  return day;
}

function isoDay(day: number): string {
  return Number.isFinite(day) ? new Date(day * DAY_MS).toISOString().slice(0, 10) : 'invalid';
}

/** The same calendar day `years` earlier (29 February falls back to the 28th). */
function yearsBefore(day: number, years: number): number {
  const date = new Date(day * DAY_MS);
  const year = date.getUTCFullYear() - years;
  const month = date.getUTCMonth();
  const lastOfMonth = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(year, month, Math.min(date.getUTCDate(), lastOfMonth)) / DAY_MS;
}
