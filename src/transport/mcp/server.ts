/**
 * The MCP server of the Location capability, on the official SDK's low-level `Server`.
 *
 * Why SDK v1 (`@modelcontextprotocol/sdk` 1.x, pinned in package.json): it is the SDK's stable line,
 * the one MCP clients are widely tested against, and it still offers the stateless Streamable HTTP
 * transport plus the low-level `Server` we need. A later major reorganises the packages; keeping
 * every SDK import inside src/transport/mcp/ (enforced by test/architecture.test.ts) keeps that
 * move local to this folder.
 *
 * Why the low-level `Server` and not `McpServer`: `McpServer` reports invalid tool arguments as a
 * successful `isError` result, while UCP wants a JSON-RPC `-32602` with a pointer (R-M1); and it
 * wants zod shapes where we have JSON Schemas. With `Server` the `tools/call` handler validates
 * first and throws an McpError, which the SDK sends as the JSON-RPC error.
 *
 * Envelope guard: the SDK parses each request's params with its own zod schema *before* calling our
 * handler, and a zod failure there becomes `-32603 Internal error`. `guardMessages` therefore checks
 * the params of the methods we serve first and answers `-32602` itself.
 */
import { performance } from 'node:perf_hooks';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  isJSONRPCRequest,
  ListToolsRequestSchema,
  PingRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { UcpNegotiationError } from '../../errors.js';
import type { Logger } from '../../logging.js';
import { summarizeRequest } from '../../logging.js';
import { executeOperation, warningCodes } from '../operations.js';
import type { CallerIdentity } from '../request-signatures.js';
import { elapsedMs } from '../timing.js';
import type { OperationDeps } from '../operations.js';
import { exampleProfileUrl, withContinueUrl, withTrustHint } from '../profile-trust.js';
import { invalidParams, RpcError, toMcpError } from './errors.js';
import type { MappedMcpError } from './errors.js';
import type { ToolCatalog, ToolName } from './tools.js';

export interface McpApp {
  operations: OperationDeps;
  catalog: ToolCatalog;
  serverInfo: { name: string; version: string };
  logger: Logger;
}

/** What one HTTP request (or the stdio session) contributes to the calls it carries. */
export interface McpCallContext {
  /** Correlates log lines: the HTTP `Request-Id`, or the stdio session id (plus the JSON-RPC id). */
  requestId: string;
  /** Socket peer for per-IP limits; undefined over stdio. */
  clientIp: string | undefined;
  /** Told about every mapped failure, so Streamable HTTP can set the HTTP status (R-G7). */
  onFailure?: (failure: MappedMcpError) => void;
  /** Who the HTTP request's signature says is calling (R-SIG4); absent over stdio. */
  caller?: CallerIdentity;
}

/** The `initialize` instructions: the envelope every call needs, with a profile URL that works here. */
function serverInstructions(announced: readonly string[]): string {
  const base =
    'UCP Location (2026-08-25). Every tools/call needs arguments {meta: {"ucp-agent": {profile: "<platform profile URL>"}}, location: {...}}.';
  if (announced.length === 0) return `${base} The profile URL is that of your published UCP platform profile.`;
  const urls = announced.join(', ');
  return announced.length === 1
    ? `${base} This business pre-approves the platform profile URL ${urls}: send it as the profile.`
    : `${base} This business pre-approves these platform profile URLs: ${urls}; send one of them as the profile.`;
}

/**
 * The SDK builds an Ajv instance per Server unless given one; the Server only uses it for
 * elicitation (which we never do), but stateless HTTP builds a Server per SDK-handled request, so share one.
 */
const sharedValidator = new AjvJsonSchemaValidator();

/** Methods whose params the SDK parses before our code runs, with their SDK schema. */
const GUARDED_METHODS = new Map<string, { safeParse(v: unknown): { success: boolean } }>([
  ['initialize', InitializeRequestSchema],
  ['ping', PingRequestSchema],
  ['tools/list', ListToolsRequestSchema],
  ['tools/call', CallToolRequestSchema],
]);

