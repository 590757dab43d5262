// Completion of template variables (review ids, technician names, service ids, aspect ids) from an index made once
// per list of values: the values sorted by their folded form, a prefix found by binary search, so that one
// completion examines at most MAX_COMPLETIONS entries plus two searches, whatever the size of the store.
import { fold } from '../reviews/text.js';

/** Values answered at most (the MCP limit). */
export const MAX_COMPLETIONS = 100;

/** Longer than any value completed (ids and names are at most 200 characters): such a prefix matches nothing. */
const MAX_TYPED = 200;

export interface Completion {
  values: string[];
  /** Values that start with what was typed, all of them (`values` holds the first MAX_COMPLETIONS). */
  total: number;
  hasMore: boolean;
  /** Index entries read to answer (the bound the tests check: not the size of the list). */
  examined: number;
}

const ASCII_WITHOUT_CAPITALS_OR_RUNS = /^(?:[!-@[-~]| (?! ))*$/;

/** The form a value is found by: folded (case and accents aside), its spaces collapsed ("zoe m" finds "Zoë  Martínez"). */
function keyOf(value: string): string {
  // Most ids are already in that form (rv-000123): folding each of 300,000 was most of the index's making.
  if (ASCII_WITHOUT_CAPITALS_OR_RUNS.test(value) && !value.startsWith(' ') && !value.endsWith(' ')) return value;
  return fold(value).trim().replace(/\s+/g, ' ');
}

export class CompletionIndex {
  private readonly keys: string[];
  private readonly values: string[];

  constructor(values: Iterable<string>) {
    const entries = Array.from(values, (value) => ({ key: keyOf(value), value }));
    // Code-unit order, the order the binary search compares in; ties keep their order in the list.
    entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    this.keys = entries.map((e) => e.key);
    this.values = entries.map((e) => e.value);
  }

  get size(): number {
    return this.keys.length;
  }

  /** The values that start with `typed` (case and accents aside), in the order of their folded form. */
  complete(typed: string): Completion {
    if (typed.length > MAX_TYPED) return { values: [], total: 0, hasMore: false, examined: 0 };
    const prefix = fold(typed).replace(/^\s+/, '').replace(/\s+/g, ' ');
    const probe = { examined: 0 };
    const first = this.search(0, (key) => key >= prefix, probe);
    // The keys that start with the prefix are the ones from `first` on, up to the first that does not.
    const end = this.search(first, (key) => !key.startsWith(prefix), probe);
    const total = end - first;
    const values = this.values.slice(first, first + Math.min(total, MAX_COMPLETIONS));
    return { values, total, hasMore: total > values.length, examined: probe.examined + values.length };
  }

  /** The first position from `from` on whose key passes `test` (false for every key before it, true from it on). */
  private search(from: number, test: (key: string) => boolean, probe: { examined: number }): number {
    let low = from;
    let high = this.keys.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      probe.examined++;
      if (test(this.keys[middle]!)) high = middle;
      else low = middle + 1;
    }
    return low;
  }
}

const made = new WeakMap<object, CompletionIndex>();

/** The index of a list of values, made on first use and kept as long as the list (one list per data version). */
export function completionIndex<T>(list: readonly T[], valueOf: (item: T) => string): CompletionIndex {
  let index = made.get(list);
  if (!index) made.set(list, (index = new CompletionIndex(list.map(valueOf))));
  return index;
}
