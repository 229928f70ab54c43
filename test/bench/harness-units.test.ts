/**
 * Unit tests of the benchmark harness's own building blocks: seeded randomness, statistics,
 * answer comparison, option parsing and the chart. The harness's figures are only worth what
 * these pieces are.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareOutput } from '../../bench/lib/check.js';
import { parseOptions, parseSize } from '../../bench/lib/options.js';
import { AliasTable, Rng } from '../../bench/lib/rng.js';
import { quantile, summarize } from '../../bench/lib/stats.js';
import { latencyChart } from '../../bench/lib/svg.js';
import type { Instance } from '../../bench/lib/types.js';

describe('Rng', () => {
  it('repeats the same stream for the same seed and differs for another', () => {
    const a = new Rng('seed-1');
    const b = new Rng('seed-1');
    const c = new Rng('seed-2');
    const xs = Array.from({ length: 50 }, () => a.nextUint32());
    expect(Array.from({ length: 50 }, () => b.nextUint32())).toEqual(xs);
    expect(Array.from({ length: 50 }, () => c.nextUint32())).not.toEqual(xs);
  });

  it('keeps int(n) in [0, n) and next() in [0, 1)', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 1, max: 1_000_000 }), (seed, n) => {
        const r = new Rng(seed);
        for (let i = 0; i < 20; i++) {
          const k = r.int(n);
          const x = r.next();
          if (!(Number.isInteger(k) && k >= 0 && k < n && x >= 0 && x < 1)) return false;
        }
        return true;
      }),
    );
  });

  it('draws distinct values without repeats', () => {
    const r = new Rng(7);
    const picked = r.distinct(30, 40);
    expect(new Set(picked).size).toBe(30);
    expect(() => r.distinct(5, 4)).toThrow(RangeError);
  });
});

describe('AliasTable', () => {
  it('samples indexes in proportion to their weights', () => {
    const weights = [1, 0, 3, 6];
    const table = new AliasTable(weights);
    const rng = new Rng('alias');
    const counts = [0, 0, 0, 0];
    const n = 100_000;
    for (let i = 0; i < n; i++) counts[table.sample(rng)]! += 1;
    expect(counts[1]).toBe(0); // zero weight is never drawn
    // Seeded, so deterministic; 2% absolute slack is ~14 standard deviations.
    for (const [i, w] of weights.entries()) expect(Math.abs(counts[i]! / n - w / 10)).toBeLessThan(0.02);
  });

  it('rejects unusable weights with a clear message', () => {
    expect(() => new AliasTable([])).toThrow(/at least one/);
    expect(() => new AliasTable([0, 0])).toThrow(/positive total/);
    expect(() => new AliasTable([1, -1])).toThrow(/weight 1/);
  });
});

describe('stats', () => {
  it('interpolates quantiles between closest ranks', () => {
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantile([5], 0.99)).toBe(5);
    expect(quantile([], 0.5)).toBeNaN();
  });

  it('orders min <= p50 <= p99 <= max for any sample', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 200 }), (xs) => {
        const s = summarize(xs);
        return s.n === xs.length && s.min <= s.p50 && s.p50 <= s.p99 && s.p99 <= s.max;
      }),
    );
  });
});

describe('compareOutput', () => {
  const search: Instance = { op: 'search', request: { distance: { center: { latitude: 0, longitude: 0 }, max: 10 } }, pages: 1 };
  const reference = { op: 'search' as const, ids: Array.from({ length: 12 }, (_, i) => `loc-${i}`) };

  it('accepts the first page of the reference with its total', () => {
    expect(compareOutput(search, { type: 'search', ids: reference.ids.slice(0, 10), total: 12 }, reference)).toBeNull();
  });

  it('reports a reordered page, a short page and a wrong total', () => {
    const swapped = [...reference.ids.slice(0, 10)];
    [swapped[3], swapped[4]] = [swapped[4]!, swapped[3]!];
    expect(compareOutput(search, { type: 'search', ids: swapped }, reference)).toMatch(/position 3/);
    expect(compareOutput(search, { type: 'search', ids: reference.ids.slice(0, 9) }, reference)).toMatch(/9 returned, 10 expected/);
    expect(compareOutput(search, { type: 'search', ids: reference.ids.slice(0, 10), total: 11 }, reference)).toMatch(/total_count 11/);
  });

  it('compares every page of a multi-page walk', () => {
    const paged: Instance = { ...search, pages: 2 };
    expect(compareOutput(paged, { type: 'search', ids: reference.ids }, reference)).toBeNull();
    expect(compareOutput(paged, { type: 'search', ids: reference.ids.slice(0, 10) }, reference)).toMatch(/10 returned, 12 expected/);
  });

  it('requires a candidate set to contain the result and to filter down to it exactly', () => {
    const ids = [...reference.ids, 'loc-extra'];
    const all = ids.map((_, i) => i);
    const exact = (c: string[]): string[] => c.filter((id) => id !== 'loc-extra');
    expect(compareOutput(search, { type: 'candidates', indexes: all, ids }, reference, exact)).toBeNull();
    expect(compareOutput(search, { type: 'candidates', indexes: all.slice(1), ids }, reference, exact)).toMatch(/misses 1/);
    expect(compareOutput(search, { type: 'candidates', indexes: all, ids }, reference, (c) => c)).toMatch(/exact filter/);
  });

  it('compares lookups including which inputs reached each Location', () => {
    const lookup: Instance = { op: 'lookup', request: { ids: ['a', 'b'] } };
    const ref = { op: 'lookup' as const, entries: [{ id: 'loc-1', inputs: ['a', 'b'] }] };
    expect(compareOutput(lookup, { type: 'lookup', entries: [{ id: 'loc-1', inputs: ['a', 'b'] }] }, ref)).toBeNull();
    expect(compareOutput(lookup, { type: 'lookup', entries: [{ id: 'loc-1', inputs: ['b', 'a'] }] }, ref)).toMatch(/lookup differs/);
  });
});

describe('options', () => {
  it('reads sizes with k/m suffixes', () => {
    expect(parseSize('10k')).toBe(10_000);
    expect(parseSize('1m')).toBe(1_000_000);
    expect(parseSize('2500')).toBe(2500);
    expect(() => parseSize('ten')).toThrow(/not a size/);
    expect(() => parseSize('50')).toThrow(/too small/);
  });

  it('makes --quick 10k and 100k with short budgets, and the default the full run', () => {
    const quick = parseOptions(['--quick']);
    const full = parseOptions([]);
    if (quick === 'help' || full === 'help') throw new Error('unexpected help');
    expect(quick.sizes).toEqual([10_000, 100_000]);
    expect(quick.mode).toBe('quick');
    expect(full.sizes).toEqual([10_000, 100_000, 1_000_000]);
    expect(full.mode).toBe('full');
    expect(full.duration).toBeGreaterThan(quick.duration);
  });

  it('refuses unknown flags and bad numbers', () => {
    expect(() => parseOptions(['--sizez', '10k'])).toThrow();
    expect(() => parseOptions(['--duration', '0'])).toThrow(/positive/);
  });
});

describe('latencyChart', () => {
  it('draws one line per contender with more points, higher latency higher up', () => {
    const svg = latencyChart(
      'test',
      [
        {
          title: 'q',
          series: [
            {
              contender: 'naive',
              points: [
                { size: 10_000, ms: 10 },
                { size: 1_000_000, ms: 1000 },
              ],
            },
            { contender: 'floor', points: [{ size: 10_000, ms: 0.01 }] },
          ],
        },
      ],
      [10_000, 1_000_000],
    );
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.match(/<polyline/g)).toHaveLength(1);
    const ys = [...svg.matchAll(/<circle cx="[\d.]+" cy="([\d.]+)"/g)].map((m) => Number(m[1]));
    // SVG y grows downwards: 1000 ms is drawn above 10 ms, and 10 µs lowest of all.
    expect(ys[1]).toBeLessThan(ys[0]!);
    expect(ys[2]).toBeGreaterThan(ys[0]!);
  });
});
