/**
 * MCP over Streamable HTTP at `POST <base>/ucp/mcp`, stateless, JSON responses.
 *
 * Per request: our code reads and checks the body (size, media type, JSON, JSON-RPC shape) so the
 * error codes are exactly those of R-M1 (the SDK would answer a non-JSON-RPC body with -32700, not
 * -32600); then a fresh SDK `Server` + `WebStandardStreamableHTTPServerTransport` handle the
 * parsed message, as stateless mode requires (a stateless transport refuses reuse). Tool lists,
 * schemas and validators are built once (see tools.ts, server.ts); only the Server object is new.
 * Measured per request (Node 20, 2 shared cores): Server construction ≈ 20–30 µs with the shared
 * Ajv instance (≈ 600–750 µs when each Server builds its own), connect ≈ 12 µs, Request object ≈ 55 µs, the
 * SDK's dispatch (zod parsing of request and result) ≈ 330 µs, reading the Response ≈ 130 µs,
 * close ≈ 55 µs — about 0.6 ms in all, against several ms for the search itself. Since then the
 * Request is shared per protocol version (TransportRequests), the Response is read as bytes and
 * written as bytes, and close() skips the stack trace of an error nobody sees; what remains is
 * the SDK's (zod parsing, the JSON.stringify of the envelope) and writing both copies of the
 * payload (structuredContent and content[0].text, both required).
 *
 * Why the web-standard transport rather than its Node wrapper `StreamableHTTPServerTransport`: the
 * wrapper writes straight to the Node response, so a 429/503/500 could not be given its HTTP status
 * (R-G7: over Streamable HTTP the status is the primary signal). The web-standard class is the same
 * transport (the wrapper delegates to it) and hands back a `Response` we can amend and write.
 *
 * Accept: the transport answers 406 unless `Accept` lists both `application/json` and
 * `text/event-stream`. UCP platforms send bare JSON-RPC POSTs (seed 000 envelopes, often without
 * `Accept`), and we only ever answer with JSON, so the header handed to the SDK is normalised.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { ErrorCode, JSONRPCMessageSchema, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { readJsonBody } from '../http-body.js';
import type { MappedMcpError } from './errors.js';
import { connectGuarded, createMcpServer } from './server.js';
import type { McpApp } from './server.js';

export interface McpHttpContext {
  requestId: string;
  clientIp: string | undefined;
}

/** Largest JSON-RPC batch accepted (MCP 2025-06-18 dropped batching; older clients may still send). */
const MAX_BATCH = 20;

const EMPTY = Buffer.alloc(0);

export class McpHttpEndpoint {
  readonly #requests: TransportRequests;

  constructor(
    private readonly app: McpApp,
    private readonly options: { maxBodyBytes: number; publicUrl: string },
  ) {
    this.#requests = new TransportRequests(options.publicUrl);
  }

  async handle(req: IncomingMessage, res: ServerResponse, ctx: McpHttpContext): Promise<void> {
    const body = await readJsonBody(req, this.options.maxBodyBytes);
    if (!body.ok) {
      const code = body.reason === 'invalid_json' ? ErrorCode.ParseError : ErrorCode.InvalidRequest;
      const prefix = body.reason === 'invalid_json' ? 'Parse error' : 'Invalid Request';
      if (body.status === 413) res.setHeader('Connection', 'close');
      writeRpcError(res, body.status, null, code, `${prefix}: ${body.message}`);
      return;
    }
    const shapeError = checkJsonRpcShape(body.value);
    if (shapeError !== undefined) {
      writeRpcError(res, 400, shapeError.id, ErrorCode.InvalidRequest, `Invalid Request: ${shapeError.message}`);
      return;
    }

    const failures: MappedMcpError[] = [];
    const server = createMcpServer(this.app, { ...ctx, onFailure: (f) => failures.push(f) });
    // No sessionIdGenerator = stateless: no Mcp-Session-Id, no initialize required before tools/call.
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
    try {
      await connectGuarded(server, transport);
      const request = this.#requests.get(req.headers['mcp-protocol-version']);
      const response = await transport.handleRequest(request, { parsedBody: body.value });
      // The body as bytes, written as bytes: decoding it to a string only for node:http to encode
      // it again (and measure it twice) cost more than the JSON.stringify that produced it.
      const bytes = response.status === 202 || response.body === null ? EMPTY : Buffer.from(await response.arrayBuffer());
      const failure = mostSevere(failures);
      let status = response.status;
      if (failure !== undefined && status === 200) status = failure.httpStatus;
      if (failure?.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(failure.retryAfterSeconds));
      res.statusCode = status;
      const contentType = response.headers.get('content-type');
      if (contentType !== null && bytes.length > 0) res.setHeader('Content-Type', contentType);
      // A protocol-version error from the transport (400) is passed through as is.
      res.end(bytes);
    } finally {
      await closeServer(server);
    }
  }
}

