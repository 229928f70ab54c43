/**
 * End to end: the real server (what `startServer` builds, run in-process: requests reach its
 * node:http listener without a socket) over a real SQLite store file, driven through three
 * bindings — raw JSON-RPC like seed 000's envelopes, the official MCP SDK client, and REST. Every
 * test body runs against each binding, and the payloads must be identical across them. Sockets,
 * the CLI and shutdown are cli-serve.test.ts's and hardening.test.ts's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { createLogger } from '../../src/logging.js';
import { LOOKUP_CAPABILITY, SEARCH_CAPABILITY } from '../../src/protocol/types.js';
import type { RunningServer } from '../../src/server.js';
import { startInProcessServer } from '../support/in-process-server.js';
import { postJson, rawRequest } from '../../src/transport/test-support/raw-http.js';
import { expectNegotiationError, expectRequestError, openBinding } from './support/bindings.js';
import type { Binding, BindingName, Operation, Outcome } from './support/bindings.js';
import { startPlatforms, testResolver } from './support/platform.js';
import type { Platforms } from './support/platform.js';
import { openE2eStore } from './support/store.js';

const BINDINGS: readonly BindingName[] = ['mcp-raw', 'mcp-sdk', 'rest'];
const V = '2026-08-25';
const MAX_RADIUS = 50_000;

let storeFile: Awaited<ReturnType<typeof openE2eStore>>;
let platforms: Platforms;
let server: RunningServer;

beforeAll(async () => {
  storeFile = await openE2eStore();
  platforms = await startPlatforms();
  server = await startInProcessServer({
    host: '127.0.0.1',
    port: 0,
    db: storeFile.path,
    allowLoopbackProfiles: true,
    resolveHost: testResolver,
    logger: createLogger({ level: process.env['E2E_LOG'] === undefined ? 'silent' : 'error', destination: 'stderr' }),
    config: parseConfig({
      cursorSecret: 'e2e-cursor-secret-0123456789abcdef0123456789',
      limits: { maxRadiusMeters: MAX_RADIUS, defaultPageSize: 3 },
      // One address runs every binding's discovery cases here, and each host name costs a lookup
      // from the discovery budget (issue 37): budgets have their own suite (budgets.test.ts).
      rateLimits: { enabled: false },
    }),
  });
});

afterAll(async () => {
  await server?.close();
  await platforms?.close();
  await storeFile?.dispose();
});

/** Requests every binding must answer identically (shared bodies, ARCHITECTURE habit 5). */
const QUERIES: readonly { label: string; operation: Operation; request: Record<string, unknown> }[] = [
  { label: 'free text', operation: 'search', request: { query: 'grocery store' } },
  { label: 'bounded browse', operation: 'search', request: {} },
  {
    label: 'radius around the Ferry Building',
    operation: 'search',
    request: { distance: { center: { latitude: 37.7955, longitude: -122.3937 }, max: 2000 } },
  },
  { label: 'amenity filter', operation: 'search', request: { filters: { amenities: ['dev.ucp.amenity.wi_fi'] } } },
  { label: 'item filter', operation: 'search', request: { filters: { items: ['sku-sourdough'] } } },
  { label: 'serves a point', operation: 'search', request: { serves: { point: { latitude: 37.9, longitude: -122.54 } } } },
  { label: 'page size', operation: 'search', request: { query: 'grocery store', pagination: { limit: 1 } } },
  {
    label: 'lookup with alias, duplicate and unknown id',
    operation: 'lookup',
    request: { ids: ['loc_downtown', 'dt-01', 'loc_downtown', 'nope'] },
  },
  {
    label: 'lookup refined by distance',
    operation: 'lookup',
    request: { ids: ['loc_downtown', 'loc_valley_grocers'], distance: { center: { latitude: 37.7936, longitude: -122.3958 }, max: 500 } },
  },
];

