import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LruMap, approximateBytes } from './lru.js';

describe('LruMap bounded in bytes as well as entries (R-G2, issue 37 N1)', () => {
  it('evicts the oldest entries once the estimated bytes pass maxBytes', () => {
    const lru = new LruMap<string, string>(1_000, { maxBytes: 10_000 });
    for (let i = 0; i < 10; i += 1) lru.set(`k${i}`, 'x'.repeat(1_000));
    expect(lru.bytes).toBeLessThanOrEqual(10_000);
    expect(lru.size).toBeLessThan(10);
    expect(lru.has('k9')).toBe(true);
    expect(lru.has('k0')).toBe(false);
  });

  it('does not keep an entry larger than maxBytes on its own (and drops the old value of its key)', () => {
    const lru = new LruMap<string, string>(10, { maxBytes: 1_000 });
    lru.set('big', 'small');
    lru.set('big', 'y'.repeat(10_000));
    expect(lru.has('big')).toBe(false);
    expect(lru.bytes).toBe(0);
  });

  it('property: bytes is the sum of the live entries and never above maxBytes; entries never above maxEntries', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('set', 'delete', 'get'), fc.string({ maxLength: 4 }), fc.string({ maxLength: 300 })), {
          maxLength: 200,
        }),
        (ops) => {
          const lru = new LruMap<string, string>(8, { maxBytes: 1_500 });
          for (const [op, key, value] of ops) {
            if (op === 'set') lru.set(key, value);
            else if (op === 'delete') lru.delete(key);
            else lru.get(key);
            const live = [...lru.keys()].reduce((sum, k) => sum + approximateBytes(k) + approximateBytes(lru.peek(k)), 0);
            expect(lru.bytes).toBe(live);
            expect(lru.bytes).toBeLessThanOrEqual(1_500);
            expect(lru.size).toBeLessThanOrEqual(8);
          }
        },
      ),
    );
  });

  it('estimates nested JSON at least at its serialised length', () => {
    const doc = { a: ['x'.repeat(100), { b: 1, c: null }], d: 'é'.repeat(50) };
    expect(approximateBytes(doc)).toBeGreaterThanOrEqual(JSON.stringify(doc).length);
  });
});
