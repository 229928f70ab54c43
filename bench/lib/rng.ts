/**
 * Deterministic pseudo-random numbers for the benchmark: the same seed always yields the same
 * dataset and the same query instances, on every machine and Node version, so figures from two
 * runs describe the same work. Not for anything security related.
 */

/** sfc32 ("small fast counter", Chris Doty-Humphrey): 128-bit state, passes PractRand to 2^40+. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number | string) {
    // Spread the seed over the state with a string hash (cyrb128-style mixing), then discard the
    // first outputs, which still correlate with the seed.
    const text = String(seed);
    let h1 = 1779033703;
    let h2 = 3144134277;
    let h3 = 1013904242;
    let h4 = 2773480762;
    for (let i = 0; i < text.length; i++) {
      const k = text.charCodeAt(i);
      h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
      h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
      h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
      h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
    }
    h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
    h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
    h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
    h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
    this.a = (h1 ^ h2 ^ h3 ^ h4) >>> 0;
    this.b = (h2 ^ h1) >>> 0;
    this.c = (h3 ^ h1) >>> 0;
    this.d = (h4 ^ h1) >>> 0;
    for (let i = 0; i < 16; i++) this.nextUint32();
  }

  /** Uniform integer in [0, 2^32). */
  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1), 32 bits of resolution. */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** Uniform integer in [0, n); n must be a positive integer <= 2^32. */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Uniform integer in [lo, hi], both inclusive. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick() from an empty list');
    return itemAt(items, this.int(items.length));
  }

  /** Standard normal deviate (Box–Muller; the second value is dropped to keep the stream simple). */
  normal(): number {
    let u = 0;
    while (u === 0) u = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }

  /** `k` distinct indexes of [0, n) (k <= n), in the order drawn. */
  distinct(k: number, n: number, draw: () => number = () => this.int(n)): number[] {
    if (k > n) throw new RangeError(`cannot draw ${k} distinct values from ${n}`);
    const seen = new Set<number>();
    const out: number[] = [];
    // Rejection is fine here: callers draw a handful from hundreds or thousands.
    while (out.length < k) {
      const v = draw();
      if (seen.has(v)) continue;
      seen.add(v);
      out.push(v);
    }
    return out;
  }
}

/**
 * Walker/Vose alias table: O(1) sampling of an index with probability proportional to its
 * weight. Used for population-weighted city choice (130k+ weights) and Zipf item popularity.
 */
export class AliasTable {
  private readonly prob: Float64Array;
  private readonly alias: Uint32Array;

  constructor(weights: ArrayLike<number>) {
    const n = weights.length;
    if (n === 0) throw new RangeError('AliasTable needs at least one weight');
    let total = 0;
    for (let i = 0; i < n; i++) {
      const w = weights[i] as number;
      if (!(w >= 0) || !Number.isFinite(w)) throw new RangeError(`weight ${i} must be a finite number >= 0, got ${w}`);
      total += w;
    }
    if (total <= 0) throw new RangeError('AliasTable needs a positive total weight');
    this.prob = new Float64Array(n);
    this.alias = new Uint32Array(n);
    const scaled = new Float64Array(n);
    const small: number[] = [];
    const large: number[] = [];
    for (let i = 0; i < n; i++) {
      scaled[i] = ((weights[i] as number) * n) / total;
      ((scaled[i] as number) < 1 ? small : large).push(i);
    }
    while (small.length > 0 && large.length > 0) {
      const s = small.pop() as number;
      const l = large.pop() as number;
      this.prob[s] = scaled[s] as number;
      this.alias[s] = l;
      scaled[l] = (scaled[l] as number) + (scaled[s] as number) - 1;
      (scaled[l] < 1 ? small : large).push(l);
    }
    // Leftovers are 1 up to rounding.
    for (const i of large) this.prob[i] = 1;
    for (const i of small) this.prob[i] = 1;
  }

  get size(): number {
    return this.prob.length;
  }

  sample(rng: Rng): number {
    const i = rng.int(this.prob.length);
    return rng.next() < (this.prob[i] as number) ? i : (this.alias[i] as number);
  }
}

/** `items[i]`, or a RangeError naming the index: for indexes the caller computed to be in range. */
export function itemAt<T>(items: readonly T[], i: number): T {
  const item = items[i];
  if (item === undefined) throw new RangeError(`index ${i} is outside a list of ${items.length}`);
  return item;
}
