/**
 * MCP over Streamable HTTP at `POST <base>/ucp/mcp`, stateless, JSON responses.
 *
 * Per request: our code reads and checks the body (size, media type, JSON, JSON-RPC shape) so the
 * error codes are exactly those of R-M1 (the SDK would answer a non-JSON-RPC body with -32700, not
 * -32600). A plain `tools/call` — the hot path — then goes straight to the tool and its answer is
 * written as the SDK would write it (http-tools-call.ts; a test holds the two paths to the same
 * bytes). Every other message goes to a fresh SDK `Server` +
 * `WebStandardStreamableHTTPServerTransport`, as stateless mode requires (a stateless transport
 * refuses reuse); the costs below are that path's. Tool lists,
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
import { ErrorCode, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { closeAfterAnswer, readJsonBody } from '../../http-kit/body.js';
import { writeJsonRpcError } from '../../http-kit/json-rpc.js';
import { RateLimitedError, UcpNegotiationError } from '../../errors.js';
import { isRecord } from '../../protocol/guards.js';
import { SignatureError } from '../../protocol/signatures/index.js';
import { signedRequestOf, type CallerIdentity } from '../request-signatures.js';
import { toMcpError, UCP_PROTOCOL_ERROR, type MappedMcpError } from './errors.js';
import { answerToolsCall, plainToolsCall, type PlainToolsCall } from './http-tools-call.js';
import { checkJsonRpcShape, isRequest, idOf, planBatch, rpcError, withoutExtraMembers, type RpcId } from './jsonrpc.js';
import { connectGuarded, createMcpServer } from './server.js';
import type { McpApp } from './server.js';

export interface McpHttpContext {
  requestId: string;
  clientIp: string | undefined;
  /** Who the request's signature says is calling (set here, once per HTTP request, R-SIG4). */
  caller?: CallerIdentity;
}

const EMPTY = Buffer.alloc(0);

export class McpHttpEndpoint {
  readonly #requests: TransportRequests;

  constructor(
    private readonly app: McpApp,
    /** `sdkOnly`: every message through the SDK, no fast path (tests compare the two answers). */
    private readonly options: { maxBodyBytes: number; publicUrl: string; sdkOnly?: boolean },
  ) {
    this.#requests = new TransportRequests(options.publicUrl);
  }

  async handle(req: IncomingMessage, res: ServerResponse, ctx: McpHttpContext): Promise<void> {
    const body = await readJsonBody(req, this.options.maxBodyBytes);
    if (!body.ok) {
      const code = body.reason === 'invalid_json' ? ErrorCode.ParseError : ErrorCode.InvalidRequest;
      const prefix = body.reason === 'invalid_json' ? 'Parse error' : 'Invalid Request';
      if (body.status === 413) closeAfterAnswer(res);
      // A body too large or of the wrong type may still show its id in its first bytes (R-J1);
      // one that is not JSON has none anybody can rely on.
      if (body.reason === 'invalid_json') writeRpcError(res, body.status, null, code, `${prefix}: ${body.message}`);
      else writeJsonRpcError(res, body.status, body.prefix, { code, message: `${prefix}: ${body.message}` });
      return;
    }
    const verifier = this.app.operations.verifier;
    if (verifier !== undefined) {
      try {
        const caller = await verifier.identify(signedRequestOf(req, body.raw), metaProfileUrl(body.value), ctx.clientIp);
        ctx = { ...ctx, caller };
      } catch (err) {
        if (!(err instanceof SignatureError) && !(err instanceof UcpNegotiationError)) throw err;
        refuseMessage(res, body.value, toMcpError(err, ''));
        return;
      }
    }
    if (Array.isArray(body.value)) {
      await this.#batch(req, res, body.value, ctx);
      return;
    }
    // A plain tools/call is well formed by construction; only other messages need the full check.
    const shapeError = this.#plain(req, body.value) === undefined ? checkJsonRpcShape(body.value) : undefined;
    if (shapeError !== undefined) {
      writeRpcError(res, 400, shapeError.id, ErrorCode.InvalidRequest, `Invalid Request: ${shapeError.message}`);
      return;
    }
    const answer = await this.#dispatch(req, withoutExtraMembers(body.value), ctx);
    const failure = mostSevere(answer.failures);
    let status = answer.status;
    if (failure !== undefined && status === 200) status = failure.httpStatus;
    if (failure?.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(failure.retryAfterSeconds));
    res.statusCode = status;
    if (answer.contentType !== null && answer.bytes.length > 0) res.setHeader('Content-Type', answer.contentType);
    // A protocol-version error from the transport (400) is passed through as is.
    res.end(answer.bytes);
  }

