import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareIds, compareRank, indexAfter, pageAfter, selectPage, type RankKey } from './ranking.js';

const rankKey = fc.record({
  tier: fc.integer({ min: 0, max: 4 }),
  tieBreak: fc.integer({ min: 0, max: 4 }),
  relevance: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 100, noNaN: true })),
  distance: fc.oneof(fc.constant(0), fc.constant(Number.POSITIVE_INFINITY), fc.double({ min: 0, max: 2e7, noNaN: true })),
  id: fc.string({ unit: 'grapheme', maxLength: 6 }),
});

/** Distinct ids, as in a real result. */
const rankKeys = fc.uniqueArray(rankKey, { selector: (k) => k.id, maxLength: 40 });

describe('compareIds', () => {
  it('orders like the UTF-8 bytes (SQLite BINARY, PostgreSQL "C"), including astral characters', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (a, b) => {
        const bytes = Math.sign(Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')));
        expect(Math.sign(compareIds(a, b))).toBe(bytes);
      }),
      { numRuns: 3000 },
    );
    // U+FF21 (BMP, above surrogates) sorts before U+1F600 by code point, unlike UTF-16 order.
    expect(compareIds('\uFF21', '\u{1F600}')).toBeLessThan(0);
  });
});

describe('compareRank', () => {
  it('is a total order: antisymmetric and consistent with sorting (ranking)', () => {
    fc.assert(
      fc.property(rankKey, rankKey, (a, b) => {
        // `===`, not Object.is: for equal keys both signs are zero, and -0 is the same zero.
        expect(Math.sign(compareRank(a, b)) === -Math.sign(compareRank(b, a))).toBe(true);
        if (compareRank(a, b) === 0) expect(a.id).toBe(b.id);
      }),
    );
    // Equal keys (which fast-check draws only now and then) every run.
    const same = { relevance: 0, distance: 0, id: '' };
    expect(compareRank(same, { ...same })).toBe(0);
  });

  it('puts the locality tier before any text score, and the tie-break tier only after distance (R-C2)', () => {
    const keys: RankKey[] = [
      { tier: 3, relevance: 9, distance: 0, id: 'far-but-relevant' },
      { tier: 1, relevance: 0.1, distance: 0, id: 'near-weak' },
      { tier: 1, relevance: 2, distance: 0, id: 'near-strong' },
      { relevance: 1, distance: 0, id: 'no-tier' },
      { tieBreak: 4, relevance: 0, distance: 7, id: 'tie-far' },
      { tieBreak: 1, relevance: 0, distance: 7, id: 'tie-near' },
      { tieBreak: 0, relevance: 0, distance: 8, id: 'farther' },
    ];
    expect([...keys].sort(compareRank).map((k) => k.id)).toEqual([
      'no-tier',
      'tie-near',
      'tie-far',
      'farther',
      'near-strong',
      'near-weak',
      'far-but-relevant',
    ]);
  });

  it('puts relevance first (desc), then distance (asc, Infinity last), then id (asc)', () => {
    const keys: RankKey[] = [
      { relevance: 0, distance: 5, id: 'a' },
      { relevance: 1, distance: 9, id: 'z' },
      { relevance: 0, distance: Number.POSITIVE_INFINITY, id: 'b' },
      { relevance: 0, distance: 5, id: 'b' },
    ];
    expect([...keys].sort(compareRank).map((k) => `${k.relevance}/${k.distance}/${k.id}`)).toEqual([
      '1/9/z',
      '0/5/a',
      '0/5/b',
      '0/Infinity/b',
    ]);
  });
});

