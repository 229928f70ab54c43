/**
 * The agent bridge as an MCP server: one `AgentBridge` (businesses, caches, cursor key) shared by
 * every connection, served over stdio (one host, the default) or Streamable HTTP (stateless, JSON
 * responses, a fresh SDK `Server` per request as the SDK asks of stateless servers).
 *
 * Why the SDK's low-level `Server` rather than `McpServer`: `McpServer` validates arguments with
 * the tool's zod schema before our code runs and answers a failure with zod's own wording; the
 * bridge wants to answer every input problem itself, as a tool result with one sentence saying
 * what to change (SEP-1303). JSON-RPC errors remain for protocol faults only: an unknown tool, a
 * malformed envelope, a fault in the bridge itself (reported without internals; details go to the
 * log on stderr).
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { Readable, Writable } from 'node:stream';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { ConfigError } from '../errors.js';
import { closeAfterAnswer, parseJsonBytes, readBody } from '../http-kit/body.js';
import { failureOf } from '../http-kit/failures.js';
import { HostGuard, loopbackHosts, loopbackOrigins } from '../http-kit/host-guard.js';
import {
  refuseJsonRpc,
  RPC_INTERNAL_ERROR,
  RPC_INVALID_REQUEST,
  RPC_PARSE_ERROR,
  RPC_SERVER_ERROR,
  writeJsonRpcError,
} from '../http-kit/json-rpc.js';
import { hostForUrl, isLoopbackHost } from '../http-kit/loopback.js';
import { isOneOf, listeningPort } from '../protocol/guards.js';
import type { Logger } from '../logging.js';
import type { AgentSettings } from './config.js';
import { BusinessDirectory, type DirectoryOptions } from './businesses.js';
import { CursorSeal } from './cursor.js';
import { LocationFinder } from './find.js';
import { TOOL_NAMES, TOOLS, callTool, type ToolContext } from './tools.js';

export interface AgentOptions extends DirectoryOptions {
  settings: AgentSettings;
  logger: Logger;
  /** Businesses asked at once by a fan-out. Default 8. */
  concurrency?: number;
  serverVersion: string;
}

const INSTRUCTIONS =
  'Finds physical Locations (stores, branches, pickup points) across UCP businesses. Start with find_locations; pass coordinates in "near" for nearest-first results with distances, "open_now": true for what is open now. Use list_businesses to see business names and why one failed, get_locations to fetch known ids or aliases. Continue a long list with the "next_cursor" an answer gives.';

/** The bridge's state, shared by every MCP connection. */
export class AgentBridge {
  readonly directory: BusinessDirectory;
  readonly #tools: ToolContext;
  readonly #logger: Logger;
  readonly #version: string;

  constructor(options: AgentOptions) {
    const now = options.now ?? Date.now;
    const concurrency = options.concurrency ?? 8;
    this.directory = new BusinessDirectory(options.settings.businesses, options);
    const finder = new LocationFinder({
      directory: this.directory,
      seal: new CursorSeal(randomBytes(32)),
      maxMatchesPerBusiness: options.settings.maxMatchesPerBusiness,
      concurrency,
      now,
    });
    this.#tools = { directory: this.directory, finder, logger: options.logger, now, concurrency };
    this.#logger = options.logger;
    this.#version = options.serverVersion;
  }

