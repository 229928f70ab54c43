import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UcpRequestError } from '../errors.js';
import { LOCATION_MCP_SEED, seedJsonExamples } from '../protocol/test-support/seed-json.js';
import {
  mcpToolSchemas,
  validateErrorResponse,
  validateLookupRequest,
  validateLookupResponse,
  validateSearchRequest,
  validateSearchResponse,
  validateToolArguments,
} from './request-validation.js';

function rejection(run: () => unknown): UcpRequestError {
  try {
    run();
  } catch (e) {
    if (e instanceof UcpRequestError) return e;
    throw e;
  }
  throw new Error('expected a UcpRequestError');
}

const CENTER = { latitude: 37.7749, longitude: -122.4194 };

/** [rule, request, pointer, message] — every entry must be rejected with exactly this first issue. */
const SEARCH_REJECTIONS: [string, unknown, string, string][] = [
  [
    'R-S4 distance without center',
    { distance: { max: 500 } },
    '/distance',
    'missing required property "center" (an explicit {latitude, longitude} the radius is measured from)',
  ],
  [
    'R-S4 distance without max',
    { distance: { center: CENTER } },
    '/distance',
    'missing required property "max" (metres, inclusive radius)',
  ],
  ['R-S4 negative max', { distance: { center: CENTER, max: -1 } }, '/distance/max', 'must be >= 0 (metres, inclusive radius)'],
  [
    'R-S4 max as a string',
    { distance: { center: CENTER, max: '5km' } },
    '/distance/max',
    'must be number (metres, inclusive radius); got string',
  ],
  [
    'R-S4 latitude out of range',
    { distance: { center: { latitude: 90.5, longitude: 0 }, max: 1 } },
    '/distance/center/latitude',
    'must be <= 90 (WGS 84 decimal degrees from -90 to 90)',
  ],
  [
    'R-S4 longitude out of range',
    { distance: { center: { latitude: 0, longitude: -180.5 }, max: 1 } },
    '/distance/center/longitude',
    'must be >= -180 (WGS 84 decimal degrees from -180 to 180)',
  ],
  [
    'R-S5 serves with no target',
    { serves: {} },
    '/serves',
    'must have exactly one target ("point", "address" or a negotiated reverse-domain extension key); got 0',
  ],
  [
    'R-S5 serves with two targets',
    { serves: { point: CENTER, address: { address_country: 'US' } } },
    '/serves',
    'must have exactly one target ("point", "address" or a negotiated reverse-domain extension key); got 2: point, address',
  ],
  [
    'R-S5 serves with a non-reverse-domain key',
    { serves: { zone: 'north' } },
    '/serves',
    'keys must be "point", "address" or a negotiated reverse-domain extension key; got key "zone"',
  ],
  [
    'R-S5 serves cannot host ucp',
    { serves: { ucp: {} } },
    '/serves',
    'keys must be "point", "address" or a negotiated reverse-domain extension key; got key "ucp"',
  ],
  [
    'R-S5 empty address',
    { serves: { address: {} } },
    '/serves/address',
    'must include at least one non-empty address_country, address_region or postal_code',
  ],
  [
    'R-S5 address with only empty recognised fields',
    { serves: { address: { address_country: '', postal_code: '' } } },
    '/serves/address',
    'must include at least one non-empty address_country, address_region or postal_code',
  ],
  [
    'R-S5 address with only unrecognised fields',
    { serves: { address: { city: 'Oakland' } } },
    '/serves/address',
    'must include at least one non-empty address_country, address_region or postal_code',
  ],
  [
    'R-S5 point out of range',
    { serves: { point: { latitude: 0, longitude: 200 } } },
    '/serves/point/longitude',
    'must be <= 180 (WGS 84 decimal degrees from -180 to 180)',
  ],
  [
    'R-S6 open_at without offset',
    { filters: { hours: { open_at: '2026-11-30T10:00:00' } } },
    '/filters/hours/open_at',
    'must be an RFC 3339 date-time with Z or a numeric offset, e.g. 2026-11-30T10:00:00-08:00',
  ],
  [
    'R-S6 open_at with a colon-less offset',
    { filters: { hours: { open_at: '2026-11-30T10:00:00+0530' } } },
    '/filters/hours/open_at',
    'must be an RFC 3339 date-time with Z or a numeric offset, e.g. 2026-11-30T10:00:00-08:00',
  ],
  [
    'R-S6 open_at not a date',
    { filters: { hours: { open_at: 'now' } } },
    '/filters/hours/open_at',
    'must be an RFC 3339 date-time with Z or a numeric offset, e.g. 2026-11-30T10:00:00-08:00',
  ],
  [
    'R-S6 open_at impossible date',
    { filters: { hours: { open_at: '2026-02-30T10:00:00Z' } } },
    '/filters/hours/open_at',
    'must be an RFC 3339 date-time with Z or a numeric offset, e.g. 2026-11-30T10:00:00-08:00',
  ],
  ['R-S6 hours without open_at', { filters: { hours: {} } }, '/filters/hours', 'missing required property "open_at"'],
  [
    'R-S7 amenity id not reverse-domain',
    { filters: { amenities: ['Curbside Pickup'] } },
    '/filters/amenities/0',
    'must be a lower-case reverse-domain name of at least two dot-separated labels, e.g. com.example.loyalty_gold',
  ],
  [
    'R-S7 single-label amenity id',
    { filters: { amenities: ['dev.ucp.amenity.wi_fi', 'parking'] } },
    '/filters/amenities/1',
    'must be a lower-case reverse-domain name of at least two dot-separated labels, e.g. com.example.loyalty_gold',
  ],
  [
    'R-S8 items not strings',
    { filters: { items: [42] } },
    '/filters/items/0',
    'must be string (a Business-resolved item identifier); got integer',
  ],
  ['R-S9 limit below 1', { pagination: { limit: 0 } }, '/pagination/limit', 'must be >= 1 (page size, an integer of at least 1)'],
  [
    'R-S9 fractional limit',
    { pagination: { limit: 2.5 } },
    '/pagination/limit',
    'must be integer (page size, an integer of at least 1); got number',
  ],
  [
    'R-S9 cursor not a string',
    { pagination: { cursor: 7 } },
    '/pagination/cursor',
    'must be string (the opaque cursor returned by the previous page); got integer',
  ],
  ['query must be text', { query: ['coffee'] }, '/query', 'must be string; got array'],
  [
    'signals keys are reverse-domain',
    { signals: { buyer_ip: '203.0.113.9' } },
    '/signals',
    'keys must be reverse-domain names, e.g. dev.ucp.buyer_ip; got key "buyer_ip"',
  ],
  ['the request is an object', [], '', 'must be object; got array'],
];