  /**
   * A JSON-RPC 2.0 batch, answered as JSON-RPC 2.0 §6 says (R-J1): an array holding one response
   * per request (in any order; we keep the batch's), an Invalid Request error for each element that
   * is not a request, nothing for notifications — and no body at all (202, as for a single
   * notification) when nothing is left to answer. An empty array is not a batch: one -32600 object.
   * A batch may be of any length: the first MAX_BATCH messages are carried out, each further
   * request is refused on its own, with its id (jsonrpc.ts `planBatch`).
   *
   * MCP 2025-06-18 removed batching from MCP, but this endpoint is bound by the UCP seed to
   * JSON-RPC 2.0, whose batches a Platform may still send whatever protocol version it negotiated;
   * the SDK transport, given an array, answers a one-element batch with a bare object. So each
   * element is dispatched on its own (a fresh stateless Server each, like a single request) and
   * the array is assembled here.
   */
  async #batch(req: IncomingMessage, res: ServerResponse, batch: readonly unknown[], ctx: McpHttpContext): Promise<void> {
    if (batch.length === 0) {
      writeRpcError(res, 400, null, ErrorCode.InvalidRequest, 'Invalid Request: an empty batch is not a JSON-RPC request.');
      return;
    }
    // The request itself was charged before its body was read; each further message counts too.
    try {
      await this.app.operations.limiter.admitClient(ctx.clientIp, batch.length - 1);
    } catch (err) {
      if (!(err instanceof RateLimitedError)) throw err;
      // Refused as a whole: each request gets the refusal, with its own id (R-J1).
      const data = { retry_after: err.retryAfterSeconds };
      const answers = batch.filter(isRequest).map((m) => rpcError(idOf(m), UCP_PROTOCOL_ERROR, err.message, data));
      res.setHeader('Retry-After', String(err.retryAfterSeconds));
      if (answers.length === 0) writeRpcError(res, 429, null, UCP_PROTOCOL_ERROR, err.message, data);
      else writeJsonText(res, 429, JSON.stringify(answers));
      return;
    }
    const answers: unknown[] = [];
    const failures: MappedMcpError[] = [];
    let invalid = 0;
    for (const step of planBatch(batch)) {
      if (step.kind === 'refused') {
        invalid++;
        answers.push(step.answer);
        continue;
      }
      const answer = await this.#dispatch(req, step.message, ctx);
      failures.push(...answer.failures);
      if (answer.bytes.length === 0) continue; // a notification (or a response sent to us): nothing to answer
      answers.push(JSON.parse(typeof answer.bytes === 'string' ? answer.bytes : answer.bytes.toString('utf8')));
    }
    if (answers.length === 0) {
      res.statusCode = 202;
      res.end();
      return;
    }
    const failure = mostSevere(failures);
    if (failure?.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(failure.retryAfterSeconds));
    // Only refused elements: the batch as a whole was not JSON-RPC, like a single invalid request.
    const status = failure?.httpStatus ?? (invalid === answers.length ? 400 : 200);
    writeJsonText(res, status, JSON.stringify(answers));
  }

  #plain(req: IncomingMessage, message: unknown): PlainToolsCall | undefined {
    return this.options.sdkOnly === true ? undefined : plainToolsCall(message, req.headers['mcp-protocol-version']);
  }

  /**
   * One well-formed JSON-RPC message: a plain `tools/call` straight to the tool (http-tools-call.ts),
   * anything else through a fresh stateless SDK Server and transport.
   */
  async #dispatch(req: IncomingMessage, message: unknown, ctx: McpHttpContext): Promise<DispatchAnswer> {
    const plain = this.#plain(req, message);
    if (plain !== undefined) {
      const { bytes, failures } = await answerToolsCall(this.app, ctx, plain);
      return { status: 200, bytes, contentType: 'application/json', failures };
    }
    return this.#dispatchSdk(req, message, ctx);
  }

  /** One well-formed JSON-RPC message through a fresh stateless SDK Server and transport. */
  async #dispatchSdk(req: IncomingMessage, message: unknown, ctx: McpHttpContext): Promise<DispatchAnswer> {
    const failures: MappedMcpError[] = [];
    const server = createMcpServer(this.app, { ...ctx, onFailure: (f) => failures.push(f) });
    // No sessionIdGenerator = stateless: no Mcp-Session-Id, no initialize required before tools/call.
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
    try {
      await connectGuarded(server, transport);
      const request = this.#requests.get(req.headers['mcp-protocol-version']);
      const response = await transport.handleRequest(request, { parsedBody: message });
      // The body as bytes, written as bytes: decoding it to a string only for node:http to encode
      // it again (and measure it twice) cost more than the JSON.stringify that produced it.
      const bytes = response.status === 202 || response.body === null ? EMPTY : Buffer.from(await response.arrayBuffer());
      return { status: response.status, bytes, contentType: response.headers.get('content-type'), failures };
    } finally {
      await closeServer(server);
    }
  }
}

