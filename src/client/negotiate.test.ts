import { describe, expect, it } from 'vitest';
import { validateProfile } from '../protocol/profile.js';
import { LOOKUP_CAPABILITY, SEARCH_CAPABILITY, UCP_VERSION, type UcpProfile } from '../protocol/types.js';
import { buildBusinessProfile } from '../transport/business-profile.js';
import { CapabilitiesIncompatibleError, ProfileError } from './errors.js';
import { decideNegotiation, operationSchemas, operationUnavailable, serviceBindingFailure } from './negotiate.js';
import { buildPlatformProfile } from './platform-profile.js';

const EXTENSION = 'com.example.common.location.parking_fee';

function decide(businessRaw: unknown, platformRaw: unknown = buildPlatformProfile()) {
  const business = validateProfile(businessRaw, 'business');
  const platform = validateProfile(platformRaw, 'platform');
  if (!business.ok || !platform.ok) throw new Error('fixture profiles must validate');
  return decideNegotiation({
    businessRaw,
    business: business.profile,
    businessRejected: business.rejected,
    platformRaw,
    platform: platform.profile,
    platformRejected: platform.rejected,
    version: UCP_VERSION,
  });
}

function business(): UcpProfile {
  return buildBusinessProfile('https://shop.example', [SEARCH_CAPABILITY, LOOKUP_CAPABILITY]);
}

function withSchema(profile: UcpProfile, name: string, schema: string): UcpProfile {
  const copy = structuredClone(profile);
  const entries = copy.ucp.capabilities?.[name];
  if (entries?.[0] === undefined) throw new Error(`no ${name} in fixture`);
  entries[0].schema = schema;
  return copy;
}

describe('decideNegotiation', () => {
  it('activates search and lookup and reports every entity as bound (R-G4, R-N2)', () => {
    const d = decide(business());
    expect(Object.keys(d.active).sort()).toEqual([LOOKUP_CAPABILITY, SEARCH_CAPABILITY]);
    expect(d.rejected).toEqual([]);
    const search = d.entities.find((e) => e.source === 'business' && e.name === SEARCH_CAPABILITY);
    expect(search).toMatchObject({ accepted: true, binding: { ok: true, kind: 'prefix' }, version: UCP_VERSION });
    expect(d.entities.filter((e) => e.source === 'platform')).toHaveLength(4);
    expect(d.transports).toEqual([
      { transport: 'mcp', endpoint: 'https://shop.example/ucp/mcp' },
      { transport: 'rest', endpoint: 'https://shop.example/ucp' },
    ]);
  });

  it('rejects a capability whose schema host does not own the name, and says so (R-N2, R-N3)', () => {
    const d = decide(withSchema(business(), SEARCH_CAPABILITY, 'https://evil.example/schemas/location_search.json'));
    expect(Object.keys(d.active)).toEqual([LOOKUP_CAPABILITY]);
    expect(d.rejected).toHaveLength(1);
    expect(d.rejected[0]).toMatchObject({ source: 'business', name: SEARCH_CAPABILITY, bindingFailed: true });
    const verdict = d.entities.find((e) => e.name === SEARCH_CAPABILITY && e.source === 'business');
    expect(verdict?.accepted).toBe(false);
    expect(verdict?.binding).toMatchObject({ ok: false });
    const unavailable = operationUnavailable(d, 'search');
    expect(unavailable).toBeInstanceOf(ProfileError);
    expect(unavailable?.code).toBe('binding_failed');
    expect(unavailable?.message).toContain('evil.example');
    expect(operationUnavailable(d, 'lookup')).toBeUndefined();
  });

  it('fails with binding_failed when every Location capability lost its binding (R-N3)', () => {
    let p = withSchema(business(), SEARCH_CAPABILITY, 'https://evil.example/s.json');
    p = withSchema(p, LOOKUP_CAPABILITY, 'https://ucp.dev@evil.example/l.json');
    expect(() => decide(p)).toThrow(expect.objectContaining({ code: 'binding_failed' }));
  });

  it('fails with capabilities_incompatible when the platform lists neither capability (R-G4)', () => {
    const platform = buildPlatformProfile({ capabilities: [] });
    let error: unknown;
    try {
      decide(business(), platform);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CapabilitiesIncompatibleError);
    const incompatible = error as CapabilitiesIncompatibleError;
    expect(incompatible.dropped.map((d) => d.reason)).toEqual(['not_offered_by_platform', 'not_offered_by_platform']);
    expect(incompatible.message).toContain('platform-profile init');
  });

  it('keeps only the transports the platform declares, MCP first', () => {
    expect(decide(business(), buildPlatformProfile({ transports: ['rest'] })).transports.map((t) => t.transport)).toEqual(['rest']);
    const noService = buildPlatformProfile();
    noService.ucp.services = {};
    expect(decide(business(), noService).transports.map((t) => t.transport)).toEqual(['mcp', 'rest']);
  });
});

describe('operationSchemas', () => {
  it('composes the root with the active extensions of that operation only (R-G6)', () => {
    const b = business();
    const ext = {
      version: '2026-09-01',
      schema: 'https://example.com/ucp/parking_fee.json',
      spec: 'https://example.com/ucp/parking_fee',
      extends: SEARCH_CAPABILITY,
    };
    b.ucp.capabilities = { ...b.ucp.capabilities, [EXTENSION]: [ext] };
    const platform = buildPlatformProfile();
    platform.ucp.capabilities = { ...platform.ucp.capabilities, [EXTENSION]: [ext] };
    const d = decide(b, platform);
    expect(operationSchemas(d, 'search')).toEqual({
      root: { name: SEARCH_CAPABILITY, schema: `https://ucp.dev/${UCP_VERSION}/schemas/common/location_search.json` },
      extensions: [{ name: EXTENSION, schemaUrl: ext.schema }],
    });
    expect(operationSchemas(d, 'lookup')?.extensions).toEqual([]);
  });
});

describe('serviceBindingFailure', () => {
  it('blames binding when every dev.ucp.common entry was rejected for it (R-N3)', () => {
    const b = business();
    for (const s of b.ucp.services['dev.ucp.common'] ?? []) s.schema = 'https://services.evil.example/openrpc.json';
    const d = decide(b);
    expect(d.transports).toEqual([]);
    expect(serviceBindingFailure(d)?.code).toBe('binding_failed');
    expect(serviceBindingFailure(decide(business()))).toBeUndefined();
  });
});
