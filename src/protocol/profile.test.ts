import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateProfile } from './profile.js';
import type { ProfileValidation, RejectedEntity } from './profile.js';

const V = '2026-08-25';
const SEARCH = 'dev.ucp.common.location.search';
const LOOKUP = 'dev.ucp.common.location.lookup';

type Json = Record<string, unknown>;

/** The Business profile this package advertises (R-D1..R-D3). */
function businessProfile(): Json {
  return {
    ucp: {
      version: V,
      services: {
        'dev.ucp.common': [
          {
            version: V,
            spec: `https://ucp.dev/${V}/specification/overview`,
            transport: 'mcp',
            schema: `https://ucp.dev/${V}/services/common/mcp.openrpc.json`,
            endpoint: 'https://business.example.com/ucp/mcp',
          },
          {
            version: V,
            spec: `https://ucp.dev/${V}/specification/overview`,
            transport: 'rest',
            schema: `https://ucp.dev/${V}/services/common/rest.openapi.json`,
            endpoint: 'https://business.example.com/ucp',
          },
        ],
      },
      capabilities: {
        [SEARCH]: [
          {
            version: V,
            spec: `https://ucp.dev/${V}/specification/common/location/search`,
            schema: `https://ucp.dev/${V}/schemas/common/location_search.json`,
          },
        ],
        [LOOKUP]: [
          {
            version: V,
            spec: `https://ucp.dev/${V}/specification/common/location/lookup`,
            schema: `https://ucp.dev/${V}/schemas/common/location_lookup.json`,
          },
        ],
      },
      payment_handlers: {},
    },
  };
}

function platformProfile(): Json {
  return {
    ucp: {
      version: V,
      services: {
        'dev.ucp.common': [
          {
            version: V,
            spec: `https://ucp.dev/${V}/specification/overview`,
            transport: 'mcp',
            schema: `https://ucp.dev/${V}/services/common/mcp.openrpc.json`,
          },
        ],
      },
      capabilities: {
        [SEARCH]: [
          {
            version: V,
            spec: `https://ucp.dev/${V}/specification/common/location/search`,
            schema: `https://ucp.dev/${V}/schemas/common/location_search.json`,
          },
        ],
      },
      payment_handlers: {
        'com.example.pay': [
          { id: 'pay_1', version: '2024-12-03', spec: 'https://docs.example.org/pay', schema: 'https://pay.example.com/schema.json' },
        ],
      },
    },
    keys: [{ kid: 'platform_2026', kty: 'EC', crv: 'P-256', x: 'MKBC', y: '4Etl', use: 'sig', alg: 'ES256' }],
  };
}

function ucpOf(doc: Json): Json {
  return doc.ucp as Json;
}

function registry(doc: Json, name: 'services' | 'capabilities' | 'payment_handlers'): Record<string, Json[]> {
  return ucpOf(doc)[name] as Record<string, Json[]>;
}

function expectOk(r: ProfileValidation): Json {
  if (!r.ok) throw new Error(`expected ok, got ${JSON.stringify(r.errors)}`);
  return r.profile;
}

function expectMalformed(r: ProfileValidation): { pointer: string; message: string }[] {
  expect(r.ok).toBe(false);
  expect(r.errors.length).toBeGreaterThan(0);
  return r.errors;
}

/** Validates a profile expected to survive, returning its single rejection. */
function onlyRejection(doc: Json, role: 'business' | 'platform', opts = {}): RejectedEntity {
  const r = validateProfile(doc, role, opts);
  expectOk(r);
  expect(r.rejected).toHaveLength(1);
  return r.rejected[0] as RejectedEntity;
}

