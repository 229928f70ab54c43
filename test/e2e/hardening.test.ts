/**
 * Hardening (issue 15): no input makes the server answer 5xx, drop the connection or log a
 * precise coordinate; JSON-RPC batches are answered as JSON-RPC 2.0 says. The real server on
 * the demo dataset, on a free loopback port; Platform profiles from a loopback test server.
 */
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logging.js';
import { MAX_JSON_DEPTH } from '../../src/protocol/json-depth.js';
import { DEMO_PLATFORM_PROFILE_URL, startServer } from '../../src/server.js';
import type { RunningServer } from '../../src/server.js';
import { platformProfile } from '../../src/transport/test-support/fake-parts.js';
import { postJson, rawRequest } from '../../src/transport/test-support/raw-http.js';
import type { RawResponse } from '../../src/transport/test-support/raw-http.js';
import { startTestServer } from '../support/http-server.js';
import type { TestServer } from '../support/http-server.js';

let server: RunningServer;
let platform: TestServer;
/** A second origin: a failed profile fetch makes the server back off from its origin for a while. */
let platform2: TestServer;
let mcpUrl: string;
let searchUrl: string;
const logLines: string[] = [];
/** The server's log stream, and the markers the test writes into it (see logsArrived). */
const sink = new PassThrough();
const markers = new Map<string, () => void>();

/**
 * Resolves once every line the server has logged so far is in logLines: a marker written into the
 * same stream after them comes out after them. No pause whose length a busy machine could beat.
 */
function logsArrived(): Promise<void> {
  const marker = `marker-${markers.size}`;
  return new Promise((resolve) => {
    markers.set(marker, resolve);
    sink.write(`${marker}\n`);
  });
}

beforeAll(async () => {
  platform = await startTestServer();
  // Valid in every member a validator reads, but nested far deeper than any profile needs, and
  // well under the fetch size cap: it used to turn every call naming it into -32603.
  const depth = 5_000;
  const deepProfile = `${JSON.stringify(platformProfile()).slice(0, -1)},"extra":${'['.repeat(depth)}${']'.repeat(depth)}}`;
  platform.route('/deep.json', (_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end(deepProfile));
  platform2 = await startTestServer();
  platform2.route('/deep.json', (_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end(deepProfile));
  sink.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (line === '') continue;
      const reached = markers.get(line);
      if (reached === undefined) logLines.push(line);
      else reached();
    }
  });
  server = await startServer({
    host: '127.0.0.1',
    port: 0,
    allowLoopbackProfiles: true,
    logger: createLogger({ level: 'debug', destination: sink, format: 'json' }),
  });
  mcpUrl = `${server.url}/ucp/mcp`;
  searchUrl = `${server.url}/ucp/locations/search`;
});

afterAll(async () => {
  await server?.close();
  await platform?.close();
  await platform2?.close();
});

const META = { 'ucp-agent': { profile: DEMO_PLATFORM_PROFILE_URL } };
const UCP_AGENT = { 'ucp-agent': `profile="${DEMO_PLATFORM_PROFILE_URL}"` };

function toolCall(location: unknown, id: number | string = 1, meta: unknown = META): Record<string, unknown> {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search_locations', arguments: { meta, location } } };
}

const nested = (open: string, close: string, depth: number, inner = '1'): string => open.repeat(depth) + inner + close.repeat(depth);

function expectRpcError(r: RawResponse, status: number, code: number): { message: string } {
  expect(r.status).toBe(status);
  const body = r.json as { jsonrpc: string; error: { code: number; message: string } };
  expect(body.jsonrpc).toBe('2.0');
  expect(body.error.code).toBe(code);
  return body.error;
}

