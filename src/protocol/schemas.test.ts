import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { registerAnnotationKeywords } from './schema-annotations.js';
import { SchemaGraph } from './schema-graph.js';
import { resolveUri, walkSchema } from './schema-walk.js';
import {
  LOCATION_LOOKUP_SCHEMA_URL,
  LOCATION_SEARCH_SCHEMA_URL,
  UCP_METADATA_SCHEMA_URL,
  UCP_SCHEMA_BASE,
  pinnedSchemaDocuments,
  pinnedSchemaRegistry,
} from './schemas.js';
import { LOCATION_MCP_SEED, OVERVIEW_SEED, seedJsonExamples } from './test-support/seed-json.js';

const docs = pinnedSchemaDocuments();

describe('pinned release schemas', () => {
  it('give every document a stable $id under https://ucp.dev/2026-08-25/schemas/ matching its file path', () => {
    expect(docs.size).toBeGreaterThanOrEqual(30);
    for (const [url, doc] of docs) {
      expect(url.startsWith(UCP_SCHEMA_BASE)).toBe(true);
      expect(doc.$id).toBe(url);
      expect(doc.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    }
    // the profile schemas belong to the profile validator, not to this registry
    expect([...docs.keys()].some((u) => u.includes('/profile/'))).toBe(false);
  });

  it('publish the capability schemas at the URLs the profile advertises (seed 000 discovery, R-D3)', () => {
    const profile = seedJsonExamples(LOCATION_MCP_SEED).find((e) => 'ucp' in e) as {
      ucp: { capabilities: Record<string, { schema: string }[]> };
    };
    const advertised = Object.fromEntries(Object.entries(profile.ucp.capabilities).map(([name, entries]) => [name, entries[0]?.schema]));
    expect(advertised).toEqual({
      'dev.ucp.common.location.search': LOCATION_SEARCH_SCHEMA_URL,
      'dev.ucp.common.location.lookup': LOCATION_LOOKUP_SCHEMA_URL,
    });
    const search = docs.get(LOCATION_SEARCH_SCHEMA_URL);
    const lookup = docs.get(LOCATION_LOOKUP_SCHEMA_URL);
    expect(search?.name).toBe('dev.ucp.common.location.search');
    expect(lookup?.name).toBe('dev.ucp.common.location.lookup');
    expect(Object.keys(search?.$defs as object).sort()).toEqual(['search_request', 'search_response']);
    expect(Object.keys(lookup?.$defs as object).sort()).toEqual(['lookup_location', 'lookup_request', 'lookup_response']);
  });

  it('compile in Ajv strict mode (no unknown keywords, no untyped type-specific keywords, well-formed x-hint/x-error)', () => {
    const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true });
    ajvFormats.default(ajv);
    registerAnnotationKeywords(ajv, { checkProjectKeywords: true });
    for (const [url, doc] of docs) ajv.addSchema(doc, url);
    for (const url of docs.keys()) expect(() => ajv.getSchema(url), url).not.toThrow();
  });

  it('resolve every $ref to a schema node held in the release', () => {
    const graph = new SchemaGraph();
    for (const [url, doc] of docs) graph.addDocument(url, doc);
    const dangling: string[] = [];
    for (const [url, doc] of docs) {
      walkSchema(doc, url, (node, base) => {
        if (typeof node.$ref === 'string' && graph.resolveRef(node.$ref, node) === undefined) {
          dangling.push(`${url}: ${node.$ref} (→ ${resolveUri(node.$ref, base)})`);
        }
      });
    }
    expect(dangling).toEqual([]);
  });

  it('model amenities as a map keyed by reverse-domain id → {description} (seed, not the draft array)', () => {
    const location = docs.get(`${UCP_SCHEMA_BASE}common/types/location.json`);
    const amenities = (location?.properties as Record<string, Record<string, unknown>>).amenities;
    expect(amenities?.type).toBe('object');
    expect(amenities?.propertyNames).toEqual({ $ref: 'amenity_type.json' });
    expect(amenities?.additionalProperties).toEqual({ $ref: 'amenity.json' });
    const amenity = docs.get(`${UCP_SCHEMA_BASE}common/types/amenity.json`);
    expect(amenity?.required).toEqual(['description']);
  });

  it('replace the draft filters.inventory with filters.items: string[] (seed)', () => {
    const filter = docs.get(`${UCP_SCHEMA_BASE}common/types/location_filter.json`);
    const props = filter?.properties as Record<string, unknown>;
    expect(Object.keys(props).sort()).toEqual(['amenities', 'hours', 'items']);
    expect(props.items).toMatchObject({ type: 'array', items: { type: 'string' } });
  });

  it('keep the open/closed choices of the draft: open by default, error_response closed', () => {
    const closed: string[] = [];
    for (const [url, doc] of docs) {
      walkSchema(doc, url, (node) => {
        if (node.additionalProperties === false) closed.push(url.slice(UCP_SCHEMA_BASE.length));
      });
    }
    expect(closed.sort()).toEqual(['common/types/error_response.json', 'common/types/request_constraints.json']);
  });
});