export function createMcpServer(app: McpApp, ctx: McpCallContext): Server {
  const server = new Server(app.serverInfo, {
    capabilities: { tools: { listChanged: false } },
    instructions: serverInstructions(app.operations.announcedProfileUrls ?? []),
    jsonSchemaValidator: sharedValidator,
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...app.catalog.list] }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) =>
    toolResult(await callTool(app, ctx, extra.requestId, request.params.name, request.params.arguments)),
  );
  // Unknown methods: the SDK's own answer is a bare "Method not found"; say what exists instead.
  server.fallbackRequestHandler = (request) =>
    Promise.reject(
      new RpcError(
        ErrorCode.MethodNotFound,
        `Method not found: "${request.method}". This server implements initialize, ping, tools/list and tools/call.`,
      ),
    );
  return server;
}

/**
 * Connects `server` to `transport` and installs the envelope guard in front of the SDK's dispatch:
 * a request whose params would fail the SDK's parse gets a `-32602` from us instead.
 */
export async function connectGuarded(server: Server, transport: Transport): Promise<void> {
  await server.connect(transport);
  const dispatch = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const rejection = isJSONRPCRequest(message) ? checkEnvelope(message) : undefined;
    if (rejection === undefined) {
      dispatch?.(message, extra);
      return;
    }
    const reply: JSONRPCMessage = {
      jsonrpc: '2.0',
      id: (message as JSONRPCRequest).id,
      error: { code: rejection.code, message: rejection.message, data: rejection.data },
    };
    transport.send(reply).catch((err: unknown) => server.onerror?.(err instanceof Error ? err : new Error(String(err))));
  };
}

/** `-32602` for params the SDK would choke on; undefined when the envelope is fine. */
export function checkEnvelope(request: JSONRPCRequest): RpcError | undefined {
  const schema = GUARDED_METHODS.get(request.method);
  if (schema === undefined) return undefined;
  const params = (request as { params?: unknown }).params;
  if (request.method === 'tools/call') {
    if (!isRecord(params))
      return invalidParams('tools/call needs params {"name": "<tool>", "arguments": {...}}.', '', { code: 'invalid_params' });
    if (typeof params['name'] !== 'string') {
      return invalidParams('tools/call params.name must be the tool name as a string, e.g. "search_locations".', '', {
        code: 'invalid_params',
      });
    }
    if (params['arguments'] !== undefined && !isRecord(params['arguments'])) {
      return invalidParams('tools/call params.arguments must be an object: {"meta": {...}, "location": {...}}.', '', {
        code: 'invalid_params',
      });
    }
  }
  if (!schema.safeParse(request).success) {
    return invalidParams(`Invalid params for ${request.method}; see the MCP specification for its parameters.`, '', {
      code: 'invalid_params',
    });
  }
  return undefined;
}

/**
 * The `tools/call` result for a UCP payload (R-M2): the payload as `structuredContent` and the same
 * JSON as the text of `content[0]`. (http-tools-call.ts writes these bytes itself, serialising once.)
 */
function toolResult(payload: Record<string, unknown>): CallToolResult {
  return { structuredContent: payload, content: [{ type: 'text', text: JSON.stringify(payload) }] };
}

/**
 * Runs one tool call and returns its UCP payload; a failure is thrown as the McpError the client
 * gets (and reported to `ctx.onFailure`). Shared by the SDK's handler (stdio, and HTTP messages
 * other than a plain `tools/call`) and the HTTP fast path, so both answer the same.
 */