describe('validateProfile: well-formed profiles (R-D1, R-D2, R-D3)', () => {
  it('accepts the Business profile this package advertises, unchanged', () => {
    const doc = businessProfile();
    const r = validateProfile(doc, 'business');
    expect(r.errors).toEqual([]);
    expect(r.rejected).toEqual([]);
    expect(expectOk(r)).toEqual(doc);
  });

  it('accepts a Platform profile with keys and a third-party payment handler', () => {
    const doc = platformProfile();
    const r = validateProfile(doc, 'platform');
    expect(r.rejected).toEqual([]);
    expect(expectOk(r)).toEqual(doc);
  });

  it('returns a deep copy and never mutates its input', () => {
    const doc = businessProfile();
    registry(doc, 'capabilities')[SEARCH]?.push({ version: V, schema: 'https://evil.example/x.json' });
    const before = structuredClone(doc);
    const out = expectOk(validateProfile(doc, 'business'));
    expect(doc).toEqual(before);
    expect(out).not.toBe(doc);
    expect(registry(out, 'capabilities')[SEARCH]).not.toBe(registry(doc, 'capabilities')[SEARCH]);
  });

  it('accepts a profile without capabilities and keeps it without them', () => {
    const doc = { ucp: { version: V, services: {}, payment_handlers: {} } };
    const out = expectOk(validateProfile(doc, 'platform'));
    expect(ucpOf(out)).not.toHaveProperty('capabilities');
  });

  it('keeps unknown members of open objects', () => {
    const doc = businessProfile();
    doc.signing_note = 'x';
    ucpOf(doc).vendor_extra = { a: 1 };
    const out = expectOk(validateProfile(doc, 'business'));
    expect(out.signing_note).toBe('x');
    expect(ucpOf(out).vendor_extra).toEqual({ a: 1 });
  });
});

describe('validateProfile: structural failures make the profile malformed (R-D1)', () => {
  it.each([
    ['null', null],
    ['an array', []],
    ['a string', 'ucp'],
  ])('rejects a document that is %s', (_why, doc) => {
    expectMalformed(validateProfile(doc, 'business'));
  });

  it('rejects a document without ucp, pointing at /ucp', () => {
    expect(expectMalformed(validateProfile({}, 'platform'))).toContainEqual({
      pointer: '/ucp',
      message: 'required member "ucp" is missing',
    });
  });

  it('reports every envelope problem with its pointer', () => {
    const errors = expectMalformed(validateProfile({ ucp: { version: 'draft', services: [], capabilities: { x: {} } } }, 'platform'));
    const pointers = errors.map((e) => e.pointer);
    expect(pointers).toEqual(expect.arrayContaining(['/ucp/version', '/ucp/services', '/ucp/payment_handlers', '/ucp/capabilities/x']));
    expect(errors.find((e) => e.pointer === '/ucp/version')?.message).toMatch(/YYYY-MM-DD.*"draft"/);
    expect(errors.find((e) => e.pointer === '/ucp/services')?.message).toMatch(/must be an object \(got an array\)/);
    expect(errors.find((e) => e.pointer === '/ucp/capabilities/x')?.message).toMatch(/must be an array/);
  });

  it.each(['2026-8-25', '26-08-25', '2026-08-25T00:00:00Z', ''])('rejects the non-release version %j', (version) => {
    const doc = businessProfile();
    ucpOf(doc).version = version;
    expect(expectMalformed(validateProfile(doc, 'business'))[0]?.pointer).toBe('/ucp/version');
  });

  it.each(['services', 'payment_handlers'])('requires %s even when empty', (member) => {
    const doc = businessProfile();
    delete ucpOf(doc)[member];
    expect(expectMalformed(validateProfile(doc, 'business'))).toContainEqual({
      pointer: `/ucp/${member}`,
      message: `required member "${member}" is missing`,
    });
  });

  it('rejects a status outside success/error', () => {
    const doc = businessProfile();
    ucpOf(doc).status = 'ok';
    expect(expectMalformed(validateProfile(doc, 'business'))[0]?.pointer).toBe('/ucp/status');
  });

  it('refuses a key carrying private members', () => {
    const doc = platformProfile();
    (doc.keys as Json[]).push({ kid: 'k2', kty: 'OKP', crv: 'Ed25519', x: 'abc', d: 'secret', alg: 'EdDSA' });
    const errors = expectMalformed(validateProfile(doc, 'platform'));
    expect(errors).toContainEqual({ pointer: '/keys/1', message: expect.stringMatching(/private key members/) });
  });

  it('checks key members by key type and curve', () => {
    const doc = platformProfile();
    doc.keys = [
      { kid: 'a', kty: 'EC', crv: 'P-256', x: 'x', alg: 'ES256' },
      { kid: 'b', kty: 'OKP', crv: 'Ed25519', x: 'x', alg: 'ES256' },
    ];
    const errors = expectMalformed(validateProfile(doc, 'platform'));
    expect(errors).toContainEqual({ pointer: '/keys/0/y', message: 'required member "y" is missing' });
    expect(errors).toContainEqual({ pointer: '/keys/1/alg', message: expect.stringMatching(/must be "EdDSA"/) });
  });
});