describe('selectPage', () => {
  /** Results with exact distances plus a random bracket around each (sometimes exact). */
  const bracketed = fc
    .uniqueArray(
      fc.record({
        tier: fc.constantFrom(0, 0, 1, 3),
        tieBreak: fc.constantFrom(0, 0, 2, 4),
        relevance: fc.constantFrom(0, 1, 2.5),
        distance: fc.oneof(fc.integer({ min: 0, max: 30 }), fc.constant(Number.POSITIVE_INFINITY)),
        id: fc.string({ maxLength: 4 }),
        below: fc.integer({ min: 0, max: 6 }),
        above: fc.integer({ min: 0, max: 6 }),
      }),
      { selector: (r) => r.id, maxLength: 40 },
    )
    .map((rs) =>
      rs.map((r) => ({
        tier: r.tier,
        tieBreak: r.tieBreak,
        relevance: r.relevance,
        id: r.id,
        truth: r.distance,
        lower: r.distance - r.below,
        upper: r.distance + r.above,
      })),
    );

  it('returns exactly the pages an all-exact ranking would, whatever the brackets and locality tiers (ranking, R-S9, R-C2)', () => {
    fc.assert(
      fc.property(bracketed, fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 5 }), (rs, sizes) => {
        const exactOrder = rs
          .map((r) => ({ tier: r.tier, tieBreak: r.tieBreak, relevance: r.relevance, distance: r.truth, id: r.id }))
          .sort(compareRank);
        const seen: string[] = [];
        let after: RankKey | null = null;
        for (let step = 0; step < 100; step++) {
          // Fresh copies: a real engine recomputes candidates for every page.
          const items = rs.map((r) => ({
            tier: r.tier,
            tieBreak: r.tieBreak,
            relevance: r.relevance,
            id: r.id,
            lower: Number.isFinite(r.truth) ? r.lower : r.truth,
            upper: Number.isFinite(r.truth) ? r.upper : r.truth,
            truth: r.truth,
          }));
          const size = sizes[step % sizes.length] as number;
          const page = selectPage(items, after, size, (t) => t.truth);
          for (const p of page.items) expect(p.distance).toBe(p.truth);
          seen.push(...page.items.map((p) => p.id));
          if (page.following <= page.items.length) break;
          const last = page.items[page.items.length - 1] as RankKey;
          after = { tier: last.tier ?? 0, tieBreak: last.tieBreak ?? 0, relevance: last.relevance, distance: last.distance, id: last.id };
        }
        expect(seen).toEqual(exactOrder.map((k) => k.id));
      }),
      { numRuns: 1000 },
    );
  });

  it('resumes after a position that is no longer among the results', () => {
    const items = [1, 2, 4, 5].map((d) => ({ relevance: 0, id: `k${d}`, lower: d, upper: d }));
    const page = selectPage(items, { relevance: 0, distance: 3, id: 'gone' }, 10, (t) => t.lower);
    expect(page.items.map((k) => k.id)).toEqual(['k4', 'k5']);
    expect(page.following).toBe(2);
  });

  it('computes exact distances only for the results it has to', () => {
    const items = Array.from({ length: 1000 }, (_, i) => ({ relevance: 0, id: `k${i}`, lower: i, upper: i + 0.5 }));
    let calls = 0;
    const page = selectPage(items, null, 10, (t) => {
      calls++;
      return t.lower + 0.25;
    });
    expect(page.items.map((p) => p.id)).toEqual(items.slice(0, 10).map((t) => t.id));
    expect(page.following).toBe(1000);
    expect(calls).toBeLessThanOrEqual(11);
  });
});

describe('pageAfter', () => {
  it('pages of any sizes concatenate to the whole order, with no duplicate or gap (R-S9)', () => {
    fc.assert(
      fc.property(rankKeys, fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 8 }), (keys, sizes) => {
        const sorted = [...keys].sort(compareRank);
        const seen: RankKey[] = [];
        let after: RankKey | null = null;
        for (let i = 0; i < 200; i++) {
          const page = pageAfter(sorted, after, sizes[i % sizes.length] as number);
          seen.push(...page.items);
          if (!page.hasMore) break;
          after = page.items[page.items.length - 1] as RankKey;
        }
        expect(seen).toEqual(sorted);
      }),
    );
  });

  it('resumes after a position that is no longer in the list', () => {
    const sorted = [1, 2, 4, 5].map((d) => ({ relevance: 0, distance: d, id: `k${d}` }));
    expect(indexAfter(sorted, { relevance: 0, distance: 3, id: 'gone' })).toBe(2);
    expect(pageAfter(sorted, { relevance: 0, distance: 3, id: 'gone' }, 10).items.map((k) => k.id)).toEqual(['k4', 'k5']);
  });

  it('reads no further than `available`', () => {
    const sorted = [1, 2, 3, 4].map((d) => ({ relevance: 0, distance: d, id: `k${d}` }));
    expect(pageAfter(sorted, null, 10, 3)).toEqual({ items: sorted.slice(0, 3), hasMore: false });
    expect(pageAfter(sorted, null, 2, 3).hasMore).toBe(true);
  });
});
