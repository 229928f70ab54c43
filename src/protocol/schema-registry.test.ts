import { describe, expect, it } from 'vitest';
import { SchemaRegistry, SchemaRegistryError, type SchemaLoader } from './schema-registry.js';
import { LOCATION_LOOKUP_SCHEMA_URL, LOCATION_SEARCH_SCHEMA_URL, UCP_SCHEMA_BASE } from './schemas.js';

const SEARCH = 'dev.ucp.common.location.search';
const LOOKUP = 'dev.ucp.common.location.lookup';
const EXT_BASE = 'https://example.com/ucp/2026-08-25/';
const FLAT_URL = `${EXT_BASE}parking_fee.json`;
const SHAPED_URL = `${EXT_BASE}parking_fee_shaped.json`;
const TYPES_URL = `${EXT_BASE}types.json`;
const LOYALTY_URL = `${EXT_BASE}loyalty.json`;
const SCHEMA = 'https://json-schema.org/draft/2020-12/schema';

/** Shared third-party type, reached only through a relative `$ref` (the loader must follow it). */
const types = {
  $schema: SCHEMA,
  $id: TYPES_URL,
  $defs: {
    parking_fee: {
      type: 'object',
      required: ['amount', 'currency'],
      properties: { amount: { type: 'integer', minimum: 0 }, currency: { type: 'string', pattern: '^[A-Z]{3}$' } },
    },
  },
};

/** The overview's plain extension pattern: additions under $defs[<root name>], applied to every shape. */
const flatExtension = {
  $schema: SCHEMA,
  $id: FLAT_URL,
  name: 'com.example.location.parking_fee',
  $defs: {
    [SEARCH]: {
      title: 'Location Search with parking fees',
      type: 'object',
      properties: {
        locations: { items: { properties: { parking_fee: { $ref: 'types.json#/$defs/parking_fee' } } } },
      },
    },
  },
};

/** Container-aware pattern: one addition per payload shape under $defs[<root name>].$defs[<shape>]. */
const shapedExtension = {
  $schema: SCHEMA,
  $id: SHAPED_URL,
  name: 'com.example.location.parking_fee',
  $defs: {
    location_with_fee: {
      allOf: [{ $ref: `${UCP_SCHEMA_BASE}common/types/location.json` }],
      properties: { parking_fee: { $ref: 'types.json#/$defs/parking_fee' } },
    },
    [SEARCH]: {
      $defs: {
        search_response: {
          allOf: [
            { $ref: `${LOCATION_SEARCH_SCHEMA_URL}#/$defs/search_response` },
            { type: 'object', properties: { locations: { items: { $ref: '#/$defs/location_with_fee' } } } },
          ],
        },
      },
    },
  },
};

/** A multi-parent extension whose request field is required for search only (per-operation annotation). */
const loyaltyExtension = {
  $schema: SCHEMA,
  $id: LOYALTY_URL,
  name: 'com.example.common.loyalty',
  $defs: {
    loyalty: {
      type: 'object',
      properties: {
        'com.example.loyalty_id': { type: 'string', ucp_request: { search: 'required', lookup: 'optional' } },
      },
    },
    [SEARCH]: { $ref: '#/$defs/loyalty' },
    [LOOKUP]: { $ref: '#/$defs/loyalty' },
  },
};

const HOSTED: Record<string, object> = {
  [FLAT_URL]: flatExtension,
  [SHAPED_URL]: shapedExtension,
  [TYPES_URL]: types,
  [LOYALTY_URL]: loyaltyExtension,
};

/** A loader over an in-memory "web", recording what it was asked for. */
function fakeWeb(extra: Record<string, object> = {}): { loader: SchemaLoader; calls: string[] } {
  const calls: string[] = [];
  const hosted = { ...HOSTED, ...extra };
  const loader: SchemaLoader = async (url) => {
    calls.push(url);
    const doc = hosted[url];
    if (doc === undefined) throw new Error('404 Not Found');
    return structuredClone(doc);
  };
  return { loader, calls };
}

const ucp = { version: '2026-08-25', capabilities: { [SEARCH]: [{ version: '2026-08-25' }] } };
const response = (fee: unknown) => ({ ucp, locations: [{ id: 'loc_1', name: 'Harbour Store', parking_fee: fee }] });