describe('validateProfile: supported_versions and leaf profiles (R-D6)', () => {
  it('accepts supported_versions mapping older releases to https profile URIs', () => {
    const doc = businessProfile();
    ucpOf(doc).supported_versions = { '2026-01-11': 'https://business.example.com/.well-known/ucp/2026-01-11' };
    expectOk(validateProfile(doc, 'business'));
  });

  it('rejects a leaf profile that carries supported_versions', () => {
    const doc = businessProfile();
    ucpOf(doc).supported_versions = { '2026-01-11': 'https://business.example.com/.well-known/ucp/2026-01-11' };
    const errors = expectMalformed(validateProfile(doc, 'business', { leaf: true }));
    expect(errors).toEqual([{ pointer: '/ucp/supported_versions', message: expect.stringMatching(/leaf/) }]);
  });

  it('accepts a leaf profile without supported_versions', () => {
    expectOk(validateProfile(businessProfile(), 'business', { leaf: true }));
  });

  it('rejects non-date keys and non-https profile URIs', () => {
    const doc = businessProfile();
    ucpOf(doc).supported_versions = { draft: 'https://b.example.com/draft', '2026-01-11': 'http://b.example.com/old' };
    const pointers = expectMalformed(validateProfile(doc, 'business')).map((e) => e.pointer);
    expect(pointers).toContain('/ucp/supported_versions');
    // The schema error masks the https check; fix the key and the URI problem shows.
    ucpOf(doc).supported_versions = { '2026-01-11': 'http://b.example.com/old' };
    expect(expectMalformed(validateProfile(doc, 'business'))).toEqual([
      { pointer: '/ucp/supported_versions/2026-01-11', message: expect.stringMatching(/must use https/) },
    ]);
  });

  it('accepts a loopback http profile URI only in development mode', () => {
    const doc = businessProfile();
    ucpOf(doc).supported_versions = { '2026-01-11': 'http://127.0.0.1:8080/.well-known/ucp/2026-01-11' };
    expect(validateProfile(doc, 'business').ok).toBe(false);
    expect(validateProfile(doc, 'business', { allowLoopbackHttp: true }).ok).toBe(true);
  });
});

