/**
 * The agent bridge in this process, served over Streamable HTTP on loopback and driven by the
 * official MCP SDK client — real serialisation on both sides, without spawning a CLI — plus a
 * hostile business whose answers a test writes as raw text, for the attacks a real business
 * server never makes (deep nesting, huge names, long cursors, control characters).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AgentBridge, resolveSettings, serveAgentHttp, type AgentHttpServer } from '../../../src/agent/index.js';
import { buildPlatformProfile } from '../../../src/client/platform-profile.js';
import { serveProfilesOnLoopback, type LoopbackProfileServer } from '../../../src/client/loopback-profile-server.js';
import { createLogger } from '../../../src/logging.js';
import { LOOKUP_CAPABILITY, SEARCH_CAPABILITY } from '../../../src/protocol/types.js';
import { buildBusinessProfile } from '../../../src/transport/business-profile.js';
import { json, startTestServer, type TestServer } from '../../support/http-server.js';
import { CACHEABLE } from '../../client/support/peers.js';

export interface HostileRequest {
  operation: 'search' | 'lookup';
  /** The UCP payload the bridge sent. */
  payload: Record<string, unknown>;
}

export interface HostileBusiness {
  url: string;
  server: TestServer;
  /** Requests received so far (search and lookup). */
  readonly received: HostileRequest[];
  close(): Promise<void>;
}

/** A REST-only business on loopback answering every search/lookup with the raw JSON text `answer` returns. */
export async function startHostileBusiness(answer: (request: HostileRequest) => string): Promise<HostileBusiness> {
  const server = await startTestServer();
  const url = server.origin('127.0.0.1');
  const received: HostileRequest[] = [];
  server.route('/.well-known/ucp', json(buildBusinessProfile(url, [SEARCH_CAPABILITY, LOOKUP_CAPABILITY], ['rest']), CACHEABLE));
  const handler =
    (operation: HostileRequest['operation']) =>
    (req: IncomingMessage, res: ServerResponse): void => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
        const payload = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? { ...parsed } : {};
        const request = { operation, payload };
        received.push(request);
        res.writeHead(200, { 'content-type': 'application/json' }).end(answer(request));
      });
    };
  server.route('/ucp/locations/search', handler('search'));
  server.route('/ucp/locations/lookup', handler('lookup'));
  return { url, server, received, close: () => server.close() };
}

/** A search answer's raw text: `locations` (already JSON text each) and an optional next cursor. */
export function searchAnswer(locations: readonly string[], cursor?: string): string {
  const pagination = cursor === undefined ? '{"has_next_page":false}' : `{"has_next_page":true,"cursor":${JSON.stringify(cursor)}}`;
  return `{"ucp":{"version":"2026-08-25"},"locations":[${locations.join(',')}],"pagination":${pagination}}`;
}

export interface BridgeSession {
  bridge: AgentBridge;
  http: AgentHttpServer;
  client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** The bridge over `flags` (`name=url`), in this process, on a free loopback port. */
export async function startBridgeSession(
  flags: readonly string[],
  options: { now?: () => number; timeoutMs?: number; maxMatchesPerBusiness?: number } = {},
): Promise<BridgeSession> {
  const profiles: LoopbackProfileServer = await serveProfilesOnLoopback(new Map([['/platform.json', buildPlatformProfile()]]), {
    maxAgeSeconds: 300,
  });
  const settings = resolveSettings(
    flags,
    {
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.maxMatchesPerBusiness !== undefined ? { maxMatchesPerBusiness: options.maxMatchesPerBusiness } : {}),
    },
    { allowLoopback: true },
  );
  const logger = createLogger({ level: 'silent', destination: 'stderr' });
  const bridge = new AgentBridge({
    settings,
    logger,
    platformProfileUrl: `${profiles.origin}/platform.json`,
    allowLoopback: true,
    serverVersion: '0.0.0-test',
    ...(options.now !== undefined ? { now: options.now } : {}),
  });
  const http = await serveAgentHttp(bridge, { host: '127.0.0.1', port: 0, logger });
  const client = new Client({ name: 'bridge-harness', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
  await client.listTools();
  return {
    bridge,
    http,
    client,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    close: async () => {
      await client.close();
      await http.close();
      await bridge.close();
      await profiles.close();
    },
  };
}

/** The text content of a result, joined. */
export function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

/** One Location as JSON text, in New York, with `extra` members spliced in as raw JSON text. */
export function locationText(id: string, options: { name?: string; latitude?: number; longitude?: number; extra?: string } = {}): string {
  const geo = `{"latitude":${options.latitude ?? 40.7128},"longitude":${options.longitude ?? -74.006}}`;
  const base = `"id":${JSON.stringify(id)},"name":${JSON.stringify(options.name ?? `Store ${id}`)},"geo":${geo},"timezone":"America/New_York"`;
  return `{${base}${options.extra === undefined ? '' : `,${options.extra}`}}`;
}
