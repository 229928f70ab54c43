/**
 * JSON-RPC 2.0 at the edges (issue 25, R-J1, R-G7): batches of any length on HTTP and stdio,
 * extra top-level members, ids echoed by refusals sent before the body is read, Retry-After within
 * the window, and the discovery budget refusing as a rate limit. The real server on the demo
 * dataset over loopback HTTP; stdio in process, through streams.
 */
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logging.js';
import { DEMO_PLATFORM_PROFILE_URL, startServer, startStdioServer } from '../../src/server.js';
import type { RunningServer, StdioServer } from '../../src/server.js';
import { MAX_BATCH } from '../../src/transport/mcp/jsonrpc.js';
import { rawRequest } from '../../src/transport/test-support/raw-http.js';
import type { RawResponse } from '../../src/transport/test-support/raw-http.js';
import { useDiscoveryPlatforms } from './support/discovery-platforms.js';

const META = { 'ucp-agent': { profile: DEMO_PLATFORM_PROFILE_URL } };
const ping = (id: number | string): Record<string, unknown> => ({ jsonrpc: '2.0', id, method: 'ping' });
const toolCall = (id: number | string, meta: unknown = META): Record<string, unknown> => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'search_locations', arguments: { meta, location: { query: 'grocery' } } },
});

type RpcAnswer = {
  jsonrpc: string;
  id: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: Record<string, unknown> };
};

const { serve, freshProfile } = useDiscoveryPlatforms('edges.test', startServer);

const post = (server: RunningServer, body: unknown, from = '127.0.0.1', headers: Record<string, string> = {}): Promise<RawResponse> =>
  rawRequest(`${server.url}/ucp/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    localAddress: from,
  });

describe('R-J1: JSON-RPC 2.0 batches and messages over HTTP', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await serve();
  });

  it(`a batch past ${MAX_BATCH} messages is answered with an array: the first ${MAX_BATCH} carried out, each further request refused with its own id (fails before: one -32600 object)`, async () => {
    const batch = [
      ...Array.from({ length: MAX_BATCH + 4 }, (_, i) => ping(i)),
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      toolCall('late'),
    ];
    const r = await post(server, batch);
    expect(r.status).toBe(200);
    const answers = r.json as RpcAnswer[];
    expect(answers.map((a) => a.id)).toEqual([...Array.from({ length: MAX_BATCH + 4 }, (_, i) => i), 'late']);
    expect(answers.slice(0, MAX_BATCH).every((a) => a.result !== undefined)).toBe(true);
    for (const a of answers.slice(MAX_BATCH)) {
      expect(a.error?.code).toBe(-32600);
      expect(a.error?.message).toContain(`first ${MAX_BATCH} messages`);
    }
  });

  it('an empty array is one -32600 object with id null', async () => {
    const r = await post(server, []);
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
  });

  it('extra top-level members are tolerated, alone and in a batch (fails before: -32600 "a request needs id and method")', async () => {
    const single = await post(server, { ...toolCall(5), extra: 1 });
    expect(single.status).toBe(200);
    expect((single.json as RpcAnswer).result).toMatchObject({ structuredContent: { ucp: {} } });
    const other = await post(server, { ...ping('p'), extra: { nested: [1] } });
    expect(other.json).toEqual({ jsonrpc: '2.0', id: 'p', result: {} });
    const batch = await post(server, [
      { ...ping(1), trace: 'x' },
      { ...toolCall(2), extra: true },
    ]);
    expect((batch.json as RpcAnswer[]).map((a) => [a.id, a.error === undefined])).toEqual([
      [1, true],
      [2, true],
    ]);
  });
});

describe('R-J1: refusals sent before the body is read echo the request id', () => {
  it('429 from the per-address budget: the id of a single call, one refusal per batch element with its id; Retry-After within the window (fails before: id null, 62–66 s)', async () => {
    const server = await serve({ rateLimits: { perIp: { limit: 2, windowSeconds: 60 } } });
    const from = '127.0.0.41';
    expect((await post(server, ping(1), from)).status).toBe(200);
    expect((await post(server, ping(2), from)).status).toBe(200);
    const single = await post(server, toolCall('call-7'), from);
    expect(single.status).toBe(429);
    expect(single.json).toMatchObject({
      jsonrpc: '2.0',
      id: 'call-7',
      error: { code: -32000, data: { retry_after: expect.any(Number) as number } },
    });
    const retryAfter = Number(single.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((single.json as RpcAnswer).error?.data?.['retry_after']).toBe(retryAfter);

    const batch = await post(server, [ping(10), { jsonrpc: '2.0', method: 'notifications/initialized' }, toolCall('b')], from);
    expect(batch.status).toBe(429);
    expect((batch.json as RpcAnswer[]).map((a) => [a.id, a.error?.code])).toEqual([
      [10, -32000],
      ['b', -32000],
    ]);
    // An id that is not in the first 8 KiB cannot be read: null, as JSON-RPC 2.0 says.
    const late = await post(server, { jsonrpc: '2.0', method: 'ping', params: { pad: 'x'.repeat(9000) }, id: 99 }, from);
    expect(late.json).toMatchObject({ id: null, error: { code: -32000 } });
  });

  it('a batch the address budget cannot hold whole is refused per element, each with its id', async () => {
    const server = await serve({ rateLimits: { perIp: { limit: 3, windowSeconds: 60 } } });
    const r = await post(server, [ping('a'), ping('b'), ping('c'), ping('d')], '127.0.0.42');
    expect(r.status).toBe(429);
    expect((r.json as RpcAnswer[]).map((a) => [a.id, a.error?.code])).toEqual([
      ['a', -32000],
      ['b', -32000],
      ['c', -32000],
      ['d', -32000],
    ]);
  });

  it('403 from the Host/Origin guard echoes the id (fails before: id null)', async () => {
    const server = await serve();
    const r = await post(server, toolCall(31), '127.0.0.1', { host: 'rebound.example:80' });
    expect(r.status).toBe(403);
    expect(r.json).toMatchObject({ jsonrpc: '2.0', id: 31, error: { code: -32000 } });
  });
});

describe('R-G7: a spent new-origin discovery budget is a rate limit (fails before: HTTP 200, -32001 profile_unreachable)', () => {
  it('MCP: 429 with -32000 and error.data.retry_after; REST: 429 with Retry-After and rate_limited', async () => {
    const server = await serve({});
    const from = '127.0.0.51';
    // The default share: 5 new origins per client address.
    for (let i = 0; i < 5; i++)
      expect((await post(server, toolCall(i, { 'ucp-agent': { profile: freshProfile(`o${i}`) } }), from)).status).toBe(200);
    const refused = await post(server, toolCall('over', { 'ucp-agent': { profile: freshProfile('o9') } }), from);
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ id: 'over', error: { code: -32000, data: { retry_after: expect.any(Number) as number } } });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((refused.json as RpcAnswer).error?.message).toMatch(/new hosts/);

    const rest = await rawRequest(`${server.url}/ucp/locations/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'ucp-agent': `profile="${freshProfile('o10')}"` },
      body: '{}',
      localAddress: from,
    });
    expect(rest.status).toBe(429);
    expect(Number(rest.headers['retry-after'])).toBeGreaterThan(0);
    expect(rest.json).toMatchObject({ messages: [{ code: 'rate_limited' }] });
  });
});

