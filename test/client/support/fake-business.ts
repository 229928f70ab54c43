/**
 * A deliberately broken Business on 127.0.0.1 for the cases our real server never produces (a
 * response that violates the schema): it publishes a normal profile whose endpoints point at
 * itself, answers REST with a fixed body, and speaks just enough MCP over Streamable HTTP
 * (initialize, notifications, tools/call) for the official SDK client to talk to it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LOOKUP_CAPABILITY, SEARCH_CAPABILITY } from '../../../src/protocol/types.js';
import { buildBusinessProfile } from '../../../src/transport/business-profile.js';
import { json, startTestServer, type TestServer } from '../../support/http-server.js';
import { CACHEABLE } from './peers.js';

export interface FakeBusiness {
  url: string;
  server: TestServer;
  /** The UCP payload every operation answers with (REST body / MCP structuredContent). */
  respondWith(payload: unknown): void;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startFakeBusiness(): Promise<FakeBusiness> {
  const server = await startTestServer();
  const url = server.origin('127.0.0.1');
  let payload: unknown = {};
  server.route('/.well-known/ucp', json(buildBusinessProfile(url, [SEARCH_CAPABILITY, LOOKUP_CAPABILITY]), CACHEABLE));
  const rest = (_req: IncomingMessage, res: ServerResponse): void => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
  };
  server.route('/ucp/locations/search', rest);
  server.route('/ucp/locations/lookup', rest);
  server.route('/ucp/mcp', (req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    void readBody(req).then((text) => {
      const message = JSON.parse(text) as { id?: number | string; method: string; params?: { protocolVersion?: string } };
      if (message.id === undefined) {
        res.writeHead(202).end();
        return;
      }
      const result =
        message.method === 'initialize'
          ? {
              protocolVersion: message.params?.protocolVersion,
              capabilities: { tools: {} },
              serverInfo: { name: 'fake-business', version: '0.0.0' },
            }
          : { structuredContent: payload, content: [{ type: 'text', text: JSON.stringify(payload) }] };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    });
  });
  return {
    url,
    server,
    respondWith: (p) => {
      payload = p;
    },
    close: () => server.close(),
  };
}
