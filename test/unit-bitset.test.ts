// Bitsets of review positions: combining sets over a range, counting and visiting, against plain arrays.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bitsetOf, combine, countBits, eachBit, hasBit, setBit } from '../src/reviews/bitset.js';

const setArb = (size: number) => fc.uniqueArray(fc.nat({ max: size - 1 }), { maxLength: size });

describe('bitsets', () => {
  it('combine, countBits and eachBit agree with plain sets, for any sizes, ranges and groups', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }).chain((size) =>
          fc.record({
            size: fc.constant(size),
            all: fc.array(setArb(size), { maxLength: 3 }),
            any: fc.array(fc.array(setArb(size), { maxLength: 3 }), { maxLength: 2 }),
            from: fc.nat({ max: size }),
            to: fc.nat({ max: size }),
            stale: setArb(size),
          }),
        ),
        ({ size, all, any, from, to, stale }) => {
          fc.pre(from < to);
          const bitsOf = (positions: number[]) => {
            const bits = bitsetOf(size);
            for (const p of positions) setBit(bits, p);
            return bits;
          };
          // What was in the buffer before must not leak into the answer.
          const into = bitsOf(stale);
          const [first, end] = combine(
            into,
            from,
            to,
            all.map(bitsOf),
            any.map((group) => group.map(bitsOf)),
          );
          const expected: number[] = [];
          for (let p = from; p < to; p++) {
            if (all.every((s) => s.includes(p)) && any.every((group) => group.some((s) => s.includes(p))))
              expected.push(p);
          }
          expect(countBits(into, first, end)).toBe(expected.length);
          const visited: number[] = [];
          eachBit(into, first, end, (p) => visited.push(p) > 0);
          expect(visited).toEqual(expected);
          for (const p of expected) expect(hasBit(into, p)).toBe(true);
          // eachBit stops when asked to.
          const firstTwo: number[] = [];
          eachBit(into, first, end, (p) => firstTwo.push(p) < 2);
          expect(firstTwo).toEqual(expected.slice(0, 2));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('handles the 32nd bit of a word (the sign bit) like any other', () => {
    const bits = bitsetOf(64);
    for (const p of [0, 31, 32, 63]) setBit(bits, p);
    const into = bitsetOf(64);
    const [first, end] = combine(into, 31, 64, [bits], []);
    const visited: number[] = [];
    eachBit(into, first, end, (p) => visited.push(p) > 0);
    expect(visited).toEqual([31, 32, 63]);
    expect(countBits(into, first, end)).toBe(3);
  });
});
