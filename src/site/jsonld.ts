// schema.org JSON-LD of the business, its aggregate rating and its reviews, for machine readers of the pages.
// (Search engines show no stars for reviews a local business publishes about itself; this is for other readers.)
import type { AggregateRating, Business, Review } from '../reviews/schemas.js';
import { permalink, type Links } from '../reviews/links.js';

type Node = Record<string, unknown>;

/** The schema.org type of each trade the business's service categories name. */
const TRADE_TYPES: Record<string, string> = {
  cooling: 'HVACBusiness',
  heating: 'HVACBusiness',
  hvac: 'HVACBusiness',
  plumbing: 'Plumber',
  electrical: 'Electrician',
};

/** HVACBusiness, Plumber and/or Electrician as the trades say; HomeAndConstructionBusiness when none is known. */
export function businessTypes(business: Business | null): string[] {
  const types = new Set((business?.services ?? []).flatMap((s) => TRADE_TYPES[s.category.toLowerCase()] ?? []));
  return types.size ? [...types] : ['HomeAndConstructionBusiness'];
}

export const businessId = (links: Links) => `${links.baseUrl}/#business`;

/** The business as the item reviews are about: its id, types and name. */
function businessRef(links: Links, business: Business | null): Node {
  return { '@type': businessTypes(business), '@id': businessId(links), name: business?.name ?? 'This business' };
}

export function reviewNode(links: Links, review: Review): Node {
  return {
    '@type': 'Review',
    '@id': permalink(links, review.id),
    url: permalink(links, review.id),
    ...(review.title ? { name: review.title } : {}),
    author: { '@type': 'Person', name: review.author },
    datePublished: review.date,
    ...(review.text ? { reviewBody: review.text, inLanguage: review.language } : {}),
    reviewRating: { '@type': 'Rating', ratingValue: review.rating, bestRating: 5, worstRating: 1 },
  };
}

/** The home page's graph: the business with its rating and newest reviews. */
export function businessJsonLd(
  links: Links,
  business: Business | null,
  aggregate: AggregateRating,
  newest: readonly Review[],
): Node {
  const address = business?.address;
  return {
    '@context': 'https://schema.org',
    ...businessRef(links, business),
    url: business?.url ?? `${links.baseUrl}/`,
    ...(business?.description ? { description: business.description } : {}),
    ...(business?.telephone ? { telephone: business.telephone } : {}),
    ...(business?.email ? { email: business.email } : {}),
    ...(address ? { address: { '@type': 'PostalAddress', ...address } } : {}),
    ...(business?.areaServed.length
      ? { areaServed: business.areaServed.map((name) => ({ '@type': 'Place', name })) }
      : {}),
    ...(business?.services.length
      ? {
          hasOfferCatalog: {
            '@type': 'OfferCatalog',
            name: 'Services',
            itemListElement: business.services.map((s) => ({
              '@type': 'Offer',
              itemOffered: { '@type': 'Service', name: s.name, category: s.category },
            })),
          },
        }
      : {}),
    ...(aggregate.ratingValue !== null
      ? {
          aggregateRating: {
            '@type': 'AggregateRating',
            ratingValue: aggregate.ratingValue,
            reviewCount: aggregate.reviewCount,
            bestRating: aggregate.bestRating,
            worstRating: aggregate.worstRating,
          },
        }
      : {}),
    review: newest.map((r) => reviewNode(links, r)),
  };
}

/** A permalink's document: the review, about the business. */
export function reviewJsonLd(links: Links, business: Business | null, review: Review): Node {
  return { '@context': 'https://schema.org', ...reviewNode(links, review), itemReviewed: businessRef(links, business) };
}
