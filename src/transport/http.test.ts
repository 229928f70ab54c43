/**
 * HTTP plumbing of the business server on a real loopback socket, with a scripted engine (so
 * failures such as "store down" can be produced at will) and a real Platform profile resolver
 * against a tiny loopback profile server. End-to-end behaviour with the real engine and schemas
 * is covered in test/e2e.
 */
import { Agent } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../config.js';
import { RateLimitedError, ServiceUnavailableError, StoreError } from '../errors.js';
import { checkProfileHosting } from '../protocol/profile-hosting.js';
import { LOOKUP_CAPABILITY, SEARCH_CAPABILITY } from '../protocol/types.js';
import { json, startTestServer } from '../../test/support/http-server.js';
import type { TestServer } from '../../test/support/http-server.js';
import { listenUcpHttp } from './app.js';
import type { ListeningUcp, UcpAppParts } from './app.js';
import { fakeAppParts, platformProfile, ScriptedService } from './test-support/fake-parts.js';
import { postJson, rawRequest } from './test-support/raw-http.js';

let platform: TestServer;
let ucp: ListeningUcp;
let service: ScriptedService;
let profileUrl: string;

function parts(svc: ScriptedService, configInput: Record<string, unknown> = {}): UcpAppParts {
  const config = parseConfig({
    rateLimits: { perIp: { limit: 1000, windowSeconds: 60 }, perProfile: { limit: 1000, windowSeconds: 60 } },
    ...configInput,
  });
  return fakeAppParts(svc, config);
}

