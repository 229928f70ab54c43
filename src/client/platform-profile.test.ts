import { describe, expect, it } from 'vitest';
import { checkAuthorityBinding } from '../protocol/authority.js';
import { validateProfile } from '../protocol/profile.js';
import { LOOKUP_CAPABILITY, SEARCH_CAPABILITY, UCP_VERSION } from '../protocol/types.js';
import { buildPlatformProfile } from './platform-profile.js';

describe('buildPlatformProfile', () => {
  it('is a valid platform profile with nothing rejected (R-D1, R-D4, R-N2)', () => {
    const result = validateProfile(buildPlatformProfile(), 'platform');
    expect(result.ok).toBe(true);
    expect(result.rejected).toEqual([]);
  });

  it('declares search and lookup at the release, bound to ucp.dev (R-N2)', () => {
    const profile = buildPlatformProfile();
    expect(profile.ucp.version).toBe(UCP_VERSION);
    expect(profile.ucp.payment_handlers).toEqual({});
    for (const name of [SEARCH_CAPABILITY, LOOKUP_CAPABILITY]) {
      const entry = profile.ucp.capabilities?.[name]?.[0];
      expect(entry?.version).toBe(UCP_VERSION);
      expect(checkAuthorityBinding(name, entry?.schema ?? '').ok).toBe(true);
    }
    expect(profile.ucp.services['dev.ucp.common']?.map((s) => s.transport)).toEqual(['mcp', 'rest']);
  });

  it('declares only the transports and capabilities asked for', () => {
    const profile = buildPlatformProfile({ transports: ['rest'], capabilities: [LOOKUP_CAPABILITY] });
    expect(profile.ucp.services['dev.ucp.common']?.map((s) => s.transport)).toEqual(['rest']);
    expect(Object.keys(profile.ucp.capabilities ?? {})).toEqual([LOOKUP_CAPABILITY]);
    expect(validateProfile(profile, 'platform').ok).toBe(true);
  });
});