describe('ucp.json and the registry schemas against the seed examples', () => {
  const registry = pinnedSchemaRegistry();
  const profile = seedJsonExamples(LOCATION_MCP_SEED).find((e) => 'ucp' in e) as { ucp: unknown };

  it('accept the seed 000 discovery profile as Business and as Platform profile metadata (R-D1, R-D2)', () => {
    expect(registry.validator(UCP_METADATA_SCHEMA_URL, 'business_schema')(profile.ucp)).toEqual({ valid: true });
    expect(registry.validator(UCP_METADATA_SCHEMA_URL, 'platform_schema')(profile.ucp)).toEqual({ valid: true });
  });

  it('accept the seed 002 extension, multi-parent and endpoint examples', () => {
    const examples = seedJsonExamples(OVERVIEW_SEED);
    const capabilityEntries = examples
      .filter((e) => Object.keys(e).every((k) => k.startsWith('dev.ucp.')))
      .flatMap((e) => Object.values(e).flat());
    expect(capabilityEntries.length).toBe(2);
    const business = registry.validator(`${UCP_SCHEMA_BASE}capability.json`, 'business_schema');
    const platform = registry.validator(`${UCP_SCHEMA_BASE}capability.json`, 'platform_schema');
    for (const entry of capabilityEntries) {
      expect(business(entry)).toEqual({ valid: true });
      expect(platform(entry)).toEqual({ valid: true });
    }
    const binding = examples.find((e) => e.transport === 'rest');
    expect(registry.validator(`${UCP_SCHEMA_BASE}service.json`, 'business_schema')(binding)).toEqual({ valid: true });
  });

  it('reject a Business MCP binding without endpoint and a non-date version (R-D2)', () => {
    const v = registry.validator(UCP_METADATA_SCHEMA_URL, 'business_schema');
    const services = (profile.ucp as { services: Record<string, Record<string, unknown>[]> }).services;
    const [binding] = services['dev.ucp.common'] ?? [];
    const { endpoint: _omitted, ...withoutEndpoint } = binding ?? {};
    const broken = { ...(profile.ucp as object), version: 'draft', services: { 'dev.ucp.common': [withoutEndpoint] } };
    const r = v(broken);
    expect(r.valid).toBe(false);
    const pointers = r.valid ? [] : r.errors.map((e) => e.pointer);
    expect(pointers).toContain('/version');
    expect(pointers.some((p) => p.startsWith('/services/dev.ucp.common/0'))).toBe(true);
  });

  it('accept a capabilities_incompatible error body and reject extra members (error_response is closed, R-G5)', () => {
    const v = registry.validator(`${UCP_SCHEMA_BASE}common/types/error_response.json`);
    const body = {
      ucp: { version: '2026-08-25', status: 'error', capabilities: {} },
      messages: [{ type: 'error', code: 'capabilities_incompatible', content: 'No shared capability', severity: 'unrecoverable' }],
      continue_url: 'https://business.example.com/',
    };
    expect(v(body)).toEqual({ valid: true });
    const r = v({ ...body, locations: [] });
    expect(r).toEqual({ valid: false, errors: [{ pointer: '', message: 'has unknown property "locations", which is not allowed here' }] });
    expect(v({ ...body, ucp: { version: '2026-08-25' } }).valid).toBe(false);
  });
});