describe('validateProfile: entities failing authority binding are dropped, not the profile (R-N2, R-N3)', () => {
  it('drops a capability whose schema host does not own its name and keeps the rest', () => {
    const doc = businessProfile();
    registry(doc, 'capabilities')[LOOKUP] = [{ version: V, schema: 'https://evil.example/location_lookup.json' }];
    const r = validateProfile(doc, 'business');
    const out = expectOk(r);
    expect(r.rejected).toEqual([
      {
        pointer: `/ucp/capabilities/${LOOKUP}/0`,
        registry: 'capabilities',
        name: LOOKUP,
        index: 0,
        reason: expect.stringMatching(/authority binding failed.*evil\.example/),
      },
    ]);
    expect(Object.keys(registry(out, 'capabilities'))).toEqual([SEARCH]);
  });

  it('sees through the userinfo trick', () => {
    const doc = platformProfile();
    registry(doc, 'capabilities')[SEARCH] = [{ version: V, spec: 'https://ucp.dev/s', schema: 'https://ucp.dev@evil.example/x.json' }];
    expect(onlyRejection(doc, 'platform').reason).toMatch(/userinfo/);
  });

  it('drops only the failing entry of a multi-entry array and reports its index', () => {
    const doc = platformProfile();
    const name = 'com.example.shopping.loyalty';
    registry(doc, 'capabilities')[name] = [
      { version: '2026-01-01', spec: 'https://docs.example.org/l', schema: 'https://example.com/l1.json', extends: SEARCH },
      { version: '2026-06-01', spec: 'https://docs.example.org/l', schema: 'https://cdn.example.net/l2.json', extends: SEARCH },
      { version: '2026-07-01', spec: 'https://docs.example.org/l', schema: 'https://shopping.example.com/l3.json', extends: SEARCH },
    ];
    const r = validateProfile(doc, 'platform');
    const out = expectOk(r);
    expect(r.rejected.map((x) => [x.index, x.pointer])).toEqual([[1, `/ucp/capabilities/${name}/1`]]);
    expect(registry(out, 'capabilities')[name]?.map((e) => e.version)).toEqual(['2026-01-01', '2026-07-01']);
  });

  it('binds payment handlers too (exact match on the handler host)', () => {
    const doc = platformProfile();
    registry(doc, 'payment_handlers')['com.example.pay'] = [
      { id: 'a', version: '2025-01-01', spec: 'https://docs.example.org/p', schema: 'https://cdn.example.com/p.json' },
    ];
    expect(onlyRejection(doc, 'platform').reason).toMatch(/authority binding failed/);
  });

  it('does not bind spec URLs to the authority but requires https', () => {
    const doc = platformProfile();
    registry(doc, 'capabilities')[SEARCH] = [{ version: V, spec: 'https://docs.thirdparty.org/x', schema: `https://ucp.dev/${V}/s.json` }];
    expect(validateProfile(doc, 'platform').rejected).toEqual([]);
    registry(doc, 'capabilities')[SEARCH] = [{ version: V, spec: 'http://ucp.dev/x', schema: `https://ucp.dev/${V}/s.json` }];
    expect(onlyRejection(doc, 'platform').reason).toMatch(/spec URL .* must use https/);
  });
});

