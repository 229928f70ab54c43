/**
 * The last-resort path of the HTTP server: a handler that throws (a bug, not bad input) still
 * gets an answer in the binding's own shape, and its log line names the request id the client saw.
 */
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logging.js';
import { MCP_PATH, REST_SEARCH_PATH } from './business-profile.js';
import { UcpHttpServer } from './http.js';
import type { HttpApp } from './http.js';
import type { McpHttpEndpoint } from './mcp/http.js';
import type { PreparedProfile } from './profile-endpoint.js';
import type { RestEndpoint } from './rest/routes.js';
import { postJson } from './test-support/raw-http.js';

const lines: string[] = [];
const http = new UcpHttpServer();
let origin: string;

beforeAll(async () => {
  const sink = new PassThrough();
  sink.on('data', (chunk: Buffer) =>
    lines.push(
      ...chunk
        .toString('utf8')
        .split('\n')
        .filter((l) => l !== ''),
    ),
  );
  const boom = (): Promise<void> => Promise.reject(new Error('handler bug'));
  const address = await http.listen(
    { host: '127.0.0.1', port: 0 },
    (a) =>
      ({
        // Only the two handlers are reached by these requests; both fail as a bug would.
        profile: {} as PreparedProfile,
        mcp: { handle: boom } as unknown as McpHttpEndpoint,
        rest: { handle: boom } as unknown as RestEndpoint,
        logger: createLogger({ level: 'info', destination: sink, format: 'json' }),
        cors: { origins: [], maxAgeSeconds: 600 },
        baseUrl: `http://127.0.0.1:${a.port}`,
        capabilities: ['dev.ucp.common.location.search', 'dev.ucp.common.location.lookup'],
      }) satisfies HttpApp,
  );
  origin = `http://127.0.0.1:${address.port}`;
});

afterAll(() => http.close());

describe('unhandled errors (fails before: logged without a request id, REST-shaped 500 on /ucp/mcp)', () => {
  it('answers /ucp/mcp with a JSON-RPC -32603 and logs the request id', async () => {
    const r = await postJson(`${origin}${MCP_PATH}`, { jsonrpc: '2.0', id: 1, method: 'ping' }, { 'request-id': 'req-mcp-1' });
    expect(r.status).toBe(500);
    expect(r.headers['request-id']).toBe('req-mcp-1');
    expect(r.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32603 } });
    expect(JSON.stringify(r.json)).not.toContain('handler bug');
    const logged = lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l['msg'] === 'unhandled error in request handler');
    expect(logged.map((l) => l['requestId'])).toContain('req-mcp-1');
  });

  it('answers REST with a UCP error body naming the request id, and logs it', async () => {
    const r = await postJson(`${origin}${REST_SEARCH_PATH}`, {}, { 'request-id': 'req-rest-1' });
    expect(r.status).toBe(500);
    expect(r.json).toMatchObject({ ucp: { status: 'error' }, messages: [{ code: 'internal_error' }] });
    expect(JSON.stringify(r.json)).toContain('req-rest-1');
    const logged = lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l['msg'] === 'unhandled error in request handler');
    expect(logged.map((l) => l['requestId'])).toContain('req-rest-1');
  });
});