describe.each(BINDINGS)('binding %s', (name) => {
  let binding: Binding;
  beforeAll(async () => {
    binding = await openBinding(name, server.url);
  });
  afterAll(async () => {
    await binding.close();
  });

  const ok = (outcome: Outcome): Record<string, unknown> => {
    if (!outcome.ok) throw new Error(`expected success, got ${outcome.httpStatus} ${outcome.message}`);
    return outcome.payload;
  };

  it('searches by free text with the operation capability alone in ucp (R-G6, seed 000 envelope)', async () => {
    const payload = ok(await binding.call('search', { query: 'grocery store' }, platforms.good));
    expect(payload['ucp']).toEqual({ version: V, capabilities: { [SEARCH_CAPABILITY]: [{ version: V }] } });
    const ids = (payload['locations'] as { id: string }[]).map((l) => l.id);
    expect(ids).toContain('loc_valley_grocers');
    expect(ids).not.toContain('loc_dark_kitchen'); // R-S11: private locations never appear
  });

  it('looks up by id and alias, one Location with one inputs entry per distinct id (R-L1)', async () => {
    const payload = ok(await binding.call('lookup', { ids: ['loc_downtown', 'dt-01'] }, platforms.good));
    expect(payload['ucp']).toEqual({ version: V, capabilities: { [LOOKUP_CAPABILITY]: [{ version: V }] } });
    expect(payload['locations']).toEqual([
      expect.objectContaining({ id: 'loc_downtown', inputs: [{ id: 'loc_downtown' }, { id: 'dt-01' }] }),
    ]);
  });

  it('pages with an opaque cursor (R-S9)', async () => {
    const first = ok(await binding.call('search', { query: 'grocery store', pagination: { limit: 1 } }, platforms.good));
    const page = first['pagination'] as { has_next_page: boolean; cursor?: string };
    expect(page.has_next_page).toBe(true);
    const second = ok(
      await binding.call('search', { query: 'grocery store', pagination: { limit: 1, cursor: page.cursor } }, platforms.good),
    );
    const a = (first['locations'] as { id: string }[])[0]?.id;
    const b = (second['locations'] as { id: string }[])[0]?.id;
    expect(b).toBeDefined();
    expect(b).not.toBe(a);
  });

  it('answers capabilities_incompatible as a successful result with ucp.status "error" (R-G5)', async () => {
    const payload = ok(await binding.call('search', { query: 'grocery store' }, platforms.lookupOnly));
    expect(payload).toEqual({
      ucp: { version: V, status: 'error' },
      messages: [
        {
          type: 'error',
          code: 'capabilities_incompatible',
          content: expect.stringContaining(SEARCH_CAPABILITY),
          severity: 'unrecoverable',
        },
      ],
    });
    // the same platform can still look up
    expect(ok(await binding.call('lookup', { ids: ['loc_downtown'] }, platforms.lookupOnly))['ucp']).toEqual({
      version: V,
      capabilities: { [LOOKUP_CAPABILITY]: [{ version: V }] },
    });
  });

  it('rejects a radius over the cap instead of clamping it (R-S4)', async () => {
    const outcome = await binding.call(
      'search',
      { distance: { center: { latitude: 37.79, longitude: -122.39 }, max: MAX_RADIUS + 1 } },
      platforms.good,
    );
    expectRequestError(name, outcome, { code: 'radius_too_large', pointer: '/distance/max' });
    if (!outcome.ok) expect(outcome.message).toContain(String(MAX_RADIUS));
  });

  it('rejects a cursor it did not issue (R-S9)', async () => {
    const outcome = await binding.call('search', { query: 'grocery store', pagination: { cursor: 'not-a-cursor' } }, platforms.good);
    expectRequestError(name, outcome, { code: 'invalid_cursor', pointer: '/pagination/cursor' });
  });

  it('rejects an invalid serves map (R-S5)', async () => {
    expectRequestError(name, await binding.call('search', { serves: {} }, platforms.good), { pointer: '/serves' });
    expectRequestError(
      name,
      await binding.call(
        'search',
        { serves: { point: { latitude: 1, longitude: 2 }, address: { address_country: 'US' } } },
        platforms.good,
      ),
      {
        pointer: '/serves',
      },
    );
  });

  it('refuses a serves.address it cannot evaluate with serves_target_unsupported and the pointer, never an empty success (R-C4)', async () => {
    const region = await binding.call(
      'search',
      { serves: { address: { address_country: 'US', address_region: 'Narnia' } } },
      platforms.good,
    );
    expectRequestError(name, region, { code: 'serves_target_unsupported', pointer: '/serves/address/address_region' });
    const country = await binding.call('search', { serves: { address: { address_country: 'Atlantis' } } }, platforms.good);
    expectRequestError(name, country, { code: 'serves_target_unsupported', pointer: '/serves/address/address_country' });
    if (!country.ok) expect(country.message).toMatch(/alpha-2 code.*English or local name/);
  });

  it('rejects a lookup without ids (schema, R-M3)', async () => {
    expectRequestError(name, await binding.call('lookup', {}, platforms.good), { pointer: '' });
  });

  it('answers version_unsupported for a platform on another release (R-G3)', async () => {
    expectNegotiationError(name, await binding.call('search', {}, platforms.oldVersion), 'version_unsupported');
  });

  it('refuses a platform profile that resolves to a private address, without connecting (R-N4, R-P3)', async () => {
    const outcome = await binding.call('search', {}, platforms.privateAddress);
    expectNegotiationError(name, outcome, 'invalid_profile_url');
    if (!outcome.ok) expect(outcome.message).not.toContain('10.0.0.5'); // never leak what a name resolved to
  });

  it('does not follow a redirecting profile URL (R-N3)', async () => {
    const before = platforms.hits();
    expectNegotiationError(name, await binding.call('search', {}, platforms.redirect), 'profile_unreachable');
    const after = platforms.hits();
    expect(after.main).toBe(before.main); // the redirect target was never fetched
  });

  it('refuses an oversize profile (R-N4 size bound)', async () => {
    expectNegotiationError(name, await binding.call('search', {}, platforms.oversize), 'profile_unreachable');
  });

  it('refuses a profile URL that is not a URL', async () => {
    expectNegotiationError(name, await binding.call('search', {}, 'not a url'), 'invalid_profile_url');
  });

  it('keeps serving after every error above', async () => {
    const payload = ok(await binding.call('lookup', { ids: ['loc_valley_grocers'] }, platforms.good));
    expect((payload['locations'] as unknown[]).length).toBe(1);
  });
});