export async function callTool(
  app: McpApp,
  ctx: McpCallContext,
  rpcId: string | number,
  name: string,
  args: Record<string, unknown> | undefined,
): Promise<Record<string, unknown>> {
  const started = performance.now();
  // Bindings passed per line rather than through logger.child(): a child logger per call
  // serialised its bindings even when the level was off.
  const log = app.logger;
  const who = { requestId: ctx.requestId, rpcId, tool: name };
  // Summarised only when a line is written (info is off on a busy server).
  let logged: unknown;
  // Pointers of validation errors are relative to `arguments` already; those the engine raises
  // (radius cap, bad cursor) point into the bare request, which sits at `/location`.
  let pointerBase = '';
  try {
    const operation = app.catalog.operationOf(name);
    if (operation === undefined) {
      throw invalidParams(`Unknown tool "${name}". Available tools: ${app.catalog.names.join(', ')}.`, '', { code: 'unknown_tool' });
    }
    const argumentsObject = args ?? {};
    const profileUrl = requireProfileUrl(argumentsObject['meta'], exampleProfileUrl(app.operations.announcedProfileUrls ?? []));
    if (argumentsObject['location'] === undefined) {
      const hint = operation === 'search' ? '{} browses' : '{"ids": [...]}';
      throw invalidParams(`arguments.location is required: the ${operation} request (${hint}).`, '/location', { code: 'invalid_request' });
    }
    logged = argumentsObject['location'];
    const { location } = app.operations.validate.toolArguments(name as ToolName, argumentsObject);
    pointerBase = '/location';
    const result = await executeOperation(app.operations, {
      operation,
      profileUrl,
      request: location,
      clientIp: ctx.clientIp,
      ...(ctx.caller === undefined ? {} : { caller: ctx.caller }),
    });
    if (log.isLevelEnabled('info')) {
      log.info(
        { ...who, durationMs: elapsedMs(started), outcome: result.outcome, results: result.resultCount, request: summarizeRequest(logged) },
        'tools/call',
      );
    }
    app.operations.observe?.({
      binding: 'mcp',
      operation,
      outcome: result.outcome,
      warnings: warningCodes(result.payload),
      durationMs: elapsedMs(started),
    });
    return result.payload as unknown as Record<string, unknown>;
  } catch (err) {
    // Discovery failures say which profile URLs work here and how the operator adds one.
    const mapped = toMcpError(
      withContinueUrl(withTrustHint(err, app.operations.announcedProfileUrls ?? []), app.operations.continueUrl),
      pointerBase,
    );
    ctx.onFailure?.(mapped);
    app.operations.observe?.({
      binding: 'mcp',
      operation: app.catalog.operationOf(name),
      outcome: 'error',
      code: mcpErrorCode(mapped),
      warnings: [],
      durationMs: elapsedMs(started),
    });
    const fields = {
      ...who,
      durationMs: elapsedMs(started),
      code: mapped.error.code,
      httpStatus: mapped.httpStatus,
      request: summarizeRequest(logged),
    };
    if (mapped.unexpected) log.error({ ...fields, err }, 'tools/call failed');
    else log.info({ ...fields, reason: mapped.error.message }, 'tools/call refused');
    throw mapped.error;
  }
}

/** The UCP code of a mapped failure (`data.code`), or a name for the protocol errors that carry none. */
function mcpErrorCode(mapped: MappedMcpError): string {
  const data: unknown = mapped.error.data;
  if (isRecord(data) && typeof data['code'] === 'string') return data['code'];
  return MCP_STATUS_CODES[mapped.httpStatus] ?? 'internal_error';
}

const MCP_STATUS_CODES: Readonly<Record<number, string>> = { 403: 'forbidden', 429: 'rate_limited', 503: 'service_unavailable' };

/**
 * `meta["ucp-agent"].profile` is required on every call (R-G1). Its absence is reported here with
 * the exact pointer of what is missing; the schema then checks the rest of `meta` (URI format,
 * idempotency key).
 */
function requireProfileUrl(meta: unknown, exampleUrl: string): string {
  // The example is a URL that works here when one is announced, not one that fails too.
  const example = `{"ucp-agent": {"profile": "${exampleUrl}"}}`;
  if (!isRecord(meta)) {
    throw invalidParams(`arguments.meta is required and must be an object: ${example}.`, '/meta', { code: 'invalid_request' });
  }
  const agent = meta['ucp-agent'];
  if (!isRecord(agent)) {
    throw invalidParams(`arguments.meta["ucp-agent"] is required and must be an object: ${example}.`, '/meta/ucp-agent', {
      code: 'invalid_request',
    });
  }
  const profile = agent['profile'];
  if (typeof profile !== 'string' || profile.length === 0) {
    throw invalidParams(
      `arguments.meta["ucp-agent"].profile is required: the URL of your Platform profile, e.g. "${exampleUrl}".`,
      '/meta/ucp-agent/profile',
      {
        code: 'invalid_request',
      },
    );
  }
  // A profile URL that is present but unusable is the negotiation error `invalid_profile_url`
  // (R-G5), as on REST, rather than a schema failure of its `format: uri`.
  if (!URL.canParse(profile)) {
    throw new UcpNegotiationError(
      'invalid_profile_url',
      `The platform profile URL ${JSON.stringify(profile.slice(0, 200))} is not a valid absolute URL; expected https://host/path.`,
    );
  }
  return profile;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