interface DispatchAnswer {
  status: number;
  /**
   * The body: the SDK's bytes as they came, or our own answer as text — node:http sends a string
   * body in one write with the headers, where a Buffer costs a second chunk (writev).
   */
  bytes: Buffer | string;
  contentType: string | null;
  failures: MappedMcpError[];
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

/**
 * The profile a single `tools/call` names in `arguments.meta["ucp-agent"].profile`: where a signed
 * MCP request without a `UCP-Agent` header finds its signer's keys. Undefined for anything else.
 */
function metaProfileUrl(message: unknown): string | undefined {
  if (!isRecord(message) || message['method'] !== 'tools/call' || !isRecord(message['params'])) return undefined;
  const args = message['params']['arguments'];
  const meta = isRecord(args) ? args['meta'] : undefined;
  const agent = isRecord(meta) ? meta['ucp-agent'] : undefined;
  const profile = isRecord(agent) ? agent['profile'] : undefined;
  return typeof profile === 'string' ? profile : undefined;
}

/**
 * Refuses the whole HTTP request (a signature that does not verify, a signer profile that cannot
 * be resolved) as JSON-RPC: the request's id echoed, or one error per request of a batch.
 */
function refuseMessage(res: ServerResponse, message: unknown, mapped: MappedMcpError): void {
  const { code, message: text, data } = mapped.error;
  const one = (id: RpcId): ReturnType<typeof rpcError> => rpcError(id, code, text, isRecord(data) ? data : undefined);
  const requests = Array.isArray(message) ? message.filter(isRequest) : [];
  const answer = requests.length > 0 ? requests.map((m) => one(idOf(m))) : one(idOf(message));
  writeJsonText(res, mapped.httpStatus, JSON.stringify(answer));
}

function writeJsonText(res: ServerResponse, status: number, text: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  res.end(text);
}

function writeRpcError(
  res: ServerResponse,
  status: number,
  id: RpcId,
  code: number,
  message: string,
  data?: Record<string, unknown>,
): void {
  writeJsonText(res, status, JSON.stringify(rpcError(id, code, message, data)));
}