describe('R-J2: a cursor binds only the members that shaped the answer', () => {
  it('page 1 warns that "near" was ignored; its cursor works with or without "near" (fails before: invalid_cursor without it)', async () => {
    const server = await serve();
    const search = (body: unknown): Promise<RawResponse> =>
      rawRequest(`${server.url}/ucp/locations/search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'ucp-agent': `profile="${DEMO_PLATFORM_PROFILE_URL}"` },
        body: JSON.stringify(body),
      });
    type Page = { locations: { id: string }[]; pagination: { cursor?: string }; messages?: { code: string; content: string }[] };
    const first = (await search({ pagination: { limit: 1 }, near: 'Los Angeles' })).json as Page;
    expect(first.messages?.find((m) => m.code === 'unknown_field')?.content).toContain('Ignored "near"');
    const cursor = first.pagination.cursor ?? '';
    expect(cursor).not.toBe('');
    const without = await search({ pagination: { limit: 1, cursor } });
    expect(without.status).toBe(200);
    const withIt = await search({ pagination: { limit: 1, cursor }, near: 'Somewhere else' });
    expect(withIt.status).toBe(200);
    const second = without.json as Page;
    expect(second.locations.map((l) => l.id)).toEqual((withIt.json as Page).locations.map((l) => l.id));
    expect(second.locations[0]?.id).not.toBe(first.locations[0]?.id);
    // A member that did shape the answer still binds it.
    const changed = await search({ pagination: { limit: 1, cursor }, query: 'grocery' });
    expect(changed.status).toBe(400);
    expect(JSON.stringify(changed.json)).toContain('invalid_cursor');
  });
});

describe('messages that tell the truth', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await serve();
  });
  const rest = (path: 'search' | 'lookup', body: unknown): Promise<RawResponse> =>
    rawRequest(`${server.url}/ucp/locations/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'ucp-agent': `profile="${DEMO_PLATFORM_PROFILE_URL}"` },
      body: JSON.stringify(body),
    });

  it('R-L2: lookup says an id resolved but was filtered out, apart from an unknown id; the code stays not_found (fails before: "Unable to find" for both)', async () => {
    const r = await rest('lookup', {
      ids: ['loc_valley_grocers', 'no_such_id'],
      distance: { center: { latitude: 0, longitude: 0 }, max: 1 },
    });
    expect(r.status).toBe(200);
    const messages = (r.json as { messages: { code: string; content: string; path: string }[] }).messages;
    expect(messages.map((m) => [m.code, m.path])).toEqual([
      ['not_found', '$.ids[0]'],
      ['not_found', '$.ids[1]'],
    ]);
    expect(messages[0]?.content).toBe(
      'loc_valley_grocers resolved but was filtered out by distance: the Location exists, it does not match.',
    );
    expect(messages[1]?.content).toBe('Unable to find the location associated with no_such_id.');
  });

  it('docs/languages.md: a context.language that is not a string is a request error pointing at it', async () => {
    const r = await rest('search', { context: { language: 42 } });
    expect(r.status).toBe(400);
    expect((r.json as { messages: { code: string; path?: string }[] }).messages[0]).toMatchObject({
      code: 'invalid_request',
      path: "$['context']['language']",
    });
  });
});