  /** A new SDK Server answering for this bridge (one per stdio session or HTTP request). */
  createServer(): Server {
    const server = new Server(
      { name: 'ucp-location-agent', title: 'UCP Location agent bridge', version: this.#version },
      { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...TOOLS] }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const name = request.params.name;
      if (!isOneOf(TOOL_NAMES, name)) {
        throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${JSON.stringify(name)}; this server has ${TOOL_NAMES.join(', ')}.`);
      }
      try {
        return await callTool(this.#tools, name, request.params.arguments);
      } catch (error) {
        this.#logger.error({ err: error, tool: name }, 'tool call failed unexpectedly');
        throw new McpError(ErrorCode.InternalError, 'The agent bridge failed while answering; its log (stderr) has the details.');
      }
    });
    return server;
  }

  async close(): Promise<void> {
    await this.directory.close();
  }
}

export interface StdioSession {
  /** Resolves when the host closes stdin. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/** Serves the bridge on stdin/stdout; stdout carries only MCP frames. */
export async function serveAgentStdio(bridge: AgentBridge, streams: { stdin?: Readable; stdout?: Writable } = {}): Promise<StdioSession> {
  const stdin = streams.stdin ?? process.stdin;
  const transport = new StdioServerTransport(stdin, streams.stdout ?? process.stdout);
  const server = bridge.createServer();
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  server.onclose = () => resolveClosed();
  stdin.once('end', () => void server.close());
  await server.connect(transport);
  return { closed, close: () => server.close() };
}

export interface AgentHttpServer {
  /** `http://127.0.0.1:<port>/mcp` */
  url: string;
  port: number;
  close(): Promise<void>;
}

export const MCP_HTTP_PATH = '/mcp';
/** Where `agent --http` reads its token when `--token` is absent. */
export const AGENT_TOKEN_ENV = 'UCP_AGENT_TOKEN';
/** Shortest token accepted: a guessable one would make the requirement pointless (as for the console). */
export const MIN_AGENT_TOKEN_LENGTH = 16;

/**
 * Checks the host/token pair before anything listens (#37 N12): off loopback a token is required,
 * since anyone who reaches the port could otherwise search in the operator's name.
 */
export function checkAgentAccess(host: string, token: string | undefined): void {
  if (token !== undefined && token.length < MIN_AGENT_TOKEN_LENGTH) {
    throw new ConfigError(
      `the agent token must be at least ${MIN_AGENT_TOKEN_LENGTH} characters long (got ${token.length}); use a long random value, e.g. \`openssl rand -hex 24\`.`,
    );
  }
  if (token === undefined && !isLoopbackHost(host)) {
    throw new ConfigError(
      `--host ${host} is not a loopback address, so the agent needs a token: pass --token <secret> or set ${AGENT_TOKEN_ENV} (at least ${MIN_AGENT_TOKEN_LENGTH} characters); MCP clients then send "Authorization: Bearer <secret>". Bind to 127.0.0.1 to use it without one.`,
    );
  }
}

/** Constant-time: both sides are hashed first, so not even the length leaks through timing. */
function bearerMatches(expected: string, header: string | undefined): boolean {
  const given = header !== undefined && /^bearer\s+/i.test(header) ? header.replace(/^bearer\s+/i, '') : undefined;
  if (given === undefined) return false;
  const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(expected), digest(given));
}
const MAX_BODY_BYTES = 1024 * 1024;
const NO_BYTES: Buffer = Buffer.alloc(0);

/**
 * Serves the bridge over Streamable HTTP at `/mcp` (stateless, JSON responses). The HTTP kit does
 * what comes before MCP: the Host/Origin guard on loopback (DNS rebinding), the bounded body
 * reader, and JSON-RPC refusals that echo the request's id when it can be read.
 */
export async function serveAgentHttp(
  bridge: AgentBridge,
  options: { host: string; port: number; logger: Logger; token?: string | undefined },
): Promise<AgentHttpServer> {
  checkAgentAccess(options.host, options.token);
  const token = options.token;
  /** Set once the port is known; off loopback the token guards instead. */
  let guard: HostGuard | undefined;
  const http: HttpServer = createServer((req, res) => void handle(req, res));

  /** Answers what went wrong while the SDK handled a request: the kit's table decides what the caller sees. */
  const fail = (res: ServerResponse, error: unknown, body: Buffer): void => {
    const reference = randomUUID();
    const failure = failureOf(error, reference);
    if (failure.unexpected) options.logger.error({ err: error, requestId: reference }, 'MCP HTTP request failed');
    if (res.headersSent) {
      res.end();
      return;
    }
    const message = failure.unexpected ? `Internal error in the agent bridge; its log (stderr) names it ${reference}.` : failure.message;
    writeJsonRpcError(res, failure.status, body, { code: failure.status === 500 ? RPC_INTERNAL_ERROR : RPC_SERVER_ERROR, message });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://placeholder').pathname;
    if (path !== MCP_HTTP_PATH) {
      req.resume();
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`Not found. The MCP endpoint is ${MCP_HTTP_PATH}.\n`);
      return;
    }
    const refusal = guard?.check(req.headers);
    if (refusal !== undefined) {
      await refuseJsonRpc(req, res, 403, { code: RPC_SERVER_ERROR, message: `Forbidden: ${refusal}` });
      return;
    }
    if (token !== undefined && !bearerMatches(token, req.headers.authorization)) {
      res.setHeader('www-authenticate', 'Bearer realm="ucp-location agent"');
      await refuseJsonRpc(req, res, 401, {
        code: RPC_INVALID_REQUEST,
        message: 'This agent bridge needs its token: send "Authorization: Bearer <token>".',
      });
      return;
    }
    let body: unknown;
    let raw = NO_BYTES;
    if (req.method === 'POST') {
      const read = await readBody(req, MAX_BODY_BYTES);
      if (!read.ok) {
        closeAfterAnswer(res);
        writeJsonRpcError(res, read.status, read.prefix, { code: RPC_INVALID_REQUEST, message: `Invalid Request: ${read.message}` });
        return;
      }
      const parsed = parseJsonBytes(read.bytes);
      if (!parsed.ok) {
        // JSON-RPC: a body that is not JSON has no id anyone can rely on; one nested too deep may.
        if (parsed.reason === 'invalid_json')
          writeJsonRpcError(res, 400, NO_BYTES, { code: RPC_PARSE_ERROR, message: `Parse error: ${parsed.message}` });
        else writeJsonRpcError(res, 400, parsed.prefix, { code: RPC_INVALID_REQUEST, message: `Invalid Request: ${parsed.message}` });
        return;
      }
      body = parsed.value;
      raw = read.bytes;
    }
    try {
      const server = bridge.createServer();
      // No session id generator: stateless. The Host guard above already did DNS-rebinding protection.
      const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    } catch (error) {
      fail(res, error, raw);
    }
  };

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const port = listeningPort(http.address());
  if (isLoopbackHost(options.host)) {
    guard = new HostGuard({ hosts: loopbackHosts(port, options.host), origins: loopbackOrigins(port, options.host) });
  }
  return {
    url: `http://${hostForUrl(options.host)}:${port}${MCP_HTTP_PATH}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

/** The HTTP kit's loopback semantics (kept under this name for the agent's public face). */
export const isLoopback = isLoopbackHost;
