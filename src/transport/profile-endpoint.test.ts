import { describe, expect, it } from 'vitest';
import { validateProfile } from '../protocol/profile.js';
import { LOOKUP_CAPABILITY, SEARCH_CAPABILITY, UCP_VERSION } from '../protocol/types.js';
import { buildBusinessProfile } from './business-profile.js';
import { ifNoneMatchHits, prepareProfile } from './profile-endpoint.js';

describe('buildBusinessProfile (R-D1…R-D4)', () => {
  const profile = buildBusinessProfile('https://business.example.com', [SEARCH_CAPABILITY, LOOKUP_CAPABILITY]);

  it('is a valid business profile with nothing rejected', () => {
    const result = validateProfile(profile, 'business');
    expect(result.errors).toEqual([]);
    expect(result.rejected).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it('advertises MCP at <base>/ucp/mcp and REST at <base>/ucp, every entry at the profile version', () => {
    const services = profile.ucp.services['dev.ucp.common'] ?? [];
    expect(services.map((s) => [s.transport, s.endpoint])).toEqual([
      ['mcp', 'https://business.example.com/ucp/mcp'],
      ['rest', 'https://business.example.com/ucp'],
    ]);
    expect(profile.ucp.payment_handlers).toEqual({});
    const versions = [...services, ...Object.values(profile.ucp.capabilities ?? {}).flat()].map((e) => e.version);
    expect(new Set(versions)).toEqual(new Set([UCP_VERSION]));
  });

  it('uses the seed 000 spec and schema URLs for the capabilities', () => {
    expect(profile.ucp.capabilities).toEqual({
      [SEARCH_CAPABILITY]: [
        {
          version: '2026-08-25',
          spec: 'https://ucp.dev/2026-08-25/specification/common/location/search',
          schema: 'https://ucp.dev/2026-08-25/schemas/common/location_search.json',
        },
      ],
      [LOOKUP_CAPABILITY]: [
        {
          version: '2026-08-25',
          spec: 'https://ucp.dev/2026-08-25/specification/common/location/lookup',
          schema: 'https://ucp.dev/2026-08-25/schemas/common/location_lookup.json',
        },
      ],
    });
  });

  it('lists only the adopted capabilities, in a fixed order (R-D3)', () => {
    expect(Object.keys(buildBusinessProfile('https://b.example', [LOOKUP_CAPABILITY]).ucp.capabilities ?? {})).toEqual([LOOKUP_CAPABILITY]);
    const a = prepareProfile(buildBusinessProfile('https://b.example', [LOOKUP_CAPABILITY, SEARCH_CAPABILITY]));
    const b = prepareProfile(buildBusinessProfile('https://b.example', [SEARCH_CAPABILITY, LOOKUP_CAPABILITY]));
    expect(a.etag).toBe(b.etag);
  });
});

describe('ifNoneMatchHits (R-D5 validators)', () => {
  const etag = '"abc"';
  it('matches the same tag, weakly, in a list, and *', () => {
    expect(ifNoneMatchHits('"abc"', etag)).toBe(true);
    expect(ifNoneMatchHits('W/"abc"', etag)).toBe(true);
    expect(ifNoneMatchHits('"x", "abc"', etag)).toBe(true);
    expect(ifNoneMatchHits('*', etag)).toBe(true);
  });
  it('does not match another tag or an absent header', () => {
    expect(ifNoneMatchHits('"abd"', etag)).toBe(false);
    expect(ifNoneMatchHits(undefined, etag)).toBe(false);
  });
});
