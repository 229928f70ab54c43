/**
 * Budgets nobody else can spend (issue 15, R-P2, R-G2, R-G7): the real server on the demo dataset,
 * run in-process (its node:http listener, requests injected without a socket). Several client
 * addresses are simulated as requests from 127.0.0.2, 127.0.0.3, … (the address the server sees,
 * as if connecting from each; every 127.x address is local on Linux loopback). Platform profiles
 * come from a loopback test server under host names an injected resolver maps to 127.0.0.1.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PLATFORM_PROFILE_URL } from '../../src/server.js';
import type { RunningServer } from '../../src/server.js';
import { rawRequest } from '../../src/transport/test-support/raw-http.js';
import type { RawResponse } from '../../src/transport/test-support/raw-http.js';
import { startInProcessServer } from '../support/in-process-server.js';
import { useDiscoveryPlatforms } from './support/discovery-platforms.js';

/** Profiles under `<tag>.budget.test`, each name an origin of its own. */
const { serve, freshProfile } = useDiscoveryPlatforms('budget.test', startInProcessServer);

function post(url: string, body: unknown, from: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return rawRequest(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    localAddress: from,
  });
}

function toolCall(profile: string, id: number | string = 1): Record<string, unknown> {
  return {
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'lookup_locations', arguments: { meta: { 'ucp-agent': { profile } }, location: { ids: ['loc_1'] } } },
  };
}

const mcp = (server: RunningServer, body: unknown, from: string): Promise<RawResponse> => post(`${server.url}/ucp/mcp`, body, from);
const rest = (server: RunningServer, body: unknown, from: string, profile = DEMO_PLATFORM_PROFILE_URL): Promise<RawResponse> =>
  post(`${server.url}/ucp/locations/lookup`, body, from, { 'ucp-agent': `profile="${profile}"` });

function expectMcp429(r: RawResponse): void {
  expect(r.status).toBe(429);
  expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
  expect(r.json).toMatchObject({ jsonrpc: '2.0', error: { code: -32000, data: { retry_after: expect.any(Number) as number } } });
}

function expectRest429(r: RawResponse): void {
  expect(r.status).toBe(429);
  expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
  expect(r.json).toMatchObject({ messages: [{ code: 'rate_limited' }] });
}

const deep = (depth: number): string => `{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`;

describe('R-P2: invalid requests are charged to the caller’s address before any work (fails before: never charged)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await serve({ rateLimits: { perIp: { limit: 6, windowSeconds: 60 } } });
  });

  it('MCP: garbage, deep nesting and non-JSON-RPC bodies count; past the budget every request gets 429/-32000 with retry_after', async () => {
    const from = '127.0.0.11';
    const junk = ['{not json', deep(10_000), '{"jsonrpc":"1.0"}', '[]', '"x"', '{"jsonrpc":"2.0","id":1,"method":5}'];
    for (const body of junk) expect((await mcp(server, body, from)).status).toBe(400);
    expectMcp429(await mcp(server, deep(10_000), from));
    expectMcp429(await mcp(server, toolCall(DEMO_PLATFORM_PROFILE_URL), from));
    // Another address is unaffected.
    expect((await mcp(server, toolCall(DEMO_PLATFORM_PROFILE_URL), '127.0.0.12')).status).toBe(200);
  });

  it('REST: the same, with 429 and Retry-After', async () => {
    const from = '127.0.0.13';
    for (let i = 0; i < 6; i++) expect((await rest(server, i % 2 === 0 ? deep(10_000) : '{"ids": 5}', from)).status).toBe(400);
    expectRest429(await rest(server, { ids: ['loc_1'] }, from));
  });

  it('MCP: each message of a batch counts as a request', async () => {
    const from = '127.0.0.14';
    const batch = Array.from({ length: 5 }, (_, i) => toolCall(DEMO_PLATFORM_PROFILE_URL, i));
    expect((await mcp(server, batch, from)).status).toBe(200); // 5 of 6
    // 1 more fits, 5 do not: refused as a whole, each element with its own id (R-J1).
    const refused = await mcp(server, batch, from);
    expect(refused.status).toBe(429);
    expect((refused.json as { id: unknown; error: { code: number } }[]).map((a) => [a.id, a.error.code])).toEqual(
      batch.map((_, i) => [i, -32000]),
    );
  });
});