describe('the same query gives the same payload on every binding', () => {
  let bindings: Binding[];
  beforeAll(async () => {
    bindings = await Promise.all(BINDINGS.map((n) => openBinding(n, server.url)));
  });
  afterAll(async () => {
    await Promise.all(bindings.map((b) => b.close()));
  });

  it.each(QUERIES)('$label', async ({ operation, request }) => {
    const outcomes = await Promise.all(bindings.map((b) => b.call(operation, request, platforms.good)));
    for (const o of outcomes) expect(o.ok).toBe(true);
    const [first, ...rest] = outcomes;
    for (const other of rest) expect(other).toEqual(first);
    const payload = (first as unknown as { payload: { ucp: { version: string; capabilities: Record<string, unknown> } } }).payload;
    expect(payload.ucp.version).toBe(V);
    expect(Object.keys(payload.ucp.capabilities)).toEqual([operation === 'search' ? SEARCH_CAPABILITY : LOOKUP_CAPABILITY]);
  });
});

describe('MCP envelope errors, raw JSON-RPC (R-M1)', () => {
  const mcp = (): string => `${server.url}/ucp/mcp`;

  it('answers malformed JSON with -32700 and a wrong JSON-RPC shape with -32600', async () => {
    const parse = await postJson(mcp(), '{"jsonrpc":"2.0",');
    expect(parse.status).toBe(400);
    expect(parse.json).toMatchObject({ id: null, error: { code: -32700 } });
    const shape = await postJson(mcp(), { jsonrpc: '1.0', id: 9, method: 'tools/call' });
    expect(shape.status).toBe(400);
    expect(shape.json).toMatchObject({ id: 9, error: { code: -32600 } });
  });

  it('answers an unknown tool and a missing meta with -32602 and a pointer', async () => {
    const unknown = await postJson(mcp(), {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'nearby_stores', arguments: {} },
    });
    expect(unknown.json).toMatchObject({ error: { code: -32602, data: { code: 'unknown_tool' } } });
    const noMeta = await postJson(mcp(), {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'search_locations', arguments: { location: {} } },
    });
    expect(noMeta.json).toMatchObject({ error: { code: -32602, data: { pointer: '/meta' } } });
  });

  it('lists both tools with the seed descriptions and self-contained schemas (R-M2)', async () => {
    const res = await postJson(mcp(), { jsonrpc: '2.0', id: 3, method: 'tools/list' });
    const tools = (res.json as { result: { tools: { name: string; description: string; inputSchema: object; outputSchema: object }[] } })
      .result.tools;
    // The seed's sentence first; the operands, units and limits for models follow it.
    expect(tools.map((t) => [t.name, t.description.split('\n')[0]])).toEqual([
      ['search_locations', 'Search for Locations using text, explicit spatial relations, and filters.'],
      ['lookup_locations', 'Batch lookup Locations by identifier, optionally refined by explicit spatial relations and filters.'],
    ]);
    for (const t of tools) {
      expect(JSON.stringify(t.inputSchema)).not.toMatch(/"\$ref":"(?!#)/); // every $ref is local
      expect(JSON.stringify(t.outputSchema)).not.toMatch(/"\$ref":"(?!#)/);
    }
  });

  it('initializes statelessly: no session id, tools capability', async () => {
    const res = await postJson(mcp(), {
      jsonrpc: '2.0',
      id: 4,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(res.status).toBe(200);
    expect(res.headers['mcp-session-id']).toBeUndefined();
    expect(res.json).toMatchObject({
      result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'ucp-location' } },
    });
  });
});