describe('bounded nesting depth (fails before: HTTP 500 from stack overflows)', () => {
  it('MCP: a 5,000-deep top-level array gets a JSON-RPC -32600 with HTTP 400, not a REST-shaped 500', async () => {
    const r = await postJson(mcpUrl, nested('[', ']', 5_000, ''));
    expect(expectRpcError(r, 400, -32600).message).toContain(`${MAX_JSON_DEPTH} levels`);
  });

  it.each(['context', 'signals', 'unknown_member'])(
    'MCP and REST: a 3,000-deep `%s` is refused with 400 in each binding’s shape',
    async (member) => {
      const text = (body: string): string => body.replace('"__DEEP__"', nested('{"a":', '}', 3_000));
      const mcp = await postJson(mcpUrl, text(JSON.stringify(toolCall({ query: 'grocery', [member]: '__DEEP__' }))));
      expectRpcError(mcp, 400, -32600);
      const rest = await postJson(searchUrl, text(JSON.stringify({ query: 'grocery', [member]: '__DEEP__' })), UCP_AGENT);
      expect(rest.status).toBe(400);
      expect(rest.json).toMatchObject({ ucp: { status: 'error' }, messages: [{ code: 'nesting_too_deep', severity: 'recoverable' }] });
    },
  );

  it(`accepts nesting up to ${MAX_JSON_DEPTH} levels (the limit is not off by one)`, async () => {
    // The message, params, arguments and location objects are 4 levels around `context`.
    const body = JSON.stringify(toolCall({ query: 'grocery', context: '__DEEP__' })).replace(
      '"__DEEP__"',
      nested('[', ']', MAX_JSON_DEPTH - 4),
    );
    const ok = await postJson(mcpUrl, body);
    expect(ok.status).toBe(200);
    const over = await postJson(mcpUrl, body.replace('[1]', '[[1]]'));
    expectRpcError(over, 400, -32600);
  });

  it('a deeply nested Platform profile is a discovery error (-32001 / 422), never -32603 / 500', async () => {
    const profile = `${platform.origin('127.0.0.1')}/deep.json`;
    const mcp = await postJson(mcpUrl, toolCall({ query: 'grocery' }, 1, { 'ucp-agent': { profile } }));
    expect(mcp.status).toBe(200);
    const error = (mcp.json as { error: { code: number; message: string; data: { code: string } } }).error;
    expect(error.code).toBe(-32001);
    expect(error.data.code).toBe('profile_malformed');
    expect(error.message).toContain('levels deep');
    const profile2 = `${platform2.origin('127.0.0.1')}/deep.json`;
    const rest = await postJson(searchUrl, { query: 'grocery' }, { 'ucp-agent': `profile="${profile2}"` });
    expect(rest.status).toBe(422);
    expect(rest.json).toMatchObject({ messages: [{ code: 'profile_malformed' }] });
  });
});

describe('JSON-RPC 2.0 batches (fails before: a one-element batch got a bare object, an invalid element failed the batch)', () => {
  it('answers an array with an array, one response per request, in order', async () => {
    const r = await postJson(mcpUrl, [{ jsonrpc: '2.0', id: 1, method: 'ping' }, toolCall({ query: 'grocery' }, 'two')]);
    expect(r.status).toBe(200);
    const answers = r.json as { id: unknown; result?: { structuredContent?: unknown } }[];
    expect(answers.map((a) => a.id)).toEqual([1, 'two']);
    expect(answers[1]?.result?.structuredContent).toBeDefined();
  });

  it('a one-element batch is still answered with an array', async () => {
    const r = await postJson(mcpUrl, [{ jsonrpc: '2.0', id: 7, method: 'ping' }]);
    expect(r.status).toBe(200);
    expect(r.json).toEqual([{ jsonrpc: '2.0', id: 7, result: {} }]);
  });

  it('invalid elements get their own -32600, notifications get nothing, the rest are answered', async () => {
    const r = await postJson(mcpUrl, [
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      1,
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '1.0', id: 3, method: 'ping' },
      [{ jsonrpc: '2.0', id: 4, method: 'ping' }],
    ]);
    expect(r.status).toBe(200);
    const answers = r.json as { id: unknown; result?: unknown; error?: { code: number } }[];
    expect(answers).toHaveLength(4);
    expect(answers[0]).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    expect(answers.slice(1).map((a) => [a.id, a.error?.code])).toEqual([
      [null, -32600],
      [3, -32600],
      [null, -32600],
    ]);
  });

  it('a batch of invalid elements only: an array of -32600 errors with HTTP 400', async () => {
    const r = await postJson(mcpUrl, [1, 2, 3]);
    expect(r.status).toBe(400);
    expect((r.json as { error: { code: number } }[]).map((a) => a.error.code)).toEqual([-32600, -32600, -32600]);
  });

  it('a batch of notifications only: HTTP 202 and no body, as for a single notification', async () => {
    const r = await postJson(mcpUrl, [
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
    ]);
    expect(r.status).toBe(202);
    expect(r.text).toBe('');
  });

  it('`[]` is one -32600 Invalid Request object, not an array', async () => {
    const r = await postJson(mcpUrl, []);
    expect(Array.isArray(r.json)).toBe(false);
    expectRpcError(r, 400, -32600);
  });
});

