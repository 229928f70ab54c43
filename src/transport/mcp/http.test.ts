import { describe, expect, it } from 'vitest';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { TransportRequests } from './http.js';
import { checkJsonRpcShape } from './jsonrpc.js';

describe('checkJsonRpcShape (R-M1: -32600 for anything that is not JSON-RPC 2.0)', () => {
  it('accepts requests, notifications and small batches', () => {
    expect(checkJsonRpcShape({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).toBeUndefined();
    expect(checkJsonRpcShape({ jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'x' } })).toBeUndefined();
    expect(checkJsonRpcShape({ jsonrpc: '2.0', method: 'notifications/initialized' })).toBeUndefined();
    expect(checkJsonRpcShape([{ jsonrpc: '2.0', id: 1, method: 'ping' }])).toBeUndefined();
  });

  it('reports what is wrong, keeping a readable id', () => {
    expect(checkJsonRpcShape({ id: 7, method: 'ping' })).toEqual({ id: 7, message: 'member "jsonrpc" must be exactly "2.0".' });
    expect(checkJsonRpcShape({ jsonrpc: '2.0', id: 7, method: 3 })?.message).toContain('"method"');
    expect(checkJsonRpcShape({ jsonrpc: '2.0', id: 7, method: 'ping', params: [1] })?.message).toContain('"params"');
    expect(checkJsonRpcShape({ jsonrpc: '2.0', id: 1.5, method: 'ping' })).toEqual({
      id: null,
      message: 'member "id" must be a string or an integer.',
    });
    expect(checkJsonRpcShape({ jsonrpc: '2.0', id: 1 })?.message).toContain('needs "id" and "method"');
    expect(checkJsonRpcShape('tools/call')?.id).toBeNull();
    expect(checkJsonRpcShape([])?.message).toContain('empty batch');
    expect(checkJsonRpcShape([{ jsonrpc: '2.0', id: 1, method: 'ping' }, { id: 2 }])?.message).toContain('batch element 1');
  });
});

describe('TransportRequests (one body-less Request per Mcp-Protocol-Version, shared by requests)', () => {
  const url = 'http://127.0.0.1:1/ucp/mcp';

  /** A fresh stateless SDK server + transport answering `ping`, as each HTTP request gets. */
  async function answer(request: Request, id: number): Promise<Response> {
    const server = new Server({ name: 't', version: '0' }, { capabilities: {} });
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request, { parsedBody: { jsonrpc: '2.0', id, method: 'ping' } });
    } finally {
      await server.close();
    }
  }

  it('hands out the same object for an absent header and for each supported version', () => {
    const requests = new TransportRequests(url);
    expect(requests.get(undefined)).toBe(requests.get(undefined));
    const version = SUPPORTED_PROTOCOL_VERSIONS[0] ?? '';
    expect(requests.get(version)).toBe(requests.get(version));
    expect(requests.get(version).headers.get('mcp-protocol-version')).toBe(version);
    expect(requests.get(undefined).headers.get('mcp-protocol-version')).toBeNull();
  });

  it('builds a fresh object for any other value, so clients cannot grow the cache', () => {
    const requests = new TransportRequests(url);
    expect(requests.get('1999-01-01')).not.toBe(requests.get('1999-01-01'));
    expect(requests.get('1999-01-01').headers.get('mcp-protocol-version')).toBe('1999-01-01');
  });

  it('a shared Request serves concurrent transports, and an unsupported version is still refused with 400', async () => {
    const requests = new TransportRequests(url);
    const shared = requests.get(SUPPORTED_PROTOCOL_VERSIONS[0]);
    const answers = await Promise.all([1, 2, 3].map((id) => answer(shared, id)));
    for (const [i, r] of answers.entries()) {
      expect(r.status).toBe(200);
      expect(await r.json()).toEqual({ jsonrpc: '2.0', id: i + 1, result: {} });
    }
    const refused = await answer(requests.get('1999-01-01'), 9);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('Unsupported protocol version');
  });
});