describe('SchemaRegistry.composeCapabilitySchema', () => {
  it('validates the root shape alone when no extension is active (extra fields allowed: schemas are open)', async () => {
    const registry = new SchemaRegistry();
    const validate = await registry.composeCapabilitySchema(SEARCH, LOCATION_SEARCH_SCHEMA_URL, [], 'search_response');
    expect(validate(response('free'))).toEqual({ valid: true });
    expect(validate({ ucp, locations: [{ id: 'loc_1' }] })).toEqual({
      valid: false,
      errors: [{ pointer: '/locations/0', message: 'missing required property "name"' }],
    });
  });

  for (const [label, url] of [
    ['flat $defs[<root>]', FLAT_URL],
    ['per-shape $defs[<root>].$defs[<shape>]', SHAPED_URL],
  ] as const) {
    it(`composes a third-party extension (${label}): accepts the extended Location, rejects a wrong type in the extension field`, async () => {
      const { loader, calls } = fakeWeb();
      const registry = new SchemaRegistry({ loader });
      const ext = [{ name: 'com.example.location.parking_fee', schemaUrl: url }];
      const validate = await registry.composeCapabilitySchema(SEARCH, LOCATION_SEARCH_SCHEMA_URL, ext, 'search_response');
      expect(validate(response({ amount: 300, currency: 'USD' }))).toEqual({ valid: true });
      expect(validate(response('free'))).toEqual({
        valid: false,
        errors: [{ pointer: '/locations/0/parking_fee', message: 'must be object; got string' }],
      });
      expect(validate(response({ amount: -1, currency: 'usd' }))).toEqual({
        valid: false,
        errors: [
          { pointer: '/locations/0/parking_fee/amount', message: 'must be >= 0' },
          { pointer: '/locations/0/parking_fee/currency', message: 'must match the pattern ^[A-Z]{3}$' },
        ],
      });
      // the pinned root never goes to the network; the extension's relative $ref does
      expect(calls.sort()).toEqual([url, TYPES_URL].sort());
    });
  }

  it('leaves a shape alone when a per-shape extension does not name it', async () => {
    const { loader } = fakeWeb();
    const registry = new SchemaRegistry({ loader });
    const ext = [{ name: 'com.example.location.parking_fee', schemaUrl: SHAPED_URL }];
    const validate = await registry.composeCapabilitySchema(SEARCH, LOCATION_SEARCH_SCHEMA_URL, ext, 'search_request');
    expect(validate({ query: 'coffee' })).toEqual({ valid: true });
    expect(validate({ distance: { max: 5 } }).valid).toBe(false);
  });

  it('applies per-operation ucp_request annotations of extensions (search requires, lookup does not)', async () => {
    const { loader } = fakeWeb();
    const registry = new SchemaRegistry({ loader });
    const ext = [{ name: 'com.example.common.loyalty', schemaUrl: LOYALTY_URL }];
    const search = await registry.composeCapabilitySchema(SEARCH, LOCATION_SEARCH_SCHEMA_URL, ext, 'search_request');
    const lookup = await registry.composeCapabilitySchema(LOOKUP, LOCATION_LOOKUP_SCHEMA_URL, ext, 'lookup_request');
    const searchResponse = await registry.composeCapabilitySchema(SEARCH, LOCATION_SEARCH_SCHEMA_URL, ext, 'search_response');
    expect(search({ query: 'x' })).toEqual({
      valid: false,
      errors: [{ pointer: '', message: 'missing required property "com.example.loyalty_id"' }],
    });
    expect(search({ query: 'x', 'com.example.loyalty_id': 'L-1' })).toEqual({ valid: true });
    expect(lookup({ ids: ['loc_1'] })).toEqual({ valid: true });
    expect(searchResponse({ ucp, locations: [] })).toEqual({ valid: true });
  });

  it('returns the same validator for the same composition, whatever the extension order (cache)', async () => {
    const { loader } = fakeWeb();
    const registry = new SchemaRegistry({ loader });
    const a = { name: 'com.example.location.parking_fee', schemaUrl: FLAT_URL };
    const b = { name: 'com.example.common.loyalty', schemaUrl: LOYALTY_URL };
    const [first, concurrent] = await Promise.all([
      registry.composeCapabilitySchema(SEARCH, LOCATION_SEARCH_SCHEMA_URL, [a, b], 'search_response'),
      registry.composeCapabilitySchema(SEARCH, LOCATION_SEARCH_SCHEMA_URL, [b, a], 'search_response'),
    ]);
    expect(concurrent).toBe(first);
    expect(await registry.composeCapabilitySchema(SEARCH, LOCATION_SEARCH_SCHEMA_URL, [a, b], 'search_response')).toBe(first);
    expect(await registry.composeCapabilitySchema(SEARCH, LOCATION_SEARCH_SCHEMA_URL, [a], 'search_response')).not.toBe(first);
    expect(await registry.composeCapabilitySchema(SEARCH, LOCATION_SEARCH_SCHEMA_URL, [a, b], 'search_request')).not.toBe(first);
  });

  it('fetches each third-party document once, even for concurrent compositions', async () => {
    const { loader, calls } = fakeWeb();
    const registry = new SchemaRegistry({ loader });
    const ext = [{ name: 'com.example.location.parking_fee', schemaUrl: FLAT_URL }];
    await Promise.all([
      registry.composeCapabilitySchema(SEARCH, LOCATION_SEARCH_SCHEMA_URL, ext, 'search_response'),
      registry.composeCapabilitySchema(SEARCH, LOCATION_SEARCH_SCHEMA_URL, ext, 'search_request'),
    ]);
    expect(calls.sort()).toEqual([FLAT_URL, TYPES_URL].sort());
  });

  it('accepts documents the caller fetched itself (addSchema) without a loader', async () => {
    const registry = new SchemaRegistry();
    registry.addSchema(FLAT_URL, flatExtension);
    registry.addSchema(TYPES_URL, types);
    const validate = await registry.composeCapabilitySchema(
      SEARCH,
      LOCATION_SEARCH_SCHEMA_URL,
      [{ name: 'com.example.location.parking_fee', schemaUrl: FLAT_URL }],
      'search_response',
    );
    expect(validate(response(7)).valid).toBe(false);
  });
});

