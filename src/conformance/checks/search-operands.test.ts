import { describe, expect, it } from 'vitest';
import { mcpToolSchemas, validateSearchRequest } from '../../domain/request-validation.js';
import { UcpRequestError } from '../../errors.js';
import { buildPlatformProfile } from '../../client/platform-profile.js';
import { validateProfile } from '../../protocol/profile.js';
import { UCP_VERSION } from '../../protocol/types.js';
import { checkPlatformVersion } from '../../protocol/versions.js';
import { profileForVersion, UNSUPPORTED_PLATFORM_VERSION } from '../platform-profile.js';
import { itemsSupport, SERVES_PROBES } from './search-operands.js';

/** The pointer the release schema reports for `request`, or null when the schema accepts it. */
function schemaPointer(request: unknown): string | null {
  try {
    validateSearchRequest(request);
    return null;
  } catch (error) {
    if (!(error instanceof UcpRequestError)) throw error;
    return error.pointer;
  }
}

describe('SERVES_PROBES (R-S5)', () => {
  it('are invalid by the release schema under /serves, except the un-negotiated extension target', () => {
    for (const probe of SERVES_PROBES) {
      const pointer = schemaPointer({ serves: probe.serves });
      const extension = Object.keys(probe.serves).some((k) => k.includes('.'));
      if (extension)
        expect(pointer, probe.why).toBeNull(); // well-formed: only negotiation makes it an error
      else expect(pointer, probe.why).toMatch(/^\/serves(\/|$)/);
    }
  });
});

describe('itemsSupport (R-S8 applicability)', () => {
  it('finds filters.items in our own search_locations inputSchema through its $refs', () => {
    expect(itemsSupport(mcpToolSchemas().search_locations.inputSchema)).toBe('declared');
  });

  it('is absent only when filters is closed without an items member', () => {
    const closed = {
      type: 'object',
      properties: { location: { $ref: '#/$defs/request' } },
      $defs: {
        request: { allOf: [{ properties: { filters: { $ref: '#/$defs/filters' } } }] },
        filters: { type: 'object', properties: { hours: {} }, additionalProperties: false },
      },
    };
    expect(itemsSupport(closed)).toBe('absent');
    const open = structuredClone(closed);
    delete (open.$defs.filters as Record<string, unknown>)['additionalProperties'];
    expect(itemsSupport(open)).toBe('unknown');
  });

  it('says unknown, without looping, for what it cannot read', () => {
    expect(itemsSupport(undefined)).toBe('unknown');
    expect(itemsSupport({ type: 'object' })).toBe('unknown');
    expect(itemsSupport({ properties: { location: { $ref: '#/$defs/a' } }, $defs: { a: { $ref: '#/$defs/a' } } })).toBe('unknown');
  });
});

describe('profileForVersion (R-G3 probe profile)', () => {
  it('is a valid Platform profile on the old release, with no entity dropped, that the Business refuses', () => {
    const full = buildPlatformProfile();
    const old = profileForVersion(full, UNSUPPORTED_PLATFORM_VERSION);
    const judged = validateProfile(old, 'platform');
    expect(judged.ok).toBe(true);
    expect(judged.rejected).toEqual([]);
    expect(JSON.stringify(old)).not.toContain(UCP_VERSION);
    expect(Object.keys(old.ucp.capabilities ?? {})).toEqual(Object.keys(full.ucp.capabilities ?? {}));
    expect(checkPlatformVersion(old.ucp.version, { version: UCP_VERSION }).ok).toBe(false);
  });
});
