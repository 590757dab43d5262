// The distinct words of the texts, each with an id and the positions of the texts having it; found by a fragment
// and how it must sit in them, in time logarithmic in the words for all but a fragment inside a word.
import { bitsetOf, setBit, type Bitset } from './bitset.js';
import type { Fragment } from './query-shape.js';

/** Orders strings by UTF-16 code units read from their ends: the words ending with a suffix are then a run. */
function compareBackwards(a: string, b: string): number {
  for (let i = a.length - 1, j = b.length - 1; i >= 0 && j >= 0; i--, j--) {
    const difference = a.charCodeAt(i) - b.charCodeAt(j);
    if (difference !== 0) return difference;
  }
  return a.length - b.length;
}

const compareForwards = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** FNV-1a of text[from, to). */
function hashOf(text: string, from: number, to: number): number {
  let hash = 0x811c9dc5;
  for (let i = from; i < to; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash;
}

export class Vocabulary {
  private readonly words: string[];
  /**
   * Word ids by hash (open addressing, half full at most), so that a word of a text is found from where it lies in
   * the text: a string is cut out only for a new word.
   */
  private slots = new Int32Array(1 << 12).fill(-1);
  private readonly hashes: number[];
  /**
   * Each word's positions: growing lists while texts are added; then, by `seal`, packed lists, or bits for a word
   * more than one text in 32 has, as they take fewer bytes (5.9 MB instead of 12 as lists alone at 100,000 reviews).
   */
  private postings: (number[] | Int32Array | Bitset)[];
  private counts = new Int32Array(0);
  /** Word ids by their text, forwards and backwards (after `seal`). */
  private forwards = new Int32Array(0);
  private backwards = new Int32Array(0);

  /** `reserved` words come first, with ids 0, 1, …; they have no postings and no fragment finds them. */
  constructor(
    private readonly reserved: number,
    private readonly texts: number,
  ) {
    this.words = Array.from({ length: reserved }, () => '');
    this.hashes = Array.from({ length: reserved }, () => 0);
    this.postings = Array.from({ length: reserved }, () => []);
  }

  get size(): number {
    return this.words.length;
  }

  /** The id of the word text[from, to), added if new, having `position` among its positions (ascending). */
  add(text: string, from: number, to: number, position: number): number {
    const hash = hashOf(text, from, to);
    let id = this.find(text, from, to, hash);
    if (id < 0) {
      id = this.words.length;
      this.words.push(text.slice(from, to));
      this.hashes.push(hash);
      this.postings.push([]);
      if (2 * (this.words.length - this.reserved) > this.slots.length) this.rehash(2 * this.slots.length);
      else this.slots[this.free(hash)] = id;
    }
    const list = this.postings[id] as number[];
    if (list[list.length - 1] !== position) list.push(position);
    return id;
  }

  /** Every text is added. */
  seal(): void {
    this.counts = Int32Array.from(this.postings, (list) => list.length);
    this.postings = this.postings.map((list) => {
      if (32 * list.length <= this.texts) return Int32Array.from(list);
      const bits = bitsetOf(this.texts);
      for (const position of list) setBit(bits, position);
      return bits;
    });
    const ids = Array.from({ length: this.words.length - this.reserved }, (_, i) => this.reserved + i);
    this.forwards = Int32Array.from(ids.sort((a, b) => compareForwards(this.words[a]!, this.words[b]!)));
    this.backwards = Int32Array.from(ids.sort((a, b) => compareBackwards(this.words[a]!, this.words[b]!)));
  }

  /** How many texts have word `id`. */
  count(id: number): number {
    return this.counts[id]!;
  }

  /** What `addTo` costs for word `id`, in steps of a loop: a bit set or a 32-bit word of bits. */
  cost(id: number): number {
    return this.postings[id]!.length;
  }

  /** Adds to `into` the positions of the texts having word `id` (after `seal`). */
  addTo(into: Bitset, id: number): void {
    const postings = this.postings[id]!;
    if (postings instanceof Uint32Array) for (let w = 0; w < postings.length; w++) into[w]! |= postings[w]!;
    else for (let i = 0; i < postings.length; i++) setBit(into, postings[i]!);
  }

  /** The ids of the words `fragment` fits in (after `seal`). */
  fitting({ text, fit }: Fragment): number[] {
    switch (fit) {
      case 'whole': {
        const id = this.find(text, 0, text.length, hashOf(text, 0, text.length));
        return id < 0 ? [] : [id];
      }
      case 'start':
        return this.run(this.forwards, text, compareForwards, (word) => word.startsWith(text));
      case 'end':
        return this.run(this.backwards, text, compareBackwards, (word) => word.endsWith(text));
      case 'inside': {
        const found: number[] = [];
        for (let id = this.reserved; id < this.words.length; id++) if (this.words[id]!.includes(text)) found.push(id);
        return found;
      }
    }
  }

  /** The id of the word text[from, to), or -1. */
  private find(text: string, from: number, to: number, hash: number): number {
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; this.slots[slot]! >= 0; slot = (slot + 1) & mask) {
      const id = this.slots[slot]!;
      const word = this.words[id]!;
      if (this.hashes[id] === hash && word.length === to - from && text.startsWith(word, from)) return id;
    }
    return -1;
  }

  /** The first empty slot for `hash`. */
  private free(hash: number): number {
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    while (this.slots[slot]! >= 0) slot = (slot + 1) & mask;
    return slot;
  }

  private rehash(capacity: number): void {
    this.slots = new Int32Array(capacity).fill(-1);
    for (let id = this.reserved; id < this.words.length; id++) this.slots[this.free(this.hashes[id]!)] = id;
  }

  /** The words of `order` from the first not before `text` on, while they have it. */
  private run(
    order: Int32Array,
    text: string,
    compare: (a: string, b: string) => number,
    has: (word: string) => boolean,
  ): number[] {
    let low = 0;
    let high = order.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compare(this.words[order[middle]!]!, text) < 0) low = middle + 1;
      else high = middle;
    }
    const found: number[] = [];
    for (let i = low; i < order.length && has(this.words[order[i]!]!); i++) found.push(order[i]!);
    return found;
  }
}
