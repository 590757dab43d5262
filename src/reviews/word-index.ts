// The words of the folded review texts, for substring search: which reviews can contain a query, found from the
// words the query's fragments must be part of, before any text is read.

/** A word: a run of letters and digits (what a folded text is split on everywhere here). */
const WORD = /[\p{L}\p{N}]+/gu;
const SEPARATOR = /([^\p{L}\p{N}]+)/u;

/** How a fragment of a query must sit in a word of the text. */
type Fit = 'whole' | 'start' | 'end' | 'inside';

/** A word fragment of a query and where it must sit in a word of the text. */
interface Fragment {
  text: string;
  fit: Fit;
}

/**
 * The fragments a text containing `query` must have: a fragment between separators is a whole word, the first one
 * ends a word (it may continue to its left), the last one starts one, and a query without separators is inside one.
 */
export function fragmentsOf(query: string): Fragment[] {
  const pieces = query.split(SEPARATOR);
  const fragments: Fragment[] = [];
  for (let i = 0; i < pieces.length; i += 2) {
    const text = pieces[i]!;
    if (!text) continue;
    const boundedLeft = i > 0;
    const boundedRight = i < pieces.length - 1;
    fragments.push({ text, fit: boundedLeft && boundedRight ? 'whole' : boundedLeft ? 'start' : boundedRight ? 'end' : 'inside' });
  }
  return fragments;
}

const fits: Record<Fit, (word: string, fragment: string) => boolean> = {
  whole: (word, fragment) => word === fragment,
  start: (word, fragment) => word.startsWith(fragment),
  end: (word, fragment) => word.endsWith(fragment),
  inside: (word, fragment) => word.includes(fragment),
};

/** Positions (indexes into the reviews, ascending) of every text that has each word, each position once per word. */
export class WordIndex {
  /** Each word's positions: growing lists while texts are added, then packed (half the memory) by `seal`. */
  private positions = new Map<string, number[] | Int32Array>();
  /** Marks per position, reused by every `candidates` call (a search allocates nothing the size of the reviews). */
  private readonly marks: Uint8Array;
  /** The positions found by `narrow`, likewise reused. */
  private readonly hits: Int32Array;

  constructor(private readonly size: number) {
    this.marks = new Uint8Array(size);
    this.hits = new Int32Array(size);
  }

  /** Adds the text at `position`; positions must come in ascending order. */
  add(position: number, foldedText: string): void {
    for (const word of new Set(foldedText.match(WORD))) {
      const list = this.positions.get(word) as number[] | undefined;
      if (list) list.push(position);
      else this.positions.set(word, [position]);
    }
  }

  /** Every text is added: the lists are packed (3.1 million positions at 100,000 reviews: 12 MB instead of 25). */
  seal(): this {
    this.positions = new Map([...this.positions].map(([word, list]) => [word, Int32Array.from(list)]));
    return this;
  }

  /**
   * Narrows a search for `query` to the texts that may contain it: those with every fragment in a fitting word, in
   * ascending order. Each must still be read (the fragments can sit apart), unless `exact`: a query of one fragment
   * is in a text exactly when it is in one of its words. Undefined when the words cannot narrow it: a query of
   * separators only, or words so common that reading every text is as quick. The positions are a view of a buffer
   * the next call reuses: `release()` before it.
   */
  narrow(query: string): { positions: Int32Array; exact: boolean; release: () => void } | undefined {
    const fragments = fragmentsOf(query);
    const exact = fragments.length === 1 && fragments[0]!.text === query;
    // Marking a position costs far less than reading a text: an exact answer is worth ten marks a text; a narrowing
    // that leaves the texts to read, only if it leaves out at least half of them.
    const worthIt = exact ? 10 * this.size : this.size / 2;
    const constraints: ArrayLike<number>[][] = [];
    for (const fragment of fragments) {
      const lists = this.listsOf(fragment);
      if (lists.reduce((n, list) => n + list.length, 0) <= worthIt) constraints.push(lists);
    }
    if (constraints.length === 0 || constraints.length > 255) return undefined;
    const marks = this.marks;
    const last = constraints.length - 1;
    // A position meets constraint k when it met all k before it: its mark counts the constraints met.
    for (let k = 0; k < last; k++) {
      for (const list of constraints[k]!) for (let i = 0; i < list.length; i++) if (marks[list[i]!] === k) marks[list[i]!] = k + 1;
    }
    let count = 0;
    for (const list of constraints[last]!) {
      for (let i = 0; i < list.length; i++) {
        const p = list[i]!;
        if (marks[p] !== last) continue;
        marks[p] = last + 1;
        this.hits[count++] = p;
      }
    }
    const positions = this.hits.subarray(0, count).sort();
    return { positions, exact, release: () => marks.fill(0) };
  }

  private listsOf({ text, fit }: Fragment): ArrayLike<number>[] {
    if (fit === 'whole') {
      const list = this.positions.get(text);
      return list ? [list] : [];
    }
    const lists: ArrayLike<number>[] = [];
    for (const [word, list] of this.positions) if (fits[fit](word, text)) lists.push(list);
    return lists;
  }
}