describe('validateSearchRequest', () => {
  for (const [rule, request, pointer, message] of SEARCH_REJECTIONS) {
    it(`rejects: ${rule}`, () => {
      const e = rejection(() => validateSearchRequest(request));
      expect(e.code).toBe('invalid_request');
      expect(e.pointer).toBe(pointer);
      expect(e.details[0]).toEqual({ pointer, message });
      expect(e.message).toBe(`Invalid search request: ${pointer === '' ? '(root)' : pointer}: ${message}`);
    });
  }

  it('reports every problem in details, the first one as the pointer', () => {
    const e = rejection(() => validateSearchRequest({ distance: { center: CENTER, max: -5 }, pagination: { limit: 0 } }));
    expect(e.details.map((d) => d.pointer)).toEqual(['/distance/max', '/pagination/limit']);
    expect(e.message).toContain('/distance/max: must be >= 0');
    expect(e.message).toContain('/pagination/limit: must be >= 1');
  });

  it('accepts a bounded browse and every predicate together (R-S1, R-S2)', () => {
    expect(validateSearchRequest({})).toEqual({});
    const full = {
      query: 'grocery',
      context: { address_country: 'US', language: 'en-US', eligibility: ['com.example.member'] },
      signals: { 'dev.ucp.buyer_ip': '203.0.113.9' },
      distance: { center: CENTER, max: 0 },
      serves: { address: { postal_code: '94103' } },
      filters: {
        hours: { open_at: '2026-11-30T10:00:00z' },
        amenities: ['dev.ucp.amenity.shopping.curbside_pickup'],
        items: ['sku_123'],
        'com.example.custom_filter': true,
      },
      pagination: { cursor: 'abc', limit: 1 },
    };
    expect(validateSearchRequest(full)).toBe(full);
    expect(validateSearchRequest({ serves: { 'com.example.delivery_zone': { id: 'z1' } } })).toBeTruthy();
  });

  it('accepts any in-range center, non-negative radius and offset instant (property, R-S4, R-S6)', () => {
    const offset = fc.oneof(
      fc.constantFrom('Z', 'z'),
      fc
        .tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
        .map(([s, h, m]) => `${s}${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`),
    );
    const instant = fc
      .tuple(fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2999-12-31T23:59:59Z'), noInvalidDate: true }), offset)
      .map(([d, o]) => d.toISOString().replace('Z', o));
    fc.assert(
      fc.property(
        fc.double({ min: -90, max: 90, noNaN: true }),
        fc.double({ min: -180, max: 180, noNaN: true }),
        fc.double({ min: 0, max: 2e7, noNaN: true }),
        instant,
        fc.integer({ min: 1, max: 1000 }),
        (latitude, longitude, max, open_at, limit) => {
          const request = { distance: { center: { latitude, longitude }, max }, filters: { hours: { open_at } }, pagination: { limit } };
          expect(validateSearchRequest(request)).toBe(request);
        },
      ),
    );
  });

  it('rejects any latitude beyond ±90 at its own pointer (property, R-S4)', () => {
    const bad = fc.oneof(
      fc.double({ min: 90, max: 1e9, noNaN: true, minExcluded: true }),
      fc.double({ min: -1e9, max: -90, noNaN: true, maxExcluded: true }),
    );
    fc.assert(
      fc.property(bad, (latitude) => {
        expect(rejection(() => validateSearchRequest({ serves: { point: { latitude, longitude: 0 } } })).pointer).toBe(
          '/serves/point/latitude',
        );
      }),
    );
  });
});

describe('validateLookupRequest', () => {
  it('rejects a missing or empty ids list (R-L1)', () => {
    const missing = rejection(() => validateLookupRequest({ distance: { center: CENTER, max: 10 } }));
    expect([missing.pointer, missing.details[0]?.message]).toEqual([
      '',
      'missing required property "ids" (the Location identifiers to look up)',
    ]);
    const empty = rejection(() => validateLookupRequest({ ids: [] }));
    expect([empty.pointer, empty.details[0]?.message]).toEqual([
      '/ids',
      'must contain at least 1 item (the Location identifiers to look up)',
    ]);
    const wrong = rejection(() => validateLookupRequest({ ids: ['a', 5] }));
    expect(wrong.pointer).toBe('/ids/1');
    expect(wrong.message).toMatch(/^Invalid lookup request: \/ids\/1: must be string; got integer$/);
  });

  it('applies the same predicate rules as search (R-L2)', () => {
    expect(rejection(() => validateLookupRequest({ ids: ['a'], serves: { point: CENTER, 'com.example.zone': 1 } })).pointer).toBe(
      '/serves',
    );
    expect(rejection(() => validateLookupRequest({ ids: ['a'], filters: { hours: { open_at: '10:00' } } })).pointer).toBe(
      '/filters/hours/open_at',
    );
  });

  it('accepts duplicates and aliases (the Business deduplicates, R-L1) and has no pagination', () => {
    const r = { ids: ['loc_1', 'loc_1', 'store-42'] };
    expect(validateLookupRequest(r)).toBe(r);
  });
});

describe('response validation', () => {
  const ucp = { version: '2026-08-25', capabilities: { 'dev.ucp.common.location.lookup': [{ version: '2026-08-25' }] } };
  const location = {
    id: 'loc_downtown',
    name: 'Downtown Store',
    address: { street_address: '1 Main St', address_locality: 'Springfield', address_country: 'US' },
    geo: { latitude: 39.78, longitude: -89.65 },
    amenities: { 'dev.ucp.amenity.shopping.curbside_pickup': { description: 'Curbside pickup' } },
    hours: [{ day: 'friday', opens: '22:00', closes: '02:00' }],
    exception_hours: [{ valid_from: '2026-12-25', valid_through: '2026-12-25', title: 'Christmas' }],
    timezone: 'America/Chicago',
  };

  it('accepts a complete lookup response with inputs and a batch_limit_applied message (R-L1, R-L3)', () => {
    const body = {
      ucp,
      locations: [{ ...location, inputs: [{ id: 'loc_downtown' }, { id: 'store-42' }] }],
      messages: [
        {
          type: 'info',
          code: 'batch_limit_applied',
          content: 'Processed the first 10 of 12 distinct identifiers; 2 identifiers were not processed.',
        },
      ],
    };
    expect(validateLookupResponse(body)).toEqual({ valid: true, value: body });
  });

  it('rejects lookup Locations without inputs, and an empty inputs list', () => {
    expect(validateLookupResponse({ ucp, locations: [location] })).toEqual({
      valid: false,
      errors: [{ pointer: '/locations/0', message: 'missing required property "inputs"' }],
    });
    expect(validateLookupResponse({ ucp, locations: [{ ...location, inputs: [] }] })).toEqual({
      valid: false,
      errors: [{ pointer: '/locations/0/inputs', message: 'must contain at least 1 item' }],
    });
  });

  it('rejects the draft amenities array, bad amenity keys and descriptions (seed: map of id → {description})', () => {
    const check = (amenities: unknown) => validateSearchResponse({ ucp, locations: [{ id: 'a', name: 'A', amenities }] });
    expect(check(['dev.ucp.amenity.wi_fi'])).toEqual({
      valid: false,
      errors: [{ pointer: '/locations/0/amenities', message: 'must be object; got array' }],
    });
    expect(check({ WiFi: { description: 'Wi-Fi' } })).toEqual({
      valid: false,
      errors: [
        {
          pointer: '/locations/0/amenities',
          message: 'keys must be reverse-domain amenity identifiers, e.g. dev.ucp.amenity.shopping.curbside_pickup; got key "WiFi"',
        },
      ],
    });
    expect(check({ 'dev.ucp.amenity.wi_fi': {} })).toEqual({
      valid: false,
      errors: [
        {
          pointer: '/locations/0/amenities/dev.ucp.amenity.wi_fi',
          message: 'missing required property "description" (a short buyer-facing label such as "Curbside pickup")',
        },
      ],
    });
  });

  it('rejects schedules without timezone and malformed times (R-H1, R-H5)', () => {
    const r = validateSearchResponse({
      ucp,
      locations: [{ id: 'a', name: 'A', hours: [{ day: 'Friday', opens: '9:00', closes: '17:00' }] }],
    });
    expect(r).toEqual({
      valid: false,
      errors: [
        { pointer: '/locations/0', message: 'missing required property "timezone" (needed whenever hours or exception_hours is present)' },
        { pointer: '/locations/0/hours/0/opens', message: 'must be 24-hour local time HH:MM, e.g. 09:30' },
        {
          pointer: '/locations/0/hours/0/day',
          message: 'must be one of: "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"; got "Friday"',
        },
      ],
    });
    const half = validateSearchResponse({
      ucp,
      locations: [
        {
          id: 'a',
          name: 'A',
          timezone: 'UTC',
          exception_hours: [{ valid_from: '2026-01-01', valid_through: '2026-01-01', opens: '10:00' }],
        },
      ],
    });
    expect(half).toEqual({
      valid: false,
      errors: [{ pointer: '/locations/0/exception_hours/0', message: 'property "opens" requires "closes" as well' }],
    });
  });

  it('requires a cursor whenever has_next_page is true (R-S9)', () => {
    expect(validateSearchResponse({ ucp, locations: [], pagination: { has_next_page: true } })).toEqual({
      valid: false,
      errors: [{ pointer: '/pagination', message: 'missing required property "cursor" (needed whenever has_next_page is true)' }],
    });
    expect(validateSearchResponse({ ucp, locations: [], pagination: { has_next_page: false } }).valid).toBe(true);
  });

  it('accepts an empty search result as success (R-S10) and rejects a missing locations array', () => {
    expect(validateSearchResponse({ ucp, locations: [] }).valid).toBe(true);
    expect(validateSearchResponse({ ucp }).valid).toBe(false);
  });

  it('validates the error_response shape for business outcomes that failed as a whole (R-G5)', () => {
    const body = {
      ucp: { version: '2026-08-25', status: 'error' },
      messages: [
        { type: 'error', code: 'capabilities_incompatible', content: 'No shared Location capability.', severity: 'unrecoverable' },
      ],
    };
    expect(validateErrorResponse(body).valid).toBe(true);
    expect(validateErrorResponse({ ...body, messages: [] })).toEqual({
      valid: false,
      errors: [{ pointer: '/messages', message: 'must contain at least 1 item' }],
    });
  });
});

describe('the seed 000 binding envelopes', () => {
  const examples = seedJsonExamples(LOCATION_MCP_SEED) as {
    method?: string;
    params?: { name: string; arguments: unknown };
    result?: { structuredContent: unknown };
  }[];
  const requests = examples.filter((e) => e.method === 'tools/call');
  const results = examples.filter((e) => e.result !== undefined);

  it('contains one request and one result per tool', () => {
    expect(requests.map((r) => r.params?.name)).toEqual(['search_locations', 'lookup_locations']);
    expect(results).toHaveLength(2);
  });

  it('validate as tool arguments and as responses', () => {
    const [search, lookup] = requests;
    expect(validateToolArguments('search_locations', search?.params?.arguments).location).toEqual({ query: 'grocery store' });
    expect(validateToolArguments('lookup_locations', lookup?.params?.arguments).location).toEqual({ ids: ['loc_downtown'] });
    expect(validateSearchResponse(results[0]?.result?.structuredContent).valid).toBe(true);
    expect(validateLookupResponse(results[1]?.result?.structuredContent).valid).toBe(true);
  });
});

describe('validateToolArguments (R-M1, R-G1)', () => {
  const meta = { 'ucp-agent': { profile: 'https://platform.example/profiles/agent.json' } };

  it('points into the arguments object', () => {
    const e = rejection(() => validateToolArguments('search_locations', { meta, location: { distance: { center: CENTER, max: -1 } } }));
    expect(e.pointer).toBe('/location/distance/max');
    expect(e.message).toBe('Invalid search_locations arguments: /location/distance/max: must be >= 0 (metres, inclusive radius)');
  });

  it('requires meta["ucp-agent"].profile as an absolute URI', () => {
    expect(rejection(() => validateToolArguments('search_locations', { location: {} })).details).toEqual([
      { pointer: '', message: 'missing required property "meta" (an object carrying "ucp-agent": {"profile": "<Platform profile URL>"})' },
    ]);
    expect(rejection(() => validateToolArguments('search_locations', { meta: {}, location: {} })).details).toEqual([
      {
        pointer: '/meta',
        message: 'missing required property "ucp-agent" (an object whose "profile" is the URL of the Platform\'s UCP profile)',
      },
    ]);
    expect(
      rejection(() =>
        validateToolArguments('lookup_locations', { meta: { 'ucp-agent': { profile: 'agent.json' } }, location: { ids: ['a'] } }),
      ).details,
    ).toEqual([
      {
        pointer: '/meta/ucp-agent/profile',
        message:
          "must be an absolute URI including its scheme, e.g. https://platform.example/profile.json (the absolute https URL of the Platform's UCP profile)",
      },
    ]);
    expect(
      rejection(() => validateToolArguments('lookup_locations', { meta: { ...meta, 'idempotency-key': 'k1' }, location: { ids: ['a'] } }))
        .pointer,
    ).toBe('/meta/idempotency-key');
  });

  it('requires the location payload of the tool and reports meta and location problems together', () => {
    const e = rejection(() => validateToolArguments('lookup_locations', { meta: {}, location: {} }));
    expect(e.details.map((d) => d.pointer)).toEqual(['/meta', '/location']);
    expect(rejection(() => validateToolArguments('lookup_locations', { meta })).details).toEqual([
      { pointer: '', message: 'missing required property "location" (the lookup request)' },
    ]);
    expect(rejection(() => validateToolArguments('search_locations', null)).details).toEqual([
      { pointer: '', message: 'must be an object with "meta" and "location"; got null' },
    ]);
  });
});

/** Every `$ref` of a bundle, to check it is local and resolves. */
function refsOf(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => refsOf(v, out));
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else if (k !== 'const' && k !== 'enum' && k !== 'examples' && k !== 'default') refsOf(v, out);
    }
  }
  return out;
}

