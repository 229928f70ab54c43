import { describe, expect, it } from 'vitest';
import { buyerLocality, LOCALITY_TIER, localityTier, savedLocationRef } from './context-rank.js';

describe('buyerLocality / localityTier (R-C2)', () => {
  it('reads context locality in the forms buyers write', () => {
    expect(buyerLocality({ address_country: 'us', address_region: 'California', postal_code: '94043-1351' })).toEqual({
      country: 'US',
      region: 'CA',
      postal: '94043',
    });
    expect(buyerLocality({ address_country: 'Deutschland', address_region: 'Bayern' })).toEqual({ country: 'DE', region: 'BY' });
  });

  it('ignores what it cannot read instead of failing (R-C2)', () => {
    expect(buyerLocality(undefined)).toBeNull();
    expect(buyerLocality({ address_country: 'XX', postal_code: '94043' })).toBeNull();
    expect(buyerLocality({ address_country: 42 })).toBeNull();
    expect(buyerLocality({ postal_code: '94043' })).toBeNull();
    expect(buyerLocality({ address_country: 'US', address_region: 'Narnia', postal_code: ['x'] })).toEqual({ country: 'US' });
    expect(savedLocationRef({ location: 7 })).toBeNull();
    expect(savedLocationRef({ location: ' loc_1 ' })).toBe('loc_1');
  });

  it('same postal code > same region > same country > elsewhere, by the Location address', () => {
    const buyer = { country: 'US', region: 'CA', postal: '94043' };
    expect(localityTier(buyer, { address_country: 'US', address_region: 'CA', postal_code: '94043-0001' })).toBe(
      LOCALITY_TIER.samePostalCode,
    );
    expect(localityTier(buyer, { address_country: 'us', address_region: 'California', postal_code: '94103' })).toBe(
      LOCALITY_TIER.sameRegion,
    );
    expect(localityTier(buyer, { address_country: 'US', address_region: 'NY', postal_code: '10005' })).toBe(LOCALITY_TIER.sameCountry);
    expect(localityTier(buyer, { address_country: 'GB', postal_code: '94043' })).toBe(LOCALITY_TIER.elsewhere);
    expect(localityTier(buyer, undefined)).toBe(LOCALITY_TIER.elsewhere);
    expect(LOCALITY_TIER.savedLocation).toBeLessThan(LOCALITY_TIER.samePostalCode);
  });
});