describe('REST envelope errors', () => {
  it('answers a missing UCP-Agent header with 400 invalid_profile_url and malformed JSON with 400', async () => {
    const noAgent = await postJson(`${server.url}/ucp/locations/search`, {});
    expect(noAgent.status).toBe(400);
    expect(noAgent.json).toMatchObject({ ucp: { version: V, status: 'error' }, messages: [{ code: 'invalid_profile_url' }] });
    const bad = await postJson(`${server.url}/ucp/locations/search`, '{"query":', { 'ucp-agent': `profile="${platforms.good}"` });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ messages: [{ code: 'invalid_json' }] });
    expect((await rawRequest(`${server.url}/.well-known/ucp`)).status).toBe(200);
  });
});

describe('rate limits (R-P2)', () => {
  let limited: RunningServer;
  beforeAll(async () => {
    limited = await startInProcessServer({
      host: '127.0.0.1',
      port: 0,
      db: storeFile.path,
      allowLoopbackProfiles: true,
      resolveHost: testResolver,
      logger: createLogger({ level: process.env['E2E_LOG'] === undefined ? 'silent' : 'error', destination: 'stderr' }),
      config: parseConfig({ rateLimits: { itemSearch: { limit: 2, windowSeconds: 600 } } }),
    });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it.each(BINDINGS)('%s: a third item search in the window gets 429 with retry_after; other searches still pass', async (name) => {
    const binding = await openBinding(name, limited.url);
    try {
      const profile = platforms.fresh(`rl-${name}`);
      const itemSearch = { filters: { items: ['sku-apple-gala'] } };
      // The per-IP item budget is shared by the bindings; spend whatever is left of it.
      let outcome: Outcome = await binding.call('search', itemSearch, profile);
      for (let i = 0; i < 3 && outcome.ok; i++) outcome = await binding.call('search', itemSearch, profile);
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.httpStatus).toBe(429);
      expect(outcome.retryAfter).toBeGreaterThan(0);
      if (name !== 'rest') expect(outcome.rpcCode).toBe(-32000);
      else expect(outcome.ucpCode).toBe('rate_limited');
      const plain = await binding.call('search', { query: 'grocery store' }, profile);
      expect(plain.ok).toBe(true);
    } finally {
      await binding.close();
    }
  });
});
