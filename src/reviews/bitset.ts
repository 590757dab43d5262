// Sets of review positions as bits (32 a word): the search's filters combine word by word, and a count or the first
// few matches need no list of every match.

export type Bitset = Uint32Array;

export const bitsetOf = (size: number): Bitset => new Uint32Array(Math.ceil(size / 32));

export function setBit(bits: Bitset, position: number): void {
  bits[position >>> 5]! |= 1 << (position & 31);
}

export function hasBit(bits: Bitset, position: number): boolean {
  return (bits[position >>> 5]! & (1 << (position & 31))) !== 0;
}

/** Bits set in a 32-bit word. */
function bitCount(word: number): number {
  let x = word - ((word >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/**
 * Writes into `into` the positions in [from, to) that are in every one of `all` and in at least one of each group of
 * `any` (an empty `all` and no `any`: every position in the range); words outside the range are left as they were.
 * Returns the range of words written.
 */
export function combine(
  into: Bitset,
  from: number,
  to: number,
  all: readonly Bitset[],
  any: readonly (readonly Bitset[])[],
): [first: number, end: number] {
  const first = from >>> 5;
  const end = (to + 31) >>> 5;
  for (let w = first; w < end; w++) {
    let word = -1;
    for (const bits of all) word &= bits[w]!;
    for (const group of any) {
      let either = 0;
      for (const bits of group) either |= bits[w]!;
      word &= either;
    }
    into[w] = word;
  }
  if (end > first) {
    // The range's edges cut its first and last words.
    into[first]! &= -1 << (from & 31);
    if (to & 31) into[end - 1]! &= (1 << (to & 31)) - 1;
  }
  return [first, end];
}

/** How many bits are set in words [first, end). */
export function countBits(bits: Bitset, first: number, end: number): number {
  let n = 0;
  for (let w = first; w < end; w++) if (bits[w]) n += bitCount(bits[w]!);
  return n;
}

/** Calls `visit` with the set positions of words [first, end) in ascending order until it returns false. */
export function eachBit(bits: Bitset, first: number, end: number, visit: (position: number) => boolean): void {
  for (let w = first; w < end; w++) {
    let word = bits[w]!;
    while (word !== 0) {
      const low = word & -word;
      if (!visit((w << 5) + 31 - Math.clz32(low))) return;
      word ^= low;
    }
  }
}

/** Keeps in words [first, end) of `into` only the positions also in `bits`. */
export function intersect(into: Bitset, bits: Bitset, first: number, end: number): void {
  for (let w = first; w < end; w++) into[w]! &= bits[w]!;
}