describe('mcpToolSchemas (R-M2)', () => {
  const tools = mcpToolSchemas();
  const seed = seedJsonExamples(LOCATION_MCP_SEED) as {
    params?: { name: string; arguments: unknown };
    result?: { structuredContent: unknown };
  }[];
  const args = (tool: string) => seed.find((e) => e.params?.name === tool)?.params?.arguments;
  const output = (capability: string) =>
    seed.find((e) => JSON.stringify(e.result?.structuredContent ?? '').includes(capability))?.result?.structuredContent;

  it('is one self-contained object schema per tool: type object at the top, every $ref local and resolvable', () => {
    expect(Object.keys(tools).sort()).toEqual(['lookup_locations', 'search_locations']);
    for (const { inputSchema, outputSchema } of Object.values(tools)) {
      for (const schema of [inputSchema, outputSchema]) {
        expect(schema.type).toBe('object');
        const defs = schema.$defs as Record<string, unknown>;
        const refs = refsOf(schema);
        expect(refs.length).toBeGreaterThan(0);
        for (const ref of refs) {
          expect(ref).toMatch(/^#\/\$defs\/[^/]+$/);
          expect(defs[ref.slice('#/$defs/'.length).replace(/~1/g, '/').replace(/~0/g, '~')]).toBeDefined();
        }
        const text = JSON.stringify(schema);
        for (const kw of ['ucp_request', 'x-hint', 'x-error', '"$id"']) expect(text).not.toContain(kw);
      }
      expect(inputSchema.required).toEqual(['meta', 'location']);
    }
  });

  const compilers: [string, (schema: object) => (data: unknown) => boolean][] = [
    [
      'Ajv 2020 + formats',
      (schema) => {
        const ajv = new Ajv2020({ strict: false });
        ajvFormats.default(ajv);
        const v = ajv.compile(schema);
        return (d) => v(d);
      },
    ],
    [
      "the MCP SDK's own validator",
      (schema) => {
        const v = new AjvJsonSchemaValidator().getValidator(schema);
        return (d) => v(d).valid;
      },
    ],
  ];

  for (const [label, compile] of compilers) {
    it(`validates the seed envelopes and rejects broken ones with ${label}`, () => {
      const searchIn = compile(tools.search_locations.inputSchema);
      const lookupIn = compile(tools.lookup_locations.inputSchema);
      const searchOut = compile(tools.search_locations.outputSchema);
      const lookupOut = compile(tools.lookup_locations.outputSchema);
      expect(searchIn(args('search_locations'))).toBe(true);
      expect(lookupIn(args('lookup_locations'))).toBe(true);
      expect(searchOut(output('dev.ucp.common.location.search'))).toBe(true);
      expect(lookupOut(output('dev.ucp.common.location.lookup'))).toBe(true);

      expect(searchIn({ location: { query: 'x' } })).toBe(false);
      expect(searchIn({ meta: { 'ucp-agent': {} }, location: {} })).toBe(false);
      expect(searchIn({ meta: { 'ucp-agent': { profile: 'https://p.example/x' } }, location: { serves: {} } })).toBe(false);
      expect(lookupIn({ meta: { 'ucp-agent': { profile: 'https://p.example/x' } }, location: { ids: [] } })).toBe(false);
      expect(lookupOut({ ucp: { version: '2026-08-25' }, locations: [{ id: 'a', name: 'A' }] })).toBe(false);
      expect(searchOut({ ucp: { version: '2026-08-25' }, locations: [{ id: 'a' }] })).toBe(false);
    });
  }

  it('agrees with validateSearchRequest on generated requests (bundle ≡ multi-document schema)', () => {
    const ajv = new Ajv2020({ strict: false });
    ajvFormats.default(ajv);
    const bundled = ajv.compile(tools.search_locations.inputSchema);
    const meta = { 'ucp-agent': { profile: 'https://platform.example/profile.json' } };
    // Each field is valid most of the time, so both outcomes occur often.
    const mostly = <T, U>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<U>) =>
      fc.oneof({ arbitrary: good, weight: 6 }, { arbitrary: bad, weight: 1 });
    const coordinate = mostly(
      fc.double({ min: -90, max: 90, noNaN: true }),
      fc.oneof(fc.double({ min: -500, max: 500, noNaN: true }), fc.constant('1')),
    );
    const geo = mostly(fc.record({ latitude: coordinate, longitude: coordinate }), fc.record({ latitude: coordinate }));
    const target = fc.oneof(
      fc.record({ point: geo }),
      fc.record({
        address: mostly(fc.record({ address_country: fc.constantFrom('US', 'DE') }), fc.record({ postal_code: fc.constant('') })),
      }),
      fc.record({ 'com.example.zone': fc.string({ maxLength: 3 }) }),
      fc.constant({}),
      fc.constant({ zone: 'n' }),
      fc.record({ point: geo, address: fc.constant({ address_country: 'US' }) }),
    );
    const request = fc.record(
      {
        query: mostly(fc.string({ maxLength: 5 }), fc.integer()),
        distance: mostly(
          fc.record({ center: geo, max: mostly(fc.double({ min: 0, max: 1e6, noNaN: true }), fc.constantFrom(-1, '5')) }),
          fc.record({ max: fc.constant(1) }),
        ),
        serves: target,
        filters: fc.record(
          {
            hours: fc.record({
              open_at: mostly(
                fc.constantFrom('2026-11-30T10:00:00Z', '2026-03-29T02:30:00+01:00'),
                fc.constantFrom('2026-11-30T10:00:00', 'x'),
              ),
            }),
            amenities: fc.array(mostly(fc.constantFrom('dev.ucp.amenity.wi_fi', 'com.example.amenity.car_wash'), fc.constant('WiFi')), {
              maxLength: 2,
            }),
            items: fc.array(mostly(fc.string({ maxLength: 3 }), fc.integer()), { maxLength: 2 }),
          },
          { requiredKeys: [] },
        ),
        pagination: fc.record(
          { limit: mostly(fc.integer({ min: 1, max: 50 }), fc.constantFrom(0, 1.5)), cursor: fc.string({ maxLength: 3 }) },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: [] },
    );
    const outcomes = { accepted: 0, rejected: 0 };
    fc.assert(
      fc.property(request, (location) => {
        let accepted = true;
        try {
          validateSearchRequest(location);
        } catch {
          accepted = false;
        }
        outcomes[accepted ? 'accepted' : 'rejected'] += 1;
        expect(bundled({ meta, location })).toBe(accepted);
      }),
      { numRuns: 400 },
    );
    // the comparison is only meaningful if both outcomes were exercised
    expect(outcomes.accepted).toBeGreaterThan(40);
    expect(outcomes.rejected).toBeGreaterThan(40);
  });

  it('returns the same frozen object every time', () => {
    expect(mcpToolSchemas()).toBe(tools);
    expect(Object.isFrozen(tools.search_locations.inputSchema)).toBe(true);
  });
});