describe('validateProfile: naming convention and reserved namespace (R-N1, R-D4)', () => {
  it('drops a service whose name lacks the service label', () => {
    const doc = businessProfile();
    registry(doc, 'services')['com.example'] = [{ version: '2026-01-01', transport: 'rest', endpoint: 'https://example.com/api' }];
    const rej = onlyRejection(doc, 'business');
    expect(rej).toMatchObject({ registry: 'services', name: 'com.example', index: 0 });
    expect(rej.reason).toMatch(/\{reverse-domain\}\.\{service\}/);
  });

  it('drops a capability registered under a service-shaped name', () => {
    const doc = businessProfile();
    registry(doc, 'capabilities')['dev.ucp.common'] = [{ version: V, schema: 'https://ucp.dev/x.json' }];
    expect(onlyRejection(doc, 'business').reason).toMatch(/\{reverse-domain\}\.\{service\}\.\{capability\}/);
  });

  it('drops names that are not reverse-domain, escaping them in the pointer', () => {
    const doc = businessProfile();
    registry(doc, 'capabilities')['Com.Example/x~y'] = [{ version: V, schema: 'https://example.com/x.json' }];
    const rej = onlyRejection(doc, 'business');
    expect(rej.pointer).toBe('/ucp/capabilities/Com.Example~1x~0y/0');
    expect(rej.reason).toMatch(/not a reverse-domain name/);
  });

  it('reports a malformed key with an empty array as index -1', () => {
    const doc = businessProfile();
    registry(doc, 'capabilities').BAD = [];
    expect(onlyRejection(doc, 'business')).toMatchObject({ name: 'BAD', index: -1, pointer: '/ucp/capabilities/BAD' });
  });

  it('keeps a well-named empty array (it advertises nothing)', () => {
    const doc = businessProfile();
    registry(doc, 'capabilities')['com.example.shopping.loyalty'] = [];
    const r = validateProfile(doc, 'business');
    expect(r.rejected).toEqual([]);
    expect(registry(expectOk(r), 'capabilities')['com.example.shopping.loyalty']).toEqual([]);
  });

  it('treats a __proto__ key as plain (rejected) data, never as a prototype', () => {
    const doc = JSON.parse(
      `{"ucp":{"version":"${V}","services":{},"payment_handlers":{},"capabilities":{"__proto__":[{"version":"${V}","schema":"https://ucp.dev/x.json"}]}}}`,
    ) as Json;
    const r = validateProfile(doc, 'business');
    const out = expectOk(r);
    expect(r.rejected).toHaveLength(1);
    expect(Object.getPrototypeOf(registry(out, 'capabilities'))).toBe(Object.prototype);
    expect(({} as Json).version).toBeUndefined();
  });

  it('drops a dev.ucp.* entry whose version differs from ucp.version (R-D4)', () => {
    const doc = businessProfile();
    registry(doc, 'capabilities')[SEARCH] = [{ version: '2026-01-11', schema: 'https://ucp.dev/2026-01-11/s.json' }];
    const rej = onlyRejection(doc, 'business');
    expect(rej.reason).toMatch(/must declare the profile's ucp\.version "2026-08-25"/);
  });

  it('applies R-D4 to services as well', () => {
    const doc = businessProfile();
    (registry(doc, 'services')['dev.ucp.common'] as Json[])[1] = {
      version: '2026-01-11',
      transport: 'rest',
      endpoint: 'https://b.example.com/ucp',
      schema: 'https://ucp.dev/rest.json',
    };
    expect(onlyRejection(doc, 'business')).toMatchObject({ registry: 'services', index: 1 });
  });

  it('lets third-party entries version independently of ucp.version', () => {
    const doc = businessProfile();
    registry(doc, 'capabilities')['com.example.shopping.loyalty'] = [
      { version: '2025-03-01', schema: 'https://example.com/loyalty.json', extends: SEARCH },
    ];
    expect(validateProfile(doc, 'business').rejected).toEqual([]);
  });

  it('refuses a dev.ucp.* schema served from anywhere but ucp.dev', () => {
    const doc = businessProfile();
    registry(doc, 'capabilities')[SEARCH] = [{ version: V, schema: 'https://example.com/location_search.json' }];
    expect(onlyRejection(doc, 'business').reason).toMatch(/authority binding failed/);
  });
});

describe('validateProfile: registry item shapes by role (R-D2, R-D3)', () => {
  const cases: [string, 'business' | 'platform', 'services' | 'capabilities' | 'payment_handlers', string, unknown, RegExp][] = [
    ['business capability without schema', 'business', 'capabilities', SEARCH, { version: V }, /"schema" is missing/],
    [
      'platform capability without spec',
      'platform',
      'capabilities',
      SEARCH,
      { version: V, schema: 'https://ucp.dev/s.json' },
      /"spec" is missing/,
    ],
    ['entry without version', 'business', 'capabilities', SEARCH, { schema: 'https://ucp.dev/s.json' }, /"version" is missing/],
    ['entry that is not an object', 'business', 'capabilities', SEARCH, 'dev.ucp', /must be an object/],
    [
      'extends that is not reverse-domain',
      'business',
      'capabilities',
      'com.example.shopping.x',
      { version: '2026-01-01', schema: 'https://example.com/x.json', extends: 'Checkout' },
      /reverse-domain name or a non-empty array/,
    ],
    [
      'extends as an empty array',
      'business',
      'capabilities',
      'com.example.shopping.x',
      { version: '2026-01-01', schema: 'https://example.com/x.json', extends: [] },
      /non-empty array/,
    ],
    [
      'malformed requires',
      'business',
      'capabilities',
      'com.example.shopping.x',
      { version: '2026-01-01', schema: 'https://example.com/x.json', requires: { protocol: { max: V } } },
      /"min" is missing/,
    ],
    [
      'business rest service without endpoint',
      'business',
      'services',
      'dev.ucp.common',
      { version: V, transport: 'rest', schema: 'https://ucp.dev/r.json' },
      /"endpoint" is missing/,
    ],
    [
      'business a2a service without endpoint',
      'business',
      'services',
      'dev.ucp.common',
      { version: V, transport: 'a2a' },
      /"endpoint" is missing/,
    ],
    [
      'unknown transport',
      'business',
      'services',
      'dev.ucp.common',
      { version: V, transport: 'grpc', endpoint: 'https://b.example.com/x' },
      /must be one of/,
    ],
    [
      'embedded config with a bad colour scheme',
      'business',
      'services',
      'dev.ucp.common',
      { version: V, transport: 'embedded', config: { color_scheme: ['blue'] } },
      /must be one of/,
    ],
    [
      'platform mcp service without schema',
      'platform',
      'services',
      'dev.ucp.common',
      { version: V, transport: 'mcp', spec: 'https://ucp.dev/o' },
      /"schema" is missing/,
    ],
    ['platform service without spec', 'platform', 'services', 'dev.ucp.common', { version: V, transport: 'a2a' }, /"spec" is missing/],
    ['payment handler without id', 'business', 'payment_handlers', 'com.example.pay', { version: '2025-01-01' }, /"id" is missing/],
    [
      'payment handler with empty available_instruments',
      'business',
      'payment_handlers',
      'com.example.pay',
      { id: 'p', version: '2025-01-01', available_instruments: [] },
      /must not be empty/,
    ],
    [
      'platform payment handler without schema',
      'platform',
      'payment_handlers',
      'com.example.pay',
      { id: 'p', version: '2025-01-01', spec: 'https://docs.example.org/p' },
      /"schema" is missing/,
    ],
  ];

  it.each(cases)('drops a %s', (_why, role, reg, name, entry, reason) => {
    const doc = role === 'business' ? businessProfile() : platformProfile();
    registry(doc, reg)[name] = [entry as Json];
    const rej = onlyRejection(doc, role);
    expect(rej).toMatchObject({ registry: reg, name, index: 0 });
    expect(rej.reason).toMatch(reason);
  });

  it.each([
    ['business embedded service without endpoint', 'business', 'services', 'dev.ucp.common', { version: V, transport: 'embedded' }],
    [
      'platform a2a service without schema',
      'platform',
      'services',
      'dev.ucp.common',
      { version: V, transport: 'a2a', spec: 'https://ucp.dev/o' },
    ],
    ['business capability without spec', 'business', 'capabilities', SEARCH, { version: V, schema: 'https://ucp.dev/s.json' }],
    [
      'multi-parent extension',
      'business',
      'capabilities',
      'com.example.shopping.x',
      { version: '2026-01-01', schema: 'https://example.com/x.json', extends: [SEARCH, LOOKUP] },
    ],
    [
      'business payment handler with only id and version',
      'business',
      'payment_handlers',
      'com.example.pay',
      { id: 'p', version: '2025-01-01' },
    ],
  ] as const)('accepts a %s', (_why, role, reg, name, entry) => {
    const doc = role === 'business' ? businessProfile() : platformProfile();
    registry(doc, reg)[name] = [entry];
    expect(validateProfile(doc, role).rejected).toEqual([]);
  });
});

describe('validateProfile: endpoints must be https, loopback http only in development (R-D2)', () => {
  function withEndpoint(endpoint: string): Json {
    const doc = businessProfile();
    (registry(doc, 'services')['dev.ucp.common'] as Json[])[0] = {
      version: V,
      spec: `https://ucp.dev/${V}/specification/overview`,
      transport: 'mcp',
      schema: `https://ucp.dev/${V}/services/common/mcp.openrpc.json`,
      endpoint,
    };
    return doc;
  }

  it('drops an http endpoint by default, saying https is required', () => {
    expect(onlyRejection(withEndpoint('http://business.example.com/ucp/mcp'), 'business').reason).toMatch(/endpoint .* must use https/);
  });

  it('drops an endpoint carrying credentials', () => {
    expect(onlyRejection(withEndpoint('https://user:pw@business.example.com/ucp/mcp'), 'business').reason).toMatch(/credentials/);
  });

  it.each(['http://127.0.0.1:8080/ucp/mcp', 'http://[::1]:8080/ucp/mcp', 'http://localhost:3000/ucp/mcp'])(
    'accepts %s with allowLoopbackHttp',
    (endpoint) => {
      expect(validateProfile(withEndpoint(endpoint), 'business', { allowLoopbackHttp: true }).rejected).toEqual([]);
      expect(validateProfile(withEndpoint(endpoint), 'business').rejected).toHaveLength(1);
    },
  );

  it('still drops a non-loopback http endpoint with allowLoopbackHttp, and says what is allowed', () => {
    const rej = onlyRejection(withEndpoint('http://10.0.0.5:8080/ucp/mcp'), 'business', { allowLoopbackHttp: true });
    expect(rej.reason).toMatch(/only for 127\.0\.0\.1, \[::1\] and localhost/);
  });

  it('never relaxes authority binding for loopback schema URLs', () => {
    const doc = businessProfile();
    registry(doc, 'capabilities')[SEARCH] = [{ version: V, schema: 'http://127.0.0.1:8080/schemas/location_search.json' }];
    expect(onlyRejection(doc, 'business', { allowLoopbackHttp: true }).reason).toMatch(/authority binding failed/);
  });
});

describe('validateProfile: properties', () => {
  // Mixes entries that must survive with entries that must be dropped for various reasons.
  const entry = fc.oneof(
    fc.constant({ version: V, spec: 'https://ucp.dev/s', schema: `https://ucp.dev/${V}/s.json` }),
    fc.constant({ version: '2025-01-01', spec: 'https://ucp.dev/s', schema: `https://ucp.dev/s.json` }),
    fc.constant({ version: V, spec: 'https://ucp.dev/s', schema: 'https://evil.example/s.json' }),
    fc.constant({ version: V, spec: 'http://ucp.dev/s', schema: `https://ucp.dev/${V}/s.json` }),
    fc.constant({ version: V }),
    fc.constant(7),
  );
  const name = fc.constantFrom(SEARCH, LOOKUP, 'dev.ucp.common.x', 'dev.ucp', 'Bad.Name.x.y');

  it('every input entry is either kept, in order, or rejected exactly once', () => {
    fc.assert(
      fc.property(fc.dictionary(name, fc.array(entry, { maxLength: 4 })), (capabilities) => {
        const doc = { ucp: { version: V, services: {}, payment_handlers: {}, capabilities } };
        const r = validateProfile(doc, 'platform');
        const out = registry(expectOk(r), 'capabilities');
        for (const [n, entries] of Object.entries(capabilities)) {
          const rejectedIdx = r.rejected.filter((x) => x.name === n && x.index >= 0).map((x) => x.index);
          const kept = entries.filter((_, i) => !rejectedIdx.includes(i));
          expect(new Set(rejectedIdx).size).toBe(rejectedIdx.length);
          if (kept.length > 0 || (entries.length === 0 && n !== 'dev.ucp' && n !== 'Bad.Name.x.y')) expect(out[n]).toEqual(kept);
          else expect(out).not.toHaveProperty(n);
        }
        // Validating the result again rejects nothing: what survives is clean.
        expect(validateProfile(expectOk(r), 'platform').rejected).toEqual([]);
      }),
    );
  });
});
