import { describe, expect, it } from 'vitest';
import { UcpNegotiationError } from '../errors.js';
import type { CapabilityEntity, UcpProfile } from '../protocol/types.js';
import { LOOKUP_CAPABILITY, SEARCH_CAPABILITY } from '../protocol/types.js';
import { buildBusinessProfile } from './business-profile.js';
import { validateProfile } from '../protocol/profile.js';
import { decide, ProfileNegotiator } from './negotiate-request.js';

const V = '2026-08-25';
const business = buildBusinessProfile('https://business.example', [SEARCH_CAPABILITY, LOOKUP_CAPABILITY]);

function platform(capabilities: Record<string, CapabilityEntity[]>, version = V): UcpProfile {
  return { ucp: { version, services: {}, capabilities, payment_handlers: {} } };
}

const entry = (name: string, version = V, extra: Partial<CapabilityEntity> = {}): Record<string, CapabilityEntity[]> => ({
  [name]: [{ version, spec: 'https://ucp.dev/spec', schema: 'https://ucp.dev/schema.json', ...extra }],
});

describe('decide (R-G3, R-G4, R-G6)', () => {
  it('answers with only the operation capability in ucp.capabilities', () => {
    const p = platform({ ...entry(SEARCH_CAPABILITY), ...entry(LOOKUP_CAPABILITY) });
    expect(decide(business, p, SEARCH_CAPABILITY)).toEqual({
      compatible: true,
      ucp: { version: V, capabilities: { [SEARCH_CAPABILITY]: [{ version: V }] } },
    });
    expect(decide(business, p, LOOKUP_CAPABILITY)).toEqual({
      compatible: true,
      ucp: { version: V, capabilities: { [LOOKUP_CAPABILITY]: [{ version: V }] } },
    });
  });

  it('keeps an extension of the operation capability and leaves the other operation out', () => {
    const ext = 'com.business.location.search.pickup';
    const withExt: UcpProfile = structuredClone(business);
    (withExt.ucp.capabilities ??= {})[ext] = [{ version: V, schema: 'https://business.com/x.json', extends: SEARCH_CAPABILITY }];
    const p = platform({ ...entry(SEARCH_CAPABILITY), ...entry(LOOKUP_CAPABILITY), ...entry(ext, V, { extends: SEARCH_CAPABILITY }) });
    const search = decide(withExt, p, SEARCH_CAPABILITY);
    expect(search.compatible && Object.keys(search.ucp.capabilities ?? {})).toEqual([SEARCH_CAPABILITY, ext]);
    const lookup = decide(withExt, p, LOOKUP_CAPABILITY);
    expect(lookup.compatible && Object.keys(lookup.ucp.capabilities ?? {})).toEqual([LOOKUP_CAPABILITY]);
  });

  it('returns capabilities_incompatible as an error_response when the intersection lacks the capability (R-G5)', () => {
    const outcome = decide(business, platform(entry(LOOKUP_CAPABILITY)), SEARCH_CAPABILITY);
    expect(outcome.compatible).toBe(false);
    if (outcome.compatible) return;
    expect(outcome.response.ucp).toEqual({ version: V, status: 'error' });
    expect(outcome.response.messages).toHaveLength(1);
    expect(outcome.response.messages[0]).toMatchObject({ type: 'error', code: 'capabilities_incompatible', severity: 'unrecoverable' });
    expect(outcome.response.messages[0].content).toContain(SEARCH_CAPABILITY);
  });

  it('treats a capability without a mutual version as absent', () => {
    expect(decide(business, platform(entry(SEARCH_CAPABILITY, '2026-01-11')), SEARCH_CAPABILITY).compatible).toBe(false);
  });

  it('throws version_unsupported when the platform speaks another release', () => {
    const err = (() => {
      try {
        decide(business, platform(entry(SEARCH_CAPABILITY), '2026-01-11'), SEARCH_CAPABILITY);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(UcpNegotiationError);
    expect((err as UcpNegotiationError).code).toBe('version_unsupported');
  });
});

describe('ProfileNegotiator', () => {
  it('resolves the profile on every request but decides once per resolved profile object', async () => {
    const p = platform(entry(SEARCH_CAPABILITY));
    const urls: string[] = [];
    const negotiator = new ProfileNegotiator({ resolve: (url) => (urls.push(url), Promise.resolve(p)) }, business);
    const a = await negotiator.negotiate('https://p.example/a.json', SEARCH_CAPABILITY);
    const b = await negotiator.negotiate('https://p.example/a.json', SEARCH_CAPABILITY);
    expect(urls).toHaveLength(2);
    expect(b).toBe(a);
  });

  it('passes discovery failures through unchanged', async () => {
    const failure = new UcpNegotiationError('profile_unreachable', 'down');
    const negotiator = new ProfileNegotiator({ resolve: () => Promise.reject(failure) }, business);
    await expect(negotiator.negotiate('https://p.example/a.json', SEARCH_CAPABILITY)).rejects.toBe(failure);
  });
});

describe('capabilities_incompatible says why each capability was dropped', () => {
  const content = (outcome: ReturnType<typeof decide>): string => (outcome.compatible ? '' : (outcome.response.messages[0]?.content ?? ''));

  it('a capability the platform lists but whose entry failed validation (authority binding, version) is reported with that reason, not as unlisted (fails before: "does not list")', () => {
    const document = platform({
      ...entry(SEARCH_CAPABILITY, V, { spec: 'https://evil.example/spec', schema: 'https://evil.example/schema.json' }),
      ...entry(LOOKUP_CAPABILITY, '2026-01-11'),
    });
    const validation = validateProfile(document, 'platform');
    if (!validation.ok) throw new Error('the document itself must be valid');
    expect(validation.rejected.map((r) => r.name)).toEqual([SEARCH_CAPABILITY, LOOKUP_CAPABILITY]);
    const text = content(decide(business, validation.profile, SEARCH_CAPABILITY, validation.rejected));
    expect(text).toContain(`the platform profile lists ${SEARCH_CAPABILITY}, but its entry was dropped: /ucp/capabilities/`);
    expect(text).toContain(validation.rejected[0]?.reason ?? '?');
    expect(text).not.toContain('does not list');
    expect(text).toContain('authority binding failed');
    // Every other dropped capability is named with its own reason (here: a version that is not the profile's).
    expect(text).toContain(
      `Also dropped: ${LOOKUP_CAPABILITY} (the platform profile lists ${LOOKUP_CAPABILITY}, but its entry was dropped`,
    );
    expect(text).toContain('declares version "2026-01-11"');
  });

  it('ProfileNegotiator hands the resolver’s rejected entries to the decision', async () => {
    const rejected = [
      { pointer: '/ucp/capabilities/x/0', registry: 'capabilities' as const, name: SEARCH_CAPABILITY, index: 0, reason: 'bad' },
    ];
    const p = platform(entry(LOOKUP_CAPABILITY));
    const negotiator = new ProfileNegotiator(
      { resolve: () => Promise.resolve(p), resolveWithReport: () => Promise.resolve({ profile: p, rejected }) },
      business,
    );
    const outcome = await negotiator.negotiate('https://p.example/a.json', SEARCH_CAPABILITY);
    expect(content(outcome)).toContain('its entry was dropped: /ucp/capabilities/x/0: bad');
  });
});
