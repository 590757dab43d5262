// Seeded PRNG (sfc32) and sampling helpers: the demo's only source of randomness, so equal seeds give equal output.

/** A deterministic random stream; `stream` separates independent sequences drawn from one seed. */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number, stream = 0) {
    if (!Number.isFinite(seed)) throw new RangeError(`seed must be a finite number, got ${seed}`);
    // splitmix32 spreads the seed over sfc32's four words, so nearby seeds give unrelated sequences.
    let state =
      (Math.floor(seed) ^ Math.imul(Math.floor(seed / 2 ** 32) | 0, 0x85ebca6b) ^ Math.imul(stream + 1, 0x9e3779b9)) |
      0;
    const mix = (): number => {
      state = (state + 0x9e3779b9) | 0;
      let z = state;
      z = Math.imul(z ^ (z >>> 16), 0x21f0aaad);
      z = Math.imul(z ^ (z >>> 15), 0x735a2d97);
      return (z ^ (z >>> 15)) >>> 0;
    };
    this.a = mix();
    this.b = mix();
    this.c = mix();
    this.d = mix();
    // The first outputs of sfc32 are still correlated with the state; discard them.
    for (let i = 0; i < 12; i++) this.next();
  }

  /** A float in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new RangeError('pick from an empty list');
    return item;
  }

  /** One item, with probability proportional to `weight(item)`. */
  weighted<T>(items: readonly T[], weight: (item: T) => number): T {
    let total = 0;
    for (const item of items) total += Math.max(0, weight(item));
    let target = this.next() * total;
    for (const item of items) {
      target -= Math.max(0, weight(item));
      if (target < 0) return item;
    }
    // Only reached through float rounding at the very end of the range, or when all weights are 0.
    return this.pick(items);
  }

  /** `count` distinct items in random order (all of them if there are fewer). */
  sample<T>(items: readonly T[], count: number): T[] {
    const pool = [...items];
    const n = Math.min(count, pool.length);
    for (let i = 0; i < n; i++) {
      const j = i + Math.floor(this.next() * (pool.length - i));
      const chosen = pool[j] as T;
      pool[j] = pool[i] as T;
      pool[i] = chosen;
    }
    return pool.slice(0, n);
  }
}
