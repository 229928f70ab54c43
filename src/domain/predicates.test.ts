import { describe, expect, it } from 'vitest';
import { UcpRequestError } from '../errors.js';
import { isBoundedBrowse, planPredicates, pointerToken } from './predicates.js';

const LIMITS = { maxRadiusMeters: 1000 };

function rejects(fn: () => unknown, code: string, pointer: string): UcpRequestError {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(UcpRequestError);
  expect(caught).toMatchObject({ code, pointer });
  return caught as UcpRequestError;
}

describe('planPredicates', () => {
  it('accepts a radius equal to the cap and rejects anything above, never clamping (R-S4)', () => {
    const center = { latitude: 10, longitude: 20 };
    const plan = planPredicates({ distance: { center, max: 1000 } }, LIMITS);
    expect(plan.distance?.max).toBe(1000);
    expect(plan.distance?.regions.length).toBeGreaterThan(0);
    const err = rejects(() => planPredicates({ distance: { center, max: 1000.0001 } }, LIMITS), 'radius_too_large', '/distance/max');
    expect(err.message).toContain('1000');
  });

  it('rejects unusable distance operands at their pointer', () => {
    rejects(
      () => planPredicates({ distance: { center: { latitude: 91, longitude: 0 }, max: 1 } }, LIMITS),
      'invalid_request',
      '/distance/center',
    );
    rejects(
      () => planPredicates({ distance: { center: { latitude: 0, longitude: 0 }, max: -1 } }, LIMITS),
      'invalid_request',
      '/distance/max',
    );
  });

  it('reads serves.point and serves.address; rejects extension targets and malformed maps (R-S5)', () => {
    expect(planPredicates({ serves: { point: { latitude: 1, longitude: 2 } } }, LIMITS).servesPoint).toEqual({ latitude: 1, longitude: 2 });
    expect(planPredicates({ serves: { address: { address_country: 'US' } } }, LIMITS).servesAddress).toEqual({ address_country: 'US' });
    rejects(
      () => planPredicates({ serves: { 'com.example/zone~1': {} } }, LIMITS),
      'serves_target_unsupported',
      '/serves/com.example~1zone~01',
    );
    rejects(() => planPredicates({ serves: {} }, LIMITS), 'invalid_request', '/serves');
  });

  it('rejects unsupported filters by name instead of ignoring them (R-S1)', () => {
    const err = rejects(
      () => planPredicates({ filters: { 'com.example.tier': 'gold' } }, LIMITS),
      'unsupported_filter',
      '/filters/com.example.tier',
    );
    expect(err.message).toContain('hours, amenities, items');
  });

  it('parses open_at once and rejects instants without offset (R-S6)', () => {
    expect(planPredicates({ filters: { hours: { open_at: '2026-12-01T10:00:00+05:45' } } }, LIMITS).openAtMs).toBe(
      Date.UTC(2026, 11, 1, 4, 15),
    );
    rejects(
      () => planPredicates({ filters: { hours: { open_at: '2026-12-01T10:00:00' } } }, LIMITS),
      'invalid_request',
      '/filters/hours/open_at',
    );
  });

  it('dedupes amenities and items, keeping request order', () => {
    const plan = planPredicates({ filters: { amenities: ['b.x', 'a.x', 'b.x'], items: ['2', '1', '2'] } }, LIMITS);
    expect(plan.amenities).toEqual(['b.x', 'a.x']);
    expect(plan.items).toEqual(['2', '1']);
  });

  it('a request without distance or serves is a bounded browse (R-S2)', () => {
    expect(isBoundedBrowse(planPredicates({ filters: { amenities: ['a.b'] } }, LIMITS))).toBe(true);
    expect(isBoundedBrowse(planPredicates({ serves: { address: { address_country: 'US' } } }, LIMITS))).toBe(false);
  });
});

describe('pointerToken', () => {
  it('escapes ~ and / as RFC 6901 requires', () => {
    expect(pointerToken('a/b~c')).toBe('a~1b~0c');
  });
});
