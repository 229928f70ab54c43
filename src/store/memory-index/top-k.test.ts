import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { topK } from './top-k.js';

describe('topK', () => {
  it('equals the first k of a full sort by (score desc, ordinal asc), ties and duplicates of scores included', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.nat(500), { maxLength: 200 }),
        fc.array(fc.constantFrom(0, 0.5, 1, 1.5, 2, 1e-6, 3.25)),
        fc.integer({ min: -1, max: 220 }),
        (rows, pool, k) => {
          const scores = rows.map((_, i) => pool[i % Math.max(1, pool.length)] ?? 1);
          const expected = rows
            .map((_, p) => p)
            .sort((a, b) => (scores[b] as number) - (scores[a] as number) || (rows[a] as number) - (rows[b] as number))
            .slice(0, Math.max(0, k));
          expect(topK(rows, scores, k)).toEqual(expected);
        },
      ),
      { numRuns: 500 },
    );
  });
});