describe('SchemaRegistry: refusing bad schemas with actionable errors', () => {
  const ext = (schemaUrl: string) => [{ name: 'com.example.location.parking_fee', schemaUrl }];

  it('needs a loader for documents it does not hold', async () => {
    await expect(
      new SchemaRegistry().composeCapabilitySchema(SEARCH, LOCATION_SEARCH_SCHEMA_URL, ext(FLAT_URL), 'search_response'),
    ).rejects.toThrow(/not pinned and no loader/);
  });

  it('reports an extension without $defs[<root capability name>]', async () => {
    const url = `${EXT_BASE}empty.json`;
    const { loader } = fakeWeb({ [url]: { $id: url, $defs: { other: {} } } });
    const p = new SchemaRegistry({ loader }).composeCapabilitySchema(SEARCH, LOCATION_SEARCH_SCHEMA_URL, ext(url), 'search_response');
    await expect(p).rejects.toThrow(SchemaRegistryError);
    await expect(p).rejects.toThrow(`has no $defs["${SEARCH}"]`);
  });

  it('refuses a fetched document whose $id is not the URL it came from', async () => {
    const url = `${EXT_BASE}liar.json`;
    const { loader } = fakeWeb({ [url]: { ...flatExtension, $id: `${UCP_SCHEMA_BASE}common/types/geo.json` } });
    await expect(
      new SchemaRegistry({ loader }).composeCapabilitySchema(SEARCH, LOCATION_SEARCH_SCHEMA_URL, ext(url), 'search_response'),
    ).rejects.toThrow(/must equal the URL it was fetched from/);
  });

  it('refuses nested $id resources on another origin (no shadowing of pinned or foreign schemas)', () => {
    const registry = new SchemaRegistry();
    expect(() =>
      registry.addSchema(FLAT_URL, { ...flatExtension, $defs: { ...flatExtension.$defs, x: { $id: `${UCP_SCHEMA_BASE}ucp.json` } } }),
    ).toThrow(/outside its own origin/);
    expect(() => registry.addSchema(`${UCP_SCHEMA_BASE}ucp.json`, {})).toThrow(/pinned UCP schema/);
  });

  it('does not cache a failed composition: a later attempt can succeed', async () => {
    let up = false;
    const { loader } = fakeWeb();
    const flaky: SchemaLoader = async (url) => {
      if (!up) throw new Error('connect ECONNREFUSED');
      return loader(url);
    };
    const registry = new SchemaRegistry({ loader: flaky });
    await expect(registry.composeCapabilitySchema(SEARCH, LOCATION_SEARCH_SCHEMA_URL, ext(FLAT_URL), 'search_response')).rejects.toThrow(
      `Could not load schema ${FLAT_URL}: connect ECONNREFUSED`,
    );
    up = true;
    const validate = await registry.composeCapabilitySchema(SEARCH, LOCATION_SEARCH_SCHEMA_URL, ext(FLAT_URL), 'search_response');
    expect(validate(response({ amount: 1, currency: 'EUR' }))).toEqual({ valid: true });
  });

  it('is not poisoned by a document that is not a valid JSON Schema', async () => {
    const url = `${EXT_BASE}broken.json`;
    const { loader } = fakeWeb({ [url]: { $id: url, $defs: { [SEARCH]: { type: 12 } } } });
    const registry = new SchemaRegistry({ loader });
    await expect(registry.composeCapabilitySchema(SEARCH, LOCATION_SEARCH_SCHEMA_URL, ext(url), 'search_response')).rejects.toThrow(
      /is not a valid JSON Schema 2020-12 document/,
    );
    expect(registry.has(url)).toBe(false);
    const validate = await registry.composeCapabilitySchema(SEARCH, LOCATION_SEARCH_SCHEMA_URL, ext(FLAT_URL), 'search_response');
    expect(validate(response('free')).valid).toBe(false);
  });

  it("compiles third-party schemas that use this project's private keyword names differently, but not malformed ucp_request", async () => {
    const odd = `${EXT_BASE}odd.json`;
    const bad = `${EXT_BASE}bad-annotation.json`;
    const { loader } = fakeWeb({
      [odd]: { $id: odd, name: 7, $defs: { [SEARCH]: { type: 'object', 'x-error': 42, 'x-hint': ['x'] } } },
      [bad]: { $id: bad, $defs: { [SEARCH]: { properties: { a: { ucp_request: 'sometimes' } } } } },
    });
    const registry = new SchemaRegistry({ loader });
    const validate = await registry.composeCapabilitySchema(SEARCH, LOCATION_SEARCH_SCHEMA_URL, ext(odd), 'search_response');
    expect(validate({ ucp, locations: [] })).toEqual({ valid: true });
    await expect(registry.composeCapabilitySchema(SEARCH, LOCATION_SEARCH_SCHEMA_URL, ext(bad), 'search_response')).rejects.toThrow(
      /ucp_request/,
    );
  });

  it('bounds how many third-party documents it will hold', () => {
    const registry = new SchemaRegistry({ maxDocuments: 1 });
    registry.addSchema(TYPES_URL, types);
    expect(() => registry.addSchema(FLAT_URL, flatExtension)).toThrow(/already holds 1 third-party documents/);
  });

  it('reports a missing root def', async () => {
    await expect(new SchemaRegistry().composeCapabilitySchema(SEARCH, LOCATION_SEARCH_SCHEMA_URL, [], 'browse_request')).rejects.toThrow(
      'has no $defs["browse_request"]',
    );
  });
});

describe('SchemaRegistry.validator', () => {
  it('compiles a pinned def synchronously and caches it', () => {
    const registry = new SchemaRegistry();
    const v = registry.validator(LOCATION_LOOKUP_SCHEMA_URL, 'lookup_request');
    expect(registry.validator(LOCATION_LOOKUP_SCHEMA_URL, 'lookup_request')).toBe(v);
    expect(v({ ids: ['a'] })).toEqual({ valid: true });
    expect(() => registry.validator(`${EXT_BASE}nowhere.json`)).toThrow(/not held by the registry/);
  });
});