/**
 * Ends the per-request Server's connection, as the SDK asks of stateless servers. On close the SDK
 * builds a "Connection closed" McpError to reject pending *outgoing* requests; this server never
 * sends any, so that error is never seen, yet capturing its stack trace was about 1.3% of server
 * CPU under load. The transport's close() runs its onclose (where the error is built) before its
 * first await, so stack capture is off for exactly that synchronous span and restored at once.
 */
function closeServer(server: Server): Promise<void> {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return server.close();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/**
 * The body-less `Request` handed to the transport with the already parsed body. The transport
 * reads only its URL and headers (Accept, Content-Type, Mcp-Protocol-Version, Mcp-Session-Id), so
 * one object per distinct header set can serve every request: building a `Request` (with its
 * `Headers` and `AbortSignal`) was a visible share of the per-request cost. Only the versions the
 * SDK supports, and an absent header, are kept; any other value gets a fresh object, so a client
 * cannot grow the cache (the transport answers those with 400 anyway).
 */
export class TransportRequests {
  readonly #byVersion = new Map<string | undefined, Request>();

  constructor(private readonly url: string) {
    this.#byVersion.set(undefined, this.#build(undefined));
    for (const v of SUPPORTED_PROTOCOL_VERSIONS) this.#byVersion.set(v, this.#build(v));
  }

  /** @param version the raw `Mcp-Protocol-Version` header (node:http joins repeats into one string). */
  get(version: string | string[] | undefined): Request {
    const value = typeof version === 'string' ? version : undefined;
    return this.#byVersion.get(value) ?? this.#build(value);
  }

  #build(version: string | undefined): Request {
    const headers = new Headers({ accept: 'application/json, text/event-stream', 'content-type': 'application/json' });
    if (version !== undefined) headers.set('mcp-protocol-version', version);
    return new Request(this.url, { method: 'POST', headers });
  }
}

/**
 * The HTTP status for a batch answered with several failures: the one a client must act on first
 * (rate limit or outage → back off; then server fault; then forbidden). A single call is simply
 * its own failure.
 */
function mostSevere(failures: readonly MappedMcpError[]): MappedMcpError | undefined {
  const rank = (s: number): number => ({ 429: 5, 503: 4, 500: 3, 403: 2 })[s] ?? 0;
  let best: MappedMcpError | undefined;
  for (const f of failures) if (rank(f.httpStatus) > rank(best?.httpStatus ?? 200)) best = f;
  return best;
}

type RpcId = string | number | null;

/** Returns what is wrong with a JSON-RPC 2.0 message (or batch), or undefined when it is well formed. */
export function checkJsonRpcShape(value: unknown): { id: RpcId; message: string } | undefined {
  if (Array.isArray(value)) {
    if (value.length === 0) return { id: null, message: 'an empty batch is not a JSON-RPC request.' };
    if (value.length > MAX_BATCH) return { id: null, message: `a batch may hold at most ${MAX_BATCH} messages.` };
    for (const [i, item] of value.entries()) {
      const problem = checkJsonRpcShape(item);
      if (problem !== undefined) return { id: null, message: `batch element ${i}: ${problem.message}` };
    }
    return undefined;
  }
  if (value === null || typeof value !== 'object') {
    return { id: null, message: 'expected a JSON-RPC 2.0 object {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {...}}.' };
  }
  const msg = value as Record<string, unknown>;
  const id = typeof msg['id'] === 'string' || typeof msg['id'] === 'number' ? msg['id'] : null;
  if (msg['jsonrpc'] !== '2.0') return { id, message: 'member "jsonrpc" must be exactly "2.0".' };
  if ('method' in msg && (typeof msg['method'] !== 'string' || msg['method'].length === 0)) {
    return { id, message: 'member "method" must be a non-empty string.' };
  }
  if ('id' in msg && msg['id'] !== null && typeof msg['id'] !== 'string' && !Number.isInteger(msg['id'])) {
    return { id: null, message: 'member "id" must be a string or an integer.' };
  }
  if ('params' in msg && (msg['params'] === null || typeof msg['params'] !== 'object' || Array.isArray(msg['params']))) {
    return { id, message: 'member "params" must be an object (MCP uses named parameters).' };
  }
  if (!JSONRPCMessageSchema.safeParse(value).success) {
    return { id, message: 'not a JSON-RPC 2.0 request, notification or response (a request needs "id" and "method").' };
  }
  return undefined;
}

function writeRpcError(res: ServerResponse, status: number, id: RpcId, code: number, message: string): void {
  const body = JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } });
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  res.end(body);
}
