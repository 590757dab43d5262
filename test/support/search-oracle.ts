// The search contract written out as a brute-force filter, to compare the service's answers with.

export interface SearchFilters {
  rating?: number;
  min_rating?: number;
  since?: string;
  until?: string;
  query?: string;
  mentions_technician?: string;
  mentions_service?: string;
  limit?: number;
}

export interface Searchable {
  id: string;
  date: string;
  rating: number;
  text: string;
  technicians: readonly string[];
  services: readonly string[];
}

/** Case and accents away, written independently of src/reviews/text.ts: strip combining marks after decomposition. */
export const strip = (s: string): string =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

const spaces = (s: string): string => s.trim().replace(/\s+/g, ' ');

/** Every filter ANDed over `reviews` (already newest first); the first `limit` ids (20 by default) and the total. */
export function bruteForceSearch(reviews: readonly Searchable[], p: SearchFilters): { total: number; ids: string[] } {
  const wanted = p.mentions_technician === undefined ? undefined : spaces(strip(p.mentions_technician));
  const matched = reviews.filter(
    (r) =>
      (p.rating === undefined || r.rating === p.rating) &&
      (p.min_rating === undefined || r.rating >= p.min_rating) &&
      (p.since === undefined || r.date >= p.since) &&
      (p.until === undefined || r.date <= p.until) &&
      (p.query === undefined || strip(r.text).includes(strip(p.query))) &&
      (wanted === undefined ||
        r.technicians.some((t) => spaces(strip(t)) === wanted || spaces(strip(t)).split(' ')[0] === wanted)) &&
      (p.mentions_service === undefined || r.services.includes(p.mentions_service)),
  );
  return { total: matched.length, ids: matched.slice(0, p.limit ?? 20).map((r) => r.id) };
}
