import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHURN_RESERVE_BYTES, RSS_PER_COUNTED_BYTE, TENANT_SERVER_RESIDENT_BYTES, tenantCost, tenantsShare } from './memory-cost.js';

describe('what a tenant costs against --index-memory (#34)', () => {
  it('counts the index and the server, scaled by the RSS measured per counted byte', () => {
    expect(tenantCost(0)).toBe(Math.round(TENANT_SERVER_RESIDENT_BYTES * RSS_PER_COUNTED_BYTE));
    fc.assert(
      fc.property(fc.nat(2 ** 30), fc.nat(2 ** 30), (a, b) => {
        expect(tenantCost(a)).toBeGreaterThan(a);
        if (a <= b) expect(tenantCost(a)).toBeLessThanOrEqual(tenantCost(b));
      }),
    );
  });

  it('sets aside the churn reserve, never more than a quarter of the budget (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 40 }), (budget) => {
        const share = tenantsShare(budget);
        expect(share).toBeGreaterThanOrEqual(Math.floor((budget * 3) / 4));
        expect(share).toBeGreaterThanOrEqual(budget - CHURN_RESERVE_BYTES);
        expect(share).toBeLessThanOrEqual(budget);
      }),
    );
  });
});