beforeAll(async () => {
  platform = await startTestServer();
  platform.route('/profile.json', json(platformProfile(), { 'cache-control': 'public, max-age=300' }));
  profileUrl = `${platform.origin('127.0.0.1')}/profile.json`;
  service = new ScriptedService();
  ucp = await listenUcpHttp(parts(service), { host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await ucp.http.close();
  await platform.close();
});

const mcpUrl = (): string => `${ucp.url}/ucp/mcp`;
const call = (name: string, args: unknown, id: number | string = 1): unknown => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

describe('GET /.well-known/ucp (R-D1, R-D5)', () => {
  it('serves the profile with public caching, a strong ETag and no redirect', async () => {
    const res = await rawRequest(`${ucp.url}/.well-known/ucp`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.headers['etag']).toMatch(/^"[^"]+"$/);
    const profile = res.json as { ucp: { version: string; services: Record<string, { endpoint: string }[]> } };
    expect(profile.ucp.version).toBe('2026-08-25');
    expect(profile.ucp.services['dev.ucp.common']?.map((s) => s.endpoint)).toEqual([`${ucp.baseUrl}/ucp/mcp`, `${ucp.baseUrl}/ucp`]);
    // Every hosting rule but https (a loopback test server cannot have it) holds.
    const problems = checkProfileHosting({ url: `${ucp.url}/.well-known/ucp`, status: res.status, headers: res.headers });
    expect(problems.map((p) => p.rule)).toEqual(['https']);
  });

  it('answers 304 to a matching If-None-Match and headers only to HEAD', async () => {
    const first = await rawRequest(`${ucp.url}/.well-known/ucp`);
    const etag = String(first.headers['etag']);
    const again = await rawRequest(`${ucp.url}/.well-known/ucp`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers['etag']).toBe(etag);
    const head = await rawRequest(`${ucp.url}/.well-known/ucp`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(first.text.length));
    expect(head.text).toBe('');
  });

  it('never redirects: a trailing slash is a 404 and POST is a 405 naming the allowed methods', async () => {
    expect((await rawRequest(`${ucp.url}/.well-known/ucp/`)).status).toBe(404);
    const post = await rawRequest(`${ucp.url}/.well-known/ucp`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers['allow']).toBe('GET, HEAD, OPTIONS');
  });
});

describe('MCP over Streamable HTTP (R-M1, R-M2)', () => {
  it('answers a bare tools/call POST (no initialize, no Accept) with JSON carrying structuredContent and text', async () => {
    const res = await postJson(
      mcpUrl(),
      call('search_locations', { meta: { 'ucp-agent': { profile: profileUrl } }, location: { query: 'grocery store' } }),
    );
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    const body = res.json as { id: number; result: { structuredContent: unknown; content: { type: string; text: string }[] } };
    expect(body.id).toBe(1);
    expect(body.result.structuredContent).toEqual({
      ucp: { version: '2026-08-25', capabilities: { [SEARCH_CAPABILITY]: [{ version: '2026-08-25' }] } },
      locations: [{ id: 'loc_valley_grocers', name: 'Valley Grocers' }],
      pagination: { has_next_page: false },
    });
    expect(body.result.content).toEqual([{ type: 'text', text: JSON.stringify(body.result.structuredContent) }]);
  });

  it('also accepts Accept: application/json alone', async () => {
    const res = await postJson(mcpUrl(), { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { accept: 'application/json' });
    expect(res.status).toBe(200);
    const tools = (res.json as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name);
    expect(tools).toEqual(['search_locations', 'lookup_locations']);
  });

  it('maps malformed JSON to -32700 and a non-JSON-RPC body to -32600, both HTTP 400', async () => {
    const parse = await postJson(mcpUrl(), '{"jsonrpc": "2.0", "id": 1, ');
    expect(parse.status).toBe(400);
    expect(parse.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    const shape = await postJson(mcpUrl(), { id: 4, method: 'tools/call' });
    expect(shape.status).toBe(400);
    expect(shape.json).toMatchObject({ id: 4, error: { code: -32600 } });
  });

  it('maps an unknown method to -32601 and bad tools/call params to -32602 (not the SDK -32603)', async () => {
    const unknown = await postJson(mcpUrl(), { jsonrpc: '2.0', id: 5, method: 'resources/list' });
    expect(unknown.json).toMatchObject({ id: 5, error: { code: -32601 } });
    const badParams = await postJson(mcpUrl(), { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 42 } });
    expect(badParams.json).toMatchObject({ id: 6, error: { code: -32602 } });
    const badArgs = await postJson(mcpUrl(), {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'search_locations', arguments: [] },
    });
    expect(badArgs.json).toMatchObject({ id: 7, error: { code: -32602 } });
  });

  it('maps an unknown tool and a missing meta to -32602 with a pointer', async () => {
    const tool = await postJson(mcpUrl(), call('find_stores', { meta: { 'ucp-agent': { profile: profileUrl } }, location: {} }));
    expect(tool.json).toMatchObject({ error: { code: -32602, data: { code: 'unknown_tool', pointer: '' } } });
    expect((tool.json as { error: { message: string } }).error.message).toContain('search_locations');
    const meta = await postJson(mcpUrl(), call('search_locations', { location: {} }));
    expect(meta.json).toMatchObject({ error: { code: -32602, data: { pointer: '/meta', details: [{ pointer: '/meta' }] } } });
  });

  it('points schema failures into arguments.location', async () => {
    const res = await postJson(
      mcpUrl(),
      call('search_locations', {
        meta: { 'ucp-agent': { profile: profileUrl } },
        location: { distance: { center: { latitude: 0, longitude: 0 }, max: 5000 } },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ error: { code: -32602, data: { code: 'radius_too_large', pointer: '/location/distance/max' } } });
  });

  it('answers a store outage with HTTP 503, -32000 and retry_after, and an internal fault with 500/-32603 and no internals', async () => {
    const args = { meta: { 'ucp-agent': { profile: profileUrl } }, location: {} };
    service.failWith = new StoreError('unavailable', 'database is locked');
    const down = await postJson(mcpUrl(), call('search_locations', args));
    expect(down.status).toBe(503);
    expect(down.headers['retry-after']).toBe('5');
    expect(down.json).toMatchObject({ error: { code: -32000, data: { retry_after: 5 } } });
    service.failWith = new ServiceUnavailableError(7);
    expect((await postJson(mcpUrl(), call('search_locations', args))).headers['retry-after']).toBe('7');
    service.failWith = new Error('secret internals: /var/lib/db.sqlite');
    const crash = await postJson(mcpUrl(), call('search_locations', args));
    expect(crash.status).toBe(500);
    expect(crash.json).toMatchObject({ error: { code: -32603, message: 'Internal error' } });
    expect(crash.text).not.toContain('secret');
    service.failWith = new RateLimitedError(3);
    const limited = await postJson(mcpUrl(), call('search_locations', args));
    expect(limited.status).toBe(429);
    expect(limited.json).toMatchObject({ error: { code: -32000, data: { retry_after: 3 } } });
    service.failWith = undefined;
    expect((await postJson(mcpUrl(), call('search_locations', args))).status).toBe(200);
  });

  it('refuses GET (no server stream in stateless mode) with 405', async () => {
    const res = await rawRequest(mcpUrl(), { headers: { accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
    expect(res.headers['allow']).toBe('POST, OPTIONS');
  });
});

describe('a Business that adopts one capability offers only its tool, route and profile entry (R-D3)', () => {
  const adoptions = [
    { tool: 'search_locations', adopted: SEARCH_CAPABILITY, otherTool: 'lookup_locations', otherRoute: '/ucp/locations/lookup' },
    { tool: 'lookup_locations', adopted: LOOKUP_CAPABILITY, otherTool: 'search_locations', otherRoute: '/ucp/locations/search' },
  ];

  it.each(adoptions)('$tool alone: the official MCP client lists only it, and the other tool is unknown', async (a) => {
    const one = await listenUcpHttp(parts(new ScriptedService(), { capabilities: [a.adopted] }), { host: '127.0.0.1', port: 0 });
    const client = new Client({ name: 'ucp-location-test', version: '0.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(`${one.url}/ucp/mcp`)));
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual([a.tool]);
      const refused: unknown = await client
        .callTool({ name: a.otherTool, arguments: { meta: { 'ucp-agent': { profile: profileUrl } }, location: { ids: ['a'] } } })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(refused).toBeInstanceOf(McpError);
      expect(refused).toMatchObject({ code: -32602, data: { code: 'unknown_tool' } });

      const profile = (await rawRequest(`${one.url}/.well-known/ucp`)).json as { ucp: { capabilities: Record<string, unknown> } };
      expect(Object.keys(profile.ucp.capabilities)).toEqual([a.adopted]);
      const rest = await postJson(`${one.url}${a.otherRoute}`, { ids: ['a'] }, { 'ucp-agent': `profile="${profileUrl}"` });
      expect(rest.status).toBe(404);
    } finally {
      await client.close();
      await one.http.close();
    }
  });
});

describe('REST binding', () => {
  const headers = (): Record<string, string> => ({ 'ucp-agent': `profile="${profileUrl}"` });

  it('returns the same payload as the MCP tool, echoing Request-Id', async () => {
    const res = await postJson(`${ucp.url}/ucp/locations/lookup`, { ids: ['a', 'b'] }, { ...headers(), 'request-id': 'req-123' });
    expect(res.status).toBe(200);
    expect(res.headers['request-id']).toBe('req-123');
    const viaMcp = await postJson(
      mcpUrl(),
      call('lookup_locations', { meta: { 'ucp-agent': { profile: profileUrl } }, location: { ids: ['a', 'b'] } }),
    );
    expect(res.json).toEqual((viaMcp.json as { result: { structuredContent: unknown } }).result.structuredContent);
    expect((res.json as { ucp: { capabilities: unknown } }).ucp.capabilities).toEqual({ [LOOKUP_CAPABILITY]: [{ version: '2026-08-25' }] });
  });

  it('generates a Request-Id when none is sent', async () => {
    const res = await postJson(`${ucp.url}/ucp/locations/search`, {}, headers());
    expect(res.headers['request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('maps body and header problems to 400/413/415 with a UCP error_response', async () => {
    const missingAgent = await postJson(`${ucp.url}/ucp/locations/search`, {});
    expect(missingAgent.status).toBe(400);
    expect(missingAgent.json).toMatchObject({
      ucp: { version: '2026-08-25', status: 'error' },
      messages: [{ type: 'error', code: 'invalid_profile_url' }],
    });
    const badJson = await postJson(`${ucp.url}/ucp/locations/search`, '{', headers());
    expect(badJson.status).toBe(400);
    expect(badJson.json).toMatchObject({ messages: [{ code: 'invalid_json' }] });
    const text = await rawRequest(`${ucp.url}/ucp/locations/search`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', ...headers() },
      body: '{}',
    });
    expect(text.status).toBe(415);
    const big = await postJson(`${ucp.url}/ucp/locations/lookup`, { ids: ['x'.repeat(300 * 1024)] }, headers());
    expect(big.status).toBe(413);
    const invalid = await postJson(`${ucp.url}/ucp/locations/lookup`, { ids: [] }, headers());
    expect(invalid.status).toBe(400);
    expect(invalid.json).toMatchObject({ messages: [{ code: 'invalid_request', path: "$['ids']", severity: 'recoverable' }] });
  });

  it('answers 404 for unknown routes and 405 with Allow for the wrong method', async () => {
    expect((await rawRequest(`${ucp.url}/ucp/locations/nearby`, { method: 'POST' })).status).toBe(404);
    const get = await rawRequest(`${ucp.url}/ucp/locations/search`);
    expect(get.status).toBe(405);
    expect(get.headers['allow']).toBe('POST, OPTIONS');
  });
});

describe('Host/Origin guard for a loopback deployment (DNS rebinding)', () => {
  it('refuses a foreign Host or Origin with 403 and keeps serving our own names', async () => {
    const foreignHost = await rawRequest(`${ucp.url}/.well-known/ucp`, { headers: { host: 'rebind.attacker.example' } });
    expect(foreignHost.status).toBe(403);
    const mcp = await postJson(mcpUrl(), call('search_locations', {}), { origin: 'https://attacker.example' });
    expect(mcp.status).toBe(403);
    expect(mcp.json).toMatchObject({ error: { code: -32000 } });
    const port = new URL(ucp.url).port;
    expect((await rawRequest(`${ucp.url}/.well-known/ucp`, { headers: { host: `localhost:${port}` } })).status).toBe(200);
  });
});

describe('CORS (off by default)', () => {
  it('sends no CORS headers unless origins are configured', async () => {
    const res = await rawRequest(`${ucp.url}/.well-known/ucp`, { headers: { origin: ucp.url } });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers preflights and echoes an allowed origin when configured', async () => {
    const app = 'https://app.platform.example';
    const cors = await listenUcpHttp(parts(new ScriptedService(), { cors: { origins: [app] } }), { host: '127.0.0.1', port: 0 });
    try {
      const preflight = await rawRequest(`${cors.url}/ucp/locations/search`, {
        method: 'OPTIONS',
        headers: { origin: app, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, ucp-agent' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe(app);
      expect(String(preflight.headers['access-control-allow-headers'])).toContain('UCP-Agent');
      const other = await rawRequest(`${cors.url}/.well-known/ucp`, { headers: { origin: 'https://other.example' } });
      expect(other.status).toBe(403); // loopback deployment: unknown origins are refused outright
      const allowed = await rawRequest(`${cors.url}/.well-known/ucp`, { headers: { origin: app } });
      expect(allowed.headers['access-control-allow-origin']).toBe(app);
      expect(allowed.headers['access-control-expose-headers']).toContain('Request-Id');
    } finally {
      await cors.http.close();
    }
  });
});

describe('graceful shutdown', () => {
  it('stops accepting connections, lets in-flight requests finish, then resolves', async () => {
    const slow = new ScriptedService();
    let release!: () => void;
    slow.hold = new Promise((resolve) => (release = resolve));
    const server = await listenUcpHttp(parts(slow), { host: '127.0.0.1', port: 0 });
    const inFlight = postJson(`${server.url}/ucp/locations/search`, {}, { 'ucp-agent': `profile="${profileUrl}"` });
    while (slow.calls.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    let closed = false;
    const closing = server.http.close().then(() => (closed = true));
    await expect(rawRequest(`${server.url}/.well-known/ucp`)).rejects.toThrow(/ECONNREFUSED/);
    expect(closed).toBe(false);
    release();
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    await closing;
    expect(closed).toBe(true);
  });
});

describe('overload: turn-taking and load shedding (maxQueuedRequests)', () => {
  it('sheds calls beyond the queue with 503 + Retry-After in each binding’s error shape, then keeps serving', async () => {
    const server = await listenUcpHttp(parts(new ScriptedService(), { maxQueuedRequests: 1 }), { host: '127.0.0.1', port: 0 });
    // Connections opened beforehand, so the burst below reaches the server in one poll of its
    // event loop (new connections are accepted one per loop turn and would spread it out).
    const agent = new Agent({ keepAlive: true, maxSockets: 20 });
    try {
      await Promise.all(Array.from({ length: 20 }, () => rawRequest(`${server.url}/healthz`, { agent })));
      const burst = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          i % 2 === 0
            ? postJson(
                `${server.url}/ucp/mcp`,
                call('search_locations', { meta: { 'ucp-agent': { profile: profileUrl } }, location: {} }, i),
                {},
                agent,
              )
            : postJson(`${server.url}/ucp/locations/search`, {}, { 'ucp-agent': `profile="${profileUrl}"` }, agent),
        ),
      );
      const shed = burst.filter((r) => r.status === 503);
      expect(burst.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(1);
      expect(shed.length).toBeGreaterThanOrEqual(1);
      expect(burst.every((r) => r.status === 200 || r.status === 503)).toBe(true);
      for (const r of shed) {
        expect(r.headers['retry-after']).toBe('1');
        const body = r.json as {
          jsonrpc?: string;
          error?: { code: number; data?: { retry_after?: number } };
          messages?: { code: string; severity: string }[];
        };
        if (body.jsonrpc !== undefined) {
          expect(body.error?.code).toBe(-32000);
          expect(body.error?.data?.retry_after).toBe(1);
        } else {
          expect(body.messages?.[0]).toMatchObject({ code: 'service_unavailable', severity: 'recoverable' });
        }
      }
      // Shedding is momentary: once the burst is over, every call is served again.
      const after = await Promise.all([
        postJson(
          `${server.url}/ucp/mcp`,
          call('search_locations', { meta: { 'ucp-agent': { profile: profileUrl } }, location: {} }),
          {},
          agent,
        ),
        rawRequest(`${server.url}/healthz`, { agent }),
      ]);
      expect(after.map((r) => r.status)).toEqual([200, 200]);
    } finally {
      agent.destroy();
      await server.http.close();
    }
  });
});
