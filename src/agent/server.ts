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
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { Readable, Writable } from 'node:stream';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { ConfigError } from '../errors.js';
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
  if (token === undefined && !isLoopback(host)) {
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

/** Serves the bridge over Streamable HTTP at `/mcp` (stateless, JSON responses). */
export async function serveAgentHttp(
  bridge: AgentBridge,
  options: { host: string; port: number; logger: Logger; token?: string | undefined },
): Promise<AgentHttpServer> {
  checkAgentAccess(options.host, options.token);
  const token = options.token;
  let allowedHosts: string[] | undefined;
  const http: HttpServer = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      options.logger.error({ err: error }, 'MCP HTTP request failed');
      if (!res.headersSent) writeRpcError(res, 500, ErrorCode.InternalError, 'Internal error in the agent bridge.');
      else res.end();
    });
  });
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://placeholder').pathname;
    if (path !== MCP_HTTP_PATH) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`Not found. The MCP endpoint is ${MCP_HTTP_PATH}.\n`);
      return;
    }
    if (token !== undefined && !bearerMatches(token, req.headers.authorization)) {
      res.setHeader('www-authenticate', 'Bearer realm="ucp-location agent"');
      req.resume();
      writeRpcError(res, 401, ErrorCode.InvalidRequest, 'This agent bridge needs its token: send "Authorization: Bearer <token>".');
      return;
    }
    let body: unknown;
    if (req.method === 'POST') {
      const read = await readBody(req);
      if (read === null) {
        res.setHeader('connection', 'close');
        writeRpcError(res, 413, ErrorCode.InvalidRequest, `Request body over ${MAX_BODY_BYTES} bytes.`);
        return;
      }
      try {
        body = JSON.parse(read);
      } catch {
        writeRpcError(res, 400, ErrorCode.ParseError, 'Parse error: the body is not JSON.');
        return;
      }
    }
    const server = bridge.createServer();
    // No session id generator: stateless. DNS-rebinding protection: only our own Host is answered.
    const transport = new StreamableHTTPServerTransport({
      enableJsonResponse: true,
      ...(allowedHosts !== undefined ? { enableDnsRebindingProtection: true, allowedHosts } : {}),
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const port = listeningPort(http.address());
  const hostPart = options.host.includes(':') ? `[${options.host}]` : options.host;
  if (isLoopback(options.host)) allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
  return {
    url: `http://${hostPart}:${port}${MCP_HTTP_PATH}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** The body as text, or null when it is over MAX_BODY_BYTES. */
function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) {
        chunks.push(chunk);
        return;
      }
      // Stop keeping the body but let it drain, so the 413 can still be written.
      req.off('data', onData);
      req.resume();
      resolve(null);
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function writeRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }));
}
