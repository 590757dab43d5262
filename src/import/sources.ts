// The sources `import --from` takes: one adapter each, and the platforms the service refuses, with why.
import type { Adapter, Refusal } from './adapter.js';
import { birdeye } from './birdeye.js';
import { google } from './google.js';
import { own } from './own.js';
import { podium } from './podium.js';
import { trustpilot } from './trustpilot.js';

const yelp: Refusal = {
  name: 'yelp',
  refused:
    "Yelp's API terms forbid storing its content for more than 24 hours or building a database from it, " +
    'so Yelp reviews cannot be imported; nothing was changed',
};

const SOURCES: readonly (Adapter | Refusal)[] = [google, trustpilot, podium, birdeye, yelp];

/** The names `--from` accepts (a refused one included, so that it is refused with its reason). */
export const SOURCE_NAMES = SOURCES.map((s) => s.name);

/** The source named by `--from`; without one, the service's own format. */
export function sourceNamed(name: string | undefined): Adapter | Refusal | undefined {
  if (name === undefined) return own;
  return SOURCES.find((s) => s.name === name.toLowerCase());
}

export const isRefusal = (source: Adapter | Refusal): source is Refusal => 'refused' in source;