describe('R-P2: a third party cannot spend a Platform’s per-profile budget (fails before: the real caller got 429)', () => {
  it('batched calls from other addresses naming a pre-approved profile URL leave its real caller served, on both bindings', async () => {
    // A pool of 100 calls per minute for the profile, 10 of which (the default clientShare, 0.1)
    // each address keeps for itself.
    const server = await serve({
      rateLimits: { perIp: { limit: 10_000, windowSeconds: 60 }, perProfile: { limit: 100, windowSeconds: 60 } },
    });
    const batch = Array.from({ length: 20 }, (_, i) => toolCall(DEMO_PLATFORM_PROFILE_URL, i));
    const refusedAttackers = new Set<string>();
    for (let round = 0; round < 8; round++) {
      for (const from of ['127.0.0.2', '127.0.0.3']) {
        const r = await mcp(server, batch, from);
        if (r.status === 429) refusedAttackers.add(from);
      }
    }
    // The attackers did spend the pool (and their own shares): they are refused now.
    expect([...refusedAttackers].sort()).toEqual(['127.0.0.2', '127.0.0.3']);
    // The Platform itself, calling from its own address, is not.
    for (let i = 0; i < 5; i++) {
      const viaMcp = await mcp(server, toolCall(DEMO_PLATFORM_PROFILE_URL, i), '127.0.0.1');
      expect(viaMcp.status).toBe(200);
      expect(viaMcp.json).toMatchObject({ result: { structuredContent: { ucp: { version: expect.any(String) as string } } } });
      expect((await rest(server, { ids: ['loc_1'] }, '127.0.0.1')).status).toBe(200);
    }
  });
});

describe('R-G2: each client spends only its share of the new-origin discovery budget', () => {
  it('one address asking for many new Platform origins is refused (429, -32000: a rate limit, R-G7) while another address still reaches a new one', async () => {
    const server = await serve({});
    const greedy = '127.0.0.31';
    const statuses: unknown[] = [];
    // The default budget: 20 new origins at once, 5 of them per client.
    for (let i = 0; i < 6; i++) {
      const r = await mcp(server, toolCall(freshProfile(`greedy${i}`)), greedy);
      statuses.push((r.json as { error?: { code: number }; result?: unknown }).error?.code ?? 'ok');
    }
    expect(statuses).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', -32000]);
    const refused = await mcp(server, toolCall(freshProfile('greedy9')), greedy);
    expectMcp429(refused);
    expect((refused.json as { error: { message: string } }).error.message).toMatch(/too many platform profiles on new hosts/);
    expect((await mcp(server, toolCall(freshProfile('polite')), '127.0.0.32')).json).toMatchObject({ result: {} });
  });
});

describe('rateLimits.enabled: false disables every budget (the pre-read charge and discovery shares included)', () => {
  it('tiny budgets are ignored: invalid and valid calls, batches and new origins from one address all pass', async () => {
    const tiny = { limit: 1, windowSeconds: 60 };
    const server = await serve({ rateLimits: { enabled: false, perIp: tiny, perProfile: tiny, itemSearch: tiny } });
    const from = '127.0.0.41';
    for (let i = 0; i < 10; i++) expect((await mcp(server, deep(10_000), from)).status).toBe(400);
    for (let i = 0; i < 5; i++) expect((await rest(server, { ids: ['loc_1'] }, from)).status).toBe(200);
    const batch = Array.from({ length: 20 }, (_, i) => toolCall(DEMO_PLATFORM_PROFILE_URL, i));
    expect((await mcp(server, batch, from)).status).toBe(200);
    // 25 new origins from one address: beyond both the per-client share (5) and the global burst (20).
    for (let i = 0; i < 25; i++) {
      const r = await mcp(server, toolCall(freshProfile(`open${i}`)), from);
      expect(r.json, `origin ${i}`).toMatchObject({ result: {} });
    }
  });
});
