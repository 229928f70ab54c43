/**
 * The in-process server is the real one minus the socket: the same answers as `startServer` over
 * loopback, through the same request listener — the Host guard, request ids and both bindings
 * included — so the suites that run on it prove what they would prove over TCP.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logging.js';
import { startServer } from '../../src/server.js';
import type { RunningServer } from '../../src/server.js';
import { inProcessFetch } from '../../src/transport/test-support/in-process.js';
import { postJson, rawRequest } from '../../src/transport/test-support/raw-http.js';
import { startInProcessServer } from './in-process-server.js';

let real: RunningServer;
let local: RunningServer;

beforeAll(async () => {
  const options = { port: 0, logger: createLogger({ level: 'silent' }) };
  [real, local] = await Promise.all([startServer(options), startInProcessServer(options)]);
});

afterAll(async () => {
  await Promise.all([real?.close(), local?.close()]);
});

describe('an in-process server', () => {
  it('serves the profile startServer serves, with its own origin in the endpoints', async () => {
    const [overTcp, inProcess] = await Promise.all([rawRequest(`${real.url}/.well-known/ucp`), rawRequest(`${local.url}/.well-known/ucp`)]);
    expect(inProcess.status).toBe(200);
    expect(inProcess.headers['content-type']).toBe(overTcp.headers['content-type']);
    expect(inProcess.text.replaceAll(local.baseUrl, 'ORIGIN')).toBe(overTcp.text.replaceAll(real.baseUrl, 'ORIGIN'));
  });

  it('answers through the same listener: request ids echoed, a forged Host refused, a wrong method named', async () => {
    for (const server of [real, local]) {
      const profile = await rawRequest(`${server.url}/.well-known/ucp`, { headers: { 'request-id': 'in-process-1' } });
      expect(profile.headers['request-id']).toBe('in-process-1');
      const forged = await rawRequest(`${server.url}/.well-known/ucp`, { headers: { host: 'rebound.example' } });
      expect(forged.status).toBe(403);
      const wrongMethod = await rawRequest(`${server.url}/ucp/mcp`, { method: 'GET' });
      expect(wrongMethod.status).toBe(405);
      expect(wrongMethod.headers['allow']).toBe('POST, OPTIONS');
    }
  });

  it('answers raw JSON-RPC and the MCP SDK client alike, and nothing listens on its port', async () => {
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const [overTcp, inProcess] = await Promise.all([postJson(`${real.url}/ucp/mcp`, list), postJson(`${local.url}/ucp/mcp`, list)]);
    expect(inProcess.status).toBe(200);
    expect(inProcess.json).toEqual(overTcp.json);
    const client = new Client({ name: 'in-process-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${local.url}/ucp/mcp`), { fetch: inProcessFetch }));
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['search_locations', 'lookup_locations']);
    } finally {
      await client.close();
    }
    await expect(fetch(`${local.url}/healthz`)).rejects.toThrow();
  });
});
