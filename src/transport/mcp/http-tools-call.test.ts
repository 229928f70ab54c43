/**
 * The HTTP fast path for plain `tools/call` requests (http-tools-call.ts) against the SDK path it
 * stands in for: two MCP endpoints over one app on real loopback sockets, one with the fast path
 * and one sending everything through the SDK's Server and transport, must give the same HTTP
 * status, Content-Type, Retry-After and body bytes for the same messages — results, every kind of
 * error, batches, notifications and messages the fast path leaves to the SDK.
 */
import { createServer } from 'node:http';
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../config.js';
import type { Location } from '../../domain/location.js';
import { sealJson } from '../../protocol/frozen-json.js';
import { ServiceUnavailableError, StoreError, UcpRequestError } from '../../errors.js';
import { json, startTestServer } from '../../../test/support/http-server.js';
import type { TestServer } from '../../../test/support/http-server.js';
import { listenUcpHttp } from '../app.js';
import type { ListeningUcp } from '../app.js';
import { fakeAppParts, platformProfile, ScriptedService } from '../test-support/fake-parts.js';
import { rawRequest } from '../test-support/raw-http.js';
import type { RawResponse } from '../test-support/raw-http.js';
import { McpHttpEndpoint } from './http.js';
import { plainToolsCall } from './http-tools-call.js';

let platform: TestServer;
let ucp: ListeningUcp;
let sdkServer: HttpServer;
let sdkUrl: string;
let service: ScriptedService;
let profileUrl: string;

beforeAll(async () => {
  platform = await startTestServer();
  platform.route('/profile.json', json(platformProfile(), { 'cache-control': 'public, max-age=300' }));
  profileUrl = `${platform.origin('127.0.0.1')}/profile.json`;
  service = new ScriptedService();
  const config = parseConfig({ rateLimits: { enabled: false } });
  ucp = await listenUcpHttp(fakeAppParts(service, config), { host: '127.0.0.1', port: 0 });
  // The same app behind an endpoint that never takes the fast path.
  const sdkOnly = new McpHttpEndpoint(ucp.app.mcp, { maxBodyBytes: config.maxBodyBytes, publicUrl: `${ucp.url}/ucp/mcp`, sdkOnly: true });
  sdkServer = createServer((req, res) => {
    void sdkOnly.handle(req, res, { requestId: 'sdk', clientIp: req.socket.remoteAddress });
  });
  await new Promise<void>((resolve) => sdkServer.listen(0, '127.0.0.1', resolve));
  sdkUrl = `http://127.0.0.1:${(sdkServer.address() as AddressInfo).port}/ucp/mcp`;
});

afterAll(async () => {
  sdkServer.closeAllConnections();
  await new Promise((resolve) => sdkServer.close(resolve));
  await ucp.http.close();
  await platform.close();
});

function post(url: string, body: string, headers: Record<string, string>): Promise<RawResponse> {
  return rawRequest(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
}

/** Posts `message` to both endpoints and expects the same answer, byte for byte; returns it. */
async function expectSameAnswer(message: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
  const body = JSON.stringify(message);
  const fast = await post(`${ucp.url}/ucp/mcp`, body, headers);
  const sdk = await post(sdkUrl, body, headers);
  expect({ status: fast.status, type: fast.headers['content-type'], retry: fast.headers['retry-after'], body: fast.text }).toEqual({
    status: sdk.status,
    type: sdk.headers['content-type'],
    retry: sdk.headers['retry-after'],
    body: sdk.text,
  });
  return fast;
}

const meta = (): Record<string, unknown> => ({ 'ucp-agent': { profile: profileUrl } });
const call = (id: unknown, name: string, args?: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, ...(args === undefined ? {} : { arguments: args }), ...extra },
});

