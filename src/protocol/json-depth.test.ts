import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from './json-depth.js';

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

describe('exceedsJsonDepth', () => {
  it('counts nested arrays and objects, up to and including the limit', () => {
    expect(exceedsJsonDepth(bytes('{}'), 1)).toBe(false);
    expect(exceedsJsonDepth(bytes('{"a":[]}'), 1)).toBe(true);
    expect(exceedsJsonDepth(bytes('[[],[],{"a":{}}]'), 3)).toBe(false);
    expect(exceedsJsonDepth(bytes('[[],[],{"a":{"b":[]}}]'), 3)).toBe(true);
    expect(exceedsJsonDepth(bytes('['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH)))).toBe(false);
    expect(exceedsJsonDepth(bytes('['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1)))).toBe(true);
  });

  it('ignores brackets inside strings, escaped quotes included, and non-ASCII text', () => {
    expect(exceedsJsonDepth(bytes('{"a":"[[[[{{{{"}'), 1)).toBe(false);
    expect(exceedsJsonDepth(bytes('{"a\\"[[[":"\\\\","b":"\\"{{{"}'), 1)).toBe(false);
    expect(exceedsJsonDepth(bytes('{"é[":"日本[[{","c":[1]}'), 1)).toBe(true);
    expect(exceedsJsonDepth(bytes('{"é[":"日本[[{","c":1}'), 1)).toBe(false);
  });

  it('never throws on damaged text (JSON.parse judges it next)', () => {
    for (const text of ['', ']]]]', '"unterminated [[[', '[[[', '\\', '{"a":"\\'])
      expect(() => exceedsJsonDepth(bytes(text))).not.toThrow();
    expect(exceedsJsonDepth(bytes('[[[]]][[['), 2)).toBe(true);
  });

  it('costs little next to JSON.parse on a typical 1–30 KB body', () => {
    const item = { id: 'loc_downtown', distance: { center: { latitude: 37.79, longitude: -122.39 }, max: 2000 }, tags: ['a', 'b'] };
    for (const count of [8, 240]) {
      const text = JSON.stringify({ query: 'grocery store', ids: Array.from({ length: count }, (_, i) => ({ ...item, id: `loc_${i}` })) });
      const body = bytes(text);
      const scan = fastestMs(() => exceedsJsonDepth(body));
      const parse = fastestMs(() => JSON.parse(body.toString('utf8')));
      // Measured (see json-depth.ts): about a fifth of toString + JSON.parse; generous bound for noisy CI.
      expect(scan).toBeLessThan(Math.max(parse * 3, 0.5));
    }
  });
});

/**
 * The time of one call, ms: the fastest of 10 batches of 20 calls, interleaving nothing. Another
 * process taking the CPU only ever makes a batch slower, so the fastest batch is the one least
 * disturbed — on a busy machine a mean would measure the neighbours as much as the code.
 */
function fastestMs(call: () => unknown): number {
  let fastest = Number.POSITIVE_INFINITY;
  for (let batch = 0; batch < 10; batch++) {
    const started = performance.now();
    for (let i = 0; i < 20; i++) call();
    fastest = Math.min(fastest, (performance.now() - started) / 20);
  }
  return fastest;
}
