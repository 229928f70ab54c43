import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SchemaRegistry } from './schema-registry.js';
import { evaluatePointer } from './schema-walk.js';
import { LOCATION_SEARCH_SCHEMA_URL, UCP_SCHEMA_BASE, pinnedSchemaRegistry, prefixIssues, summarizeIssues } from './schemas.js';

const URL = 'https://example.com/ucp/shapes.json';

/** Synthetic shapes exercising each collapsing rule. */
const shapes = {
  $id: URL,
  $defs: {
    message: {
      oneOf: [
        { type: 'object', required: ['type', 'code'], properties: { type: { const: 'error' }, code: { type: 'string' } } },
        { type: 'object', required: ['type', 'content'], properties: { type: { const: 'info' }, content: { type: 'string' } } },
      ],
    },
    either: { oneOf: [{ type: 'integer' }, { type: 'number', minimum: 0 }] },
    nested: {
      type: 'object',
      properties: {
        v: {
          anyOf: [
            { type: 'string' },
            { type: 'object', properties: { w: { anyOf: [{ type: 'boolean' }, { type: 'object', required: ['z'] }] } } },
          ],
        },
      },
    },
    keys: { type: 'object', propertyNames: { pattern: '^[a-z]+$', 'x-hint': 'lower-case letters only' } },
    hinted: {
      type: 'object',
      required: ['size'],
      properties: { size: { type: 'integer', minimum: 1, 'x-hint': 'centimetres' } },
      'x-error': { minProperties: 'needs something' },
      minProperties: 2,
    },
  },
};

function registry(): SchemaRegistry {
  const r = new SchemaRegistry();
  r.addSchema(URL, shapes);
  return r;
}

describe('explainValidationErrors (through compiled validators)', () => {
  const r = registry();
  const v = (def: string) => r.validator(URL, def);

  it('keeps the branch the data meant when a oneOf is discriminated by a const', () => {
    expect(v('message')({ type: 'info' })).toEqual({
      valid: false,
      errors: [{ pointer: '', message: 'missing required property "content"' }],
    });
  });

  it('lists the accepted discriminator values when no branch fits', () => {
    expect(v('message')({ type: 'warn', content: 'x' })).toEqual({
      valid: false,
      errors: [{ pointer: '/type', message: 'must be one of: "error", "info"; got "warn"' }],
    });
  });

  it('names every accepted type when the value has none of them', () => {
    const capabilityBase = pinnedSchemaRegistry().validator(`${UCP_SCHEMA_BASE}capability.json`, 'base');
    expect(capabilityBase({ version: '2026-08-25', extends: 5 })).toEqual({
      valid: false,
      errors: [{ pointer: '/extends', message: 'must be string or array; got integer' }],
    });
  });

  it('says when a value matches more than one oneOf alternative', () => {
    expect(v('either')(3)).toEqual({
      valid: false,
      errors: [{ pointer: '', message: 'matches more than one of the allowed shapes (alternatives 0 and 1); it must match exactly one' }],
    });
  });

  it('collapses nested anyOf down to the innermost plausible problem', () => {
    expect(v('nested')({ v: { w: {} } })).toEqual({
      valid: false,
      errors: [{ pointer: '/v/w', message: 'missing required property "z"' }],
    });
  });

  it('reports an invalid key once, with why the key fails', () => {
    expect(v('keys')({ ok: 1, Bad: 2 })).toEqual({
      valid: false,
      errors: [{ pointer: '', message: 'has an invalid key "Bad" (the key must be lower-case letters only)' }],
    });
    const ucpBase = pinnedSchemaRegistry().validator(`${UCP_SCHEMA_BASE}ucp.json`, 'base');
    const r2 = ucpBase({ version: '2026-08-25', capabilities: { Search: [] } });
    expect(r2.valid ? [] : r2.errors.map((e) => e.pointer)).toEqual(['/capabilities']);
  });

  it('adds x-hint to generic messages (also for a missing property) and uses x-error as a replacement', () => {
    expect(v('hinted')({ size: 0 })).toEqual({
      valid: false,
      errors: [
        { pointer: '', message: 'needs something; got 1: size' },
        { pointer: '/size', message: 'must be >= 1 (centimetres)' },
      ],
    });
    expect(v('hinted')({ other: true, more: 1 })).toEqual({
      valid: false,
      errors: [{ pointer: '', message: 'missing required property "size" (centimetres)' }],
    });
  });
});

describe('issue messages over arbitrary input (properties)', () => {
  const search = pinnedSchemaRegistry().validator(LOCATION_SEARCH_SCHEMA_URL, 'search_request');
  const response = pinnedSchemaRegistry().validator(LOCATION_SEARCH_SCHEMA_URL, 'search_response');
  const keys = fc.constantFrom(
    'query',
    'distance',
    'center',
    'max',
    'serves',
    'point',
    'address',
    'filters',
    'hours',
    'open_at',
    'amenities',
    'items',
    'pagination',
    'limit',
    'latitude',
    'longitude',
    'locations',
    'ucp',
    'version',
    'id',
    'name',
    'messages',
    'type',
    'content',
    'x',
  );
  const json = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.oneof(fc.string({ maxLength: 6 }), fc.double({ noNaN: true }), fc.integer(), fc.boolean(), fc.constant(null)),
      fc.array(tie('value'), { maxLength: 3 }),
      fc.dictionary(keys, tie('value'), { maxKeys: 4 }),
    ),
  })).value;

  it('never yields an empty message, a duplicate, or a pointer outside the input', () => {
    fc.assert(
      fc.property(json, (input) => {
        for (const validate of [search, response]) {
          const r = validate(input);
          if (r.valid) continue;
          expect(r.errors.length).toBeGreaterThan(0);
          const seen = new Set<string>();
          for (const issue of r.errors) {
            expect(issue.message.trim().length).toBeGreaterThan(0);
            expect(evaluatePointer(input, issue.pointer)).not.toBeUndefined();
            const key = `${issue.pointer} ${issue.message}`;
            expect(seen.has(key)).toBe(false);
            seen.add(key);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('never echoes coordinates back (R-P1: no precise buyer location in messages or logs)', () => {
    const outOfRange = fc.oneof(
      fc.double({ min: 90.000001, max: 1e6, noNaN: true }),
      fc.double({ min: -1e6, max: -180.000001, noNaN: true }),
    );
    fc.assert(
      fc.property(outOfRange, outOfRange, (lat, lon) => {
        const r = search({
          distance: { center: { latitude: lat, longitude: lon }, max: 10 },
          serves: { point: { latitude: lat, longitude: lon } },
        });
        expect(r.valid).toBe(false);
        const text = r.valid ? '' : summarizeIssues(r.errors, 99);
        expect(text).not.toContain(String(lat));
        expect(text).not.toContain(String(lon));
      }),
    );
  });
});

describe('summarizeIssues / prefixIssues', () => {
  it('summarizes a few issues and counts the rest', () => {
    const issues = [1, 2, 3, 4].map((n) => ({ pointer: `/a/${n}`, message: `bad ${n}` }));
    expect(summarizeIssues(issues, 2)).toBe('/a/1: bad 1; /a/2: bad 2 (+2 more)');
    expect(summarizeIssues([{ pointer: '', message: 'must be object' }])).toBe('(root): must be object');
    expect(summarizeIssues([])).toBe('is invalid');
  });

  it('re-roots pointers with escaping', () => {
    expect(prefixIssues([{ pointer: '/x', message: 'm' }], ['location', 'a/b'])).toEqual([{ pointer: '/location/a~1b/x', message: 'm' }]);
  });
});