describe('MCP over HTTP: the tools/call fast path answers exactly as the SDK path (R-M1, R-M2)', () => {
  it('results, with numeric and string ids, both tools, structuredContent and its text copy', async () => {
    const search = await expectSameAnswer(call(1, 'search_locations', { meta: meta(), location: { query: 'grocery' } }));
    expect(search.status).toBe(200);
    const parsed = search.json as { result: { structuredContent: unknown; content: { text: string }[] } };
    expect(JSON.parse(parsed.result.content[0]?.text ?? '')).toEqual(parsed.result.structuredContent);
    await expectSameAnswer(call('req-"7"', 'lookup_locations', { meta: meta(), location: { ids: ['a', 'b\u2028'] } }));
    await expectSameAnswer(call(0, 'search_locations', { meta: meta(), location: {} }), { 'mcp-protocol-version': '2025-06-18' });
  });

  it('documents sealed as the in-memory index seals them: the same bytes on the first call and from the kept texts', async () => {
    // Shared parts sealed first, as the index seals a chain's hours once for all its documents.
    const hours = sealJson([{ day: 'monday' as const, opens: '08:00', closes: '20:00' }]);
    const address = { street_address: 'a "quoted" street\t2', address_locality: '\u2028\ud800😀' };
    const doc = (id: string, name: string): Location => sealJson({ id, name, hours, address: { ...address } });
    service.searchLocations = [doc('loc_1', 'Café "Œuvre"'), doc('loc_2', 'Ünïcode\\back')];
    try {
      for (const id of [11, 12]) await expectSameAnswer(call(id, 'search_locations', { meta: meta(), location: {} }));
    } finally {
      service.searchLocations = undefined;
    }
  });

  it('errors: unknown tool, missing meta or location, bad profile URL, invalid request, failing store', async () => {
    await expectSameAnswer(call(2, 'no_such_tool', { meta: meta(), location: {} }));
    await expectSameAnswer(call(3, 'search_locations'));
    await expectSameAnswer(call(4, 'search_locations', { location: {} }));
    await expectSameAnswer(call(5, 'search_locations', { meta: meta() }));
    await expectSameAnswer(call(6, 'search_locations', { meta: { 'ucp-agent': { profile: 'not a url' } }, location: {} }));
    await expectSameAnswer(call(7, 'lookup_locations', { meta: meta(), location: {} }));
    for (const failure of [
      new StoreError('unavailable', 'disk gone'),
      new ServiceUnavailableError(3, 'busy'),
      new UcpRequestError('invalid_cursor', 'old cursor', '/pagination/cursor'),
    ]) {
      service.failWith = failure;
      try {
        await expectSameAnswer(call(8, 'search_locations', { meta: meta(), location: {} }));
      } finally {
        service.failWith = undefined;
      }
    }
  });

  it('messages the fast path leaves to the SDK: _meta, task, odd ids, extra members, bad params, other methods, unsupported versions', async () => {
    const plain = call(9, 'search_locations', { meta: meta(), location: {} });
    const left = [
      call(9, 'search_locations', { meta: meta(), location: {} }, { _meta: { progressToken: 1 } }),
      call(9, 'search_locations', { meta: meta(), location: {} }, { task: { ttl: 1000 } }),
      call(1.5, 'search_locations', { meta: meta(), location: {} }),
      call(null, 'search_locations', { meta: meta(), location: {} }),
      { ...plain, extra: true },
      call(9, 'search_locations', 'not an object'),
      call(9, 'search_locations', [1]),
      { jsonrpc: '2.0', id: 9, method: 'tools/call' },
      { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { arguments: {} } },
      { jsonrpc: '2.0', id: 9, method: 'tools/list' },
      { jsonrpc: '2.0', id: 9, method: 'ping' },
      { jsonrpc: '2.0', id: 9, method: 'no/such' },
    ];
    for (const message of left) {
      expect(plainToolsCall(message, undefined)).toBeUndefined();
      await expectSameAnswer(message);
    }
    expect(
      plainToolsCall(
        JSON.parse('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"__proto__":{}}}}'),
        undefined,
      ),
    ).toBeUndefined();
    expect(plainToolsCall(plain, '1999-01-01')).toBeUndefined();
    expect((await expectSameAnswer(plain, { 'mcp-protocol-version': '1999-01-01' })).status).toBe(400);
  });

  it('notifications (no answer, 202) and batches mixing results, errors, notifications and invalid elements', async () => {
    const notification = {
      jsonrpc: '2.0',
      method: 'tools/call',
      params: { name: 'search_locations', arguments: { meta: meta(), location: {} } },
    };
    expect((await expectSameAnswer(notification)).status).toBe(202);
    const batch = [
      call(1, 'search_locations', { meta: meta(), location: { query: 'x' } }),
      notification,
      call('two', 'no_such_tool', {}),
      { jsonrpc: '2.0', id: 3, method: 'ping' },
      { id: 4 },
      call(5, 'lookup_locations', { meta: meta(), location: { ids: ['z'] } }),
    ];
    const answer = await expectSameAnswer(batch);
    expect(answer.status).toBe(200);
    expect((answer.json as unknown[]).length).toBe(5);
    expect((await expectSameAnswer([notification, notification])).status).toBe(202);
  });
});