describe('logs of malformed requests (fails before: string and array coordinates logged in full)', () => {
  it('never writes a precise coordinate, whatever its type, and every request line carries a request id', async () => {
    const from = logLines.length;
    const centers: unknown[] = [
      { latitude: '40.7123456', longitude: '-73.9876543' },
      { latitude: [40.7123456], longitude: { deg: -73.9876543 } },
      [40.7123456, -73.9876543],
      '40.7123456,-73.9876543',
    ];
    for (const center of centers) {
      await postJson(searchUrl, { distance: { center, max: 500 } }, UCP_AGENT);
      await postJson(mcpUrl, toolCall({ distance: { center, max: 500 } }));
      await postJson(mcpUrl, toolCall({ serves: { point: center } }));
    }
    const lines = logLines.slice(from);
    expect(lines.length).toBeGreaterThanOrEqual(centers.length * 3);
    const text = lines.join('\n');
    // More than 2 decimals of either coordinate, in any spelling (the time field is all digits, so anchor on the point).
    expect(text).not.toMatch(/40\.71\d|73\.98\d/);
    for (const line of lines) expect(JSON.parse(line)).toHaveProperty('requestId');
  });
});

describe('bad input is always answered (fails before: 500 for deep bodies)', () => {
  it('answers every malformed body with a 4xx in the binding’s shape, on a connection that stays usable', async () => {
    const bodies: { body: string; contentType?: string }[] = [
      { body: '' },
      { body: '{' },
      { body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_locations","arguments":' },
      { body: '\u0000\u00ff' },
      { body: nested('{"a":', '}', 100_000) },
      { body: nested('[', ']', 100_000, '') },
      { body: '{"a":1}', contentType: 'text/plain' },
      { body: 'x'.repeat(300 * 1024) },
      { body: '1e999999' },
      { body: '"\\ud800"' },
    ];
    for (const { body, contentType } of bodies) {
      for (const url of [mcpUrl, searchUrl]) {
        const r = await postJson(url, body, { 'content-type': contentType ?? 'application/json', ...UCP_AGENT });
        expect(r.status, `${url} ${body.slice(0, 40)}`).toBeGreaterThanOrEqual(400);
        expect(r.status, `${url} ${body.slice(0, 40)}`).toBeLessThan(500);
        if (url === mcpUrl) expect((r.json as { jsonrpc?: string }).jsonrpc).toBe('2.0');
        else expect((r.json as { ucp?: { status?: string } }).ucp?.status).toBe('error');
      }
    }
  });
});

describe('every log line of a request carries its request id', () => {
  it('MCP, REST, refusals, health checks and profile fetches: each line written while a request runs names it', async () => {
    const missing = `${platform.origin('127.0.0.1')}/missing.json`;
    const requests: { name: string; send: (headers: Record<string, string>) => Promise<RawResponse> }[] = [
      { name: 'MCP search', send: (h) => postJson(mcpUrl, toolCall({ query: 'grocery' }), h) },
      { name: 'MCP batch', send: (h) => postJson(mcpUrl, [toolCall({ query: 'grocery' }, 1), { jsonrpc: '2.0' }], h) },
      { name: 'REST search', send: (h) => postJson(searchUrl, { query: 'grocery' }, { ...UCP_AGENT, ...h }) },
      { name: 'REST refusal', send: (h) => postJson(searchUrl, { distance: { max: 'far' } }, { ...UCP_AGENT, ...h }) },
      { name: 'unfetchable profile', send: (h) => postJson(searchUrl, { query: 'x' }, { 'ucp-agent': `profile="${missing}"`, ...h }) },
      { name: 'readiness', send: (h) => rawRequest(`${server.url}/readyz`, { headers: h }) },
      { name: 'forged Host', send: (h) => rawRequest(`${server.url}/.well-known/ucp`, { headers: { ...h, host: 'rebound.example' } }) },
    ];
    for (const [i, { name, send }] of requests.entries()) {
      const requestId = `log-check-${i}`;
      const from = logLines.length;
      const response = await send({ 'request-id': requestId });
      expect(response.headers['request-id'], name).toBe(requestId);
      await logsArrived();
      const raw = logLines.slice(from);
      const lines = raw.map((l) => JSON.parse(l) as { requestId?: string; msg: string });
      expect(lines.length, `${name} logs at least one line at debug level`).toBeGreaterThan(0);
      for (const line of lines) expect(line.requestId, `${name}: "${line.msg}"`).toBe(requestId);
      // Once per line: a child logger bound to the id and the request scope must not both write it.
      for (const line of raw) expect(line.match(/"requestId":/g), line).toHaveLength(1);
    }
  });
});