/** A stdio session in process: write lines, read answer lines as they come. */
class StdioPeer {
  readonly stdin = new PassThrough();
  readonly stdout = new PassThrough();
  readonly #lines: string[] = [];
  #waiters: (() => void)[] = [];
  #buffer = '';
  server: StdioServer | undefined;

  constructor() {
    this.stdout.on('data', (chunk: Buffer) => {
      this.#buffer += chunk.toString('utf8');
      let nl = this.#buffer.indexOf('\n');
      while (nl !== -1) {
        this.#lines.push(this.#buffer.slice(0, nl));
        this.#buffer = this.#buffer.slice(nl + 1);
        nl = this.#buffer.indexOf('\n');
      }
      for (const w of this.#waiters.splice(0)) w();
    });
  }

  async start(): Promise<void> {
    this.server = await startStdioServer({ stdin: this.stdin, stdout: this.stdout, logger: createLogger({ level: 'silent' }) });
  }

  /** Sends one line and resolves with the next answer line, parsed. */
  async exchange(line: string): Promise<unknown> {
    const before = this.#lines.length;
    this.stdin.write(`${line}\n`);
    while (this.#lines.length <= before) await new Promise<void>((resolve) => this.#waiters.push(resolve));
    return JSON.parse(this.#lines[before] ?? 'null') as unknown;
  }
}

describe('R-J1: JSON-RPC 2.0 batches and messages over stdio (serve --stdio)', () => {
  const peer = new StdioPeer();
  beforeAll(async () => {
    await peer.start();
  });
  afterAll(async () => {
    peer.stdin.end();
    await peer.server?.close();
  });

  it('a batch is answered with one array line, in order, notifications unanswered (fails before: one -32600 object)', async () => {
    const answer = await peer.exchange(
      JSON.stringify([ping(1), { jsonrpc: '2.0', method: 'notifications/initialized' }, toolCall('t'), 7]),
    );
    const answers = answer as RpcAnswer[];
    expect(answers.map((a) => a.id)).toEqual([1, 't', null]);
    expect(answers[0]?.result).toEqual({});
    expect(answers[1]?.result).toMatchObject({ structuredContent: { ucp: {} } });
    expect(answers[2]?.error?.code).toBe(-32600);
  });

  it(`a batch past ${MAX_BATCH} messages: the rest refused each with its id; an empty array is one -32600 with id null`, async () => {
    const answers = (await peer.exchange(JSON.stringify(Array.from({ length: MAX_BATCH + 2 }, (_, i) => ping(i))))) as RpcAnswer[];
    expect(answers.map((a) => a.id)).toEqual(Array.from({ length: MAX_BATCH + 2 }, (_, i) => i));
    expect(answers.slice(MAX_BATCH).map((a) => a.error?.code)).toEqual([-32600, -32600]);
    expect(await peer.exchange('[]')).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
  });

  it('extra top-level members are tolerated (fails before: -32600)', async () => {
    expect(await peer.exchange(JSON.stringify({ ...ping(44), extra: 1 }))).toEqual({ jsonrpc: '2.0', id: 44, result: {} });
  });
});
