import { describe, expect, it } from 'vitest';
import { Intake, deeperThan } from './intake.js';
import { ScanCache } from './scan-cache.js';

describe('agent intake: bounds on what a business sends (#37 N3, N4)', () => {
  it('measures depth without recursion, at any depth', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = { a: deep };
    expect(deeperThan(deep, 32)).toBe(true);
    expect(deeperThan({ a: [{ b: 1 }] }, 3)).toBe(false);
    expect(deeperThan({ a: [{ b: {} }] }, 3)).toBe(true);
  });

  it('drops deep, large and over-budget Locations, counting each kind in a note naming the business', () => {
    const intake = new Intake('acme', { maxDepth: 4, maxLocationBytes: 200, maxAnswerBytes: 300 });
    const small = { id: 'a', name: 'A' };
    const kept = intake.accept([
      small,
      { id: 'd', x: { y: { z: { w: {} } } } },
      { id: 'l', name: 'x'.repeat(300) },
      ...Array(20).fill(small),
    ]);
    expect(kept.length).toBeGreaterThan(1);
    expect(intake.bytes).toBeLessThanOrEqual(300);
    expect(intake.notes()).toEqual([
      'acme sent 1 Location nested deeper than 4 levels; the bridge left them out.',
      'acme sent 1 Location larger than 0 KB each; the bridge left them out.',
      expect.stringMatching(/^acme sent more than 0 MB of Locations in one answer; the bridge left out the last \d+ Locations/),
    ]);
  });

  it('the scan cache is bounded in bytes as well as entries, oldest first', () => {
    const cache = new ScanCache<string>({ maxEntries: 10, maxBytes: 100 });
    cache.set('a', 'a', 40);
    cache.set('b', 'b', 40);
    expect(cache.get('a')).toBe('a'); // a is now the most recent
    cache.set('c', 'c', 40);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.bytes).toBe(80);
    cache.set('huge', 'h', 101);
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.size).toBe(2);
  });
});
