import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLogger, redactCoordinates, summarizeRequest, truncateCoordinate } from './logging.js';

describe('truncateCoordinate (R-P1)', () => {
  it('keeps at most 2 decimals, never rounds away from zero, and loses less than 0.01°', () => {
    fc.assert(
      fc.property(fc.double({ min: -180, max: 180, noNaN: true }), (x) => {
        const t = truncateCoordinate(x);
        expect(Math.abs(t)).toBeLessThanOrEqual(Math.abs(x) + 1e-9);
        expect(Math.abs(x - t)).toBeLessThan(0.01 + 1e-9);
        expect(Number.isInteger(Math.round(t * 100 * 1e6) / 1e6)).toBe(true);
        if (t !== 0) expect(Math.sign(t)).toBe(Math.sign(x));
      }),
    );
  });

  it('truncates rather than rounds, and keeps digits binary noise would lose', () => {
    expect(truncateCoordinate(37.779999)).toBe(37.77);
    expect(truncateCoordinate(-122.41942)).toBe(-122.41);
    expect(truncateCoordinate(0.29)).toBe(0.29);
    // Object.is on purpose: the truncation must give 0, never -0 (which JSON would print as 0 but a log parser may not).
    // eslint-disable-next-line no-restricted-syntax
    expect(Object.is(truncateCoordinate(-0.004), 0)).toBe(true);
  });
});

describe('redactCoordinates (R-P1)', () => {
  it('truncates every coordinate-named number at any depth and leaves other fields alone', () => {
    const out = redactCoordinates({
      distance: { center: { latitude: 48.858844, longitude: 2.294351 }, max: 1234.5678 },
      serves: { point: { lat: -33.856784, lon: 151.215297 } },
      list: [{ lng: 139.691706 }],
      name: 'latitude',
    });
    expect(out).toEqual({
      distance: { center: { latitude: 48.85, longitude: 2.29 }, max: 1234.5678 },
      serves: { point: { lat: -33.85, lon: 151.21 } },
      list: [{ lng: 139.69 }],
      name: 'latitude',
    });
  });
});

describe('createLogger (R-P1)', () => {
  it('never writes a precise buyer coordinate, whatever object a call site logs', async () => {
    const sink = new PassThrough();
    const lines: string[] = [];
    sink.on('data', (chunk: Buffer) => lines.push(chunk.toString('utf8')));
    const log = createLogger({ level: 'info', destination: sink });
    log.info({ request: { distance: { center: { latitude: 51.5007292, longitude: -0.1246254 }, max: 500 } } }, 'tools/call');
    await new Promise((resolve) => setImmediate(resolve));
    const text = lines.join('');
    expect(text).toContain('"latitude":51.5');
    expect(text).toContain('"longitude":-0.12');
    expect(text).not.toContain('51.5007');
    expect(text).not.toContain('0.1246');
  });
});

describe('summarizeRequest', () => {
  it('describes the operands without free text or full-precision coordinates', () => {
    const summary = summarizeRequest({
      query: 'my home address is 1 Main St',
      distance: { center: { latitude: 40.712776, longitude: -74.005974 }, max: 2000 },
      serves: { point: { latitude: 1, longitude: 2 } },
      filters: { items: ['sku-1', 'sku-2'], amenities: ['dev.ucp.amenity.wi_fi'] },
      pagination: { limit: 5, cursor: 'opaque' },
    });
    expect(summary).toEqual({
      query_chars: 28,
      distance: { center: { latitude: 40.71, longitude: -74 }, max: 2000 },
      serves: ['point'],
      filters: ['items', 'amenities'],
      items: 2,
      limit: 5,
      cursor: true,
    });
    expect(JSON.stringify(summary)).not.toContain('Main St');
  });
});
