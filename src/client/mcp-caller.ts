/**
 * MCP binding of the client: the official SDK `Client` over `StreamableHTTPClientTransport`,
 * talking to `<endpoint>` (the business's JSON-RPC URL). Every `tools/call` carries
 * `arguments.meta["ucp-agent"].profile` (R-G1) and the domain request in `arguments.location`
 * (R-M2); the UCP payload comes back in `structuredContent`.
 *
 * HTTP goes through undici's fetch on the pinned endpoint agent (endpoint-agent.ts); redirects are
 * never followed. Each HTTP request carries a fresh `Request-Id` for log correlation.
 */
import { randomUUID } from 'node:crypto';
import { serializeDictionary } from 'structured-headers';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { fetch as undiciFetch } from 'undici';
import { businessFailure, describeBusinessError } from './business-errors.js';
import { isRecord, type CallerOptions, type Operation, type OperationCaller } from './caller.js';
import type { EndpointAgent } from './endpoint-agent.js';
import type { MessageSignatures } from './message-signatures.js';
import { DiscoveryError, ResponseValidationError, UcpClientError } from './errors.js';

const TOOL: Readonly<Record<Operation, string>> = { search: 'search_locations', lookup: 'lookup_locations' };

/** Largest response body read, bytes: a page of Locations is far below this. */
const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/** JSON-RPC code UCP uses for discovery and version failures (R-G5). */
const UCP_DISCOVERY_ERROR = -32001;

export class McpCaller implements OperationCaller {
  readonly transport = 'mcp' as const;

  private constructor(
    readonly endpoint: string,
    private readonly client: Client,
    private readonly profileUrl: string,
    private readonly options: CallerOptions,
  ) {}

  /** Connects (MCP `initialize`) so an unreachable or non-MCP endpoint shows up at discovery. */
  static async connect(
    agent: EndpointAgent,
    profileUrl: string,
    options: CallerOptions & { clientVersion: string },
    signatures: MessageSignatures,
  ): Promise<McpCaller> {
    const endpoint = agent.url.href;
    const client = new Client({ name: 'ucp-location', version: options.clientVersion }, { capabilities: {} });
    const transport = new StreamableHTTPClientTransport(agent.url, {
      fetch: pinnedFetch(agent, endpoint, { userAgent: options.userAgent, profileUrl, signatures }),
      redirectPolicy: 'same-origin',
    });
    try {
      await client.connect(transport, { timeout: options.timeoutMs });
    } catch (error) {
      await client.close().catch(() => undefined);
      throw toClientError(error, endpoint, 'initialize');
    }
    return new McpCaller(endpoint, client, profileUrl, options);
  }

  async call(operation: Operation, payload: unknown): Promise<unknown> {
    let result: Awaited<ReturnType<Client['callTool']>>;
    try {
      result = await this.client.callTool(
        { name: TOOL[operation], arguments: { meta: { 'ucp-agent': { profile: this.profileUrl } }, location: payload } },
        undefined,
        { timeout: this.options.timeoutMs },
      );
    } catch (error) {
      throw toClientError(error, this.endpoint, TOOL[operation], operation);
    }
    if (result.isError === true) {
      const text = Array.isArray(result.content)
        ? result.content.map((c) => (isRecord(c) && typeof c['text'] === 'string' ? c['text'] : '')).join(' ')
        : '';
      throw businessFailure(describeBusinessError('mcp', `a tool error result for ${TOOL[operation]}`, text.trim(), undefined), {
        transport: 'mcp',
        data: result,
      });
    }
    if (!isRecord(result.structuredContent)) {
      throw new ResponseValidationError(
        `The ${TOOL[operation]} result has no structuredContent object; UCP requires the payload there (R-M2).`,
        operation,
        [{ pointer: '', message: 'structuredContent is missing' }],
      );
    }
    return result.structuredContent;
  }

  async close(): Promise<void> {
    await this.client.close().catch(() => undefined);
  }
}

/**
 * undici fetch on the pinned agent, redirects surfaced (never followed), a Request-Id per
 * request. With a signing key, every HTTP request of the session (initialize, tools/call,
 * notifications, the closing DELETE) carries `UCP-Agent` and an RFC 9421 signature over the exact
 * body bytes; when the Business publishes keys, every answer to a POST or DELETE is read whole and
 * verified before the SDK sees it. Types: undici's Response is structurally the web Response the
 * SDK expects.
 */
function pinnedFetch(
  agent: EndpointAgent,
  endpoint: string,
  context: { userAgent: string; profileUrl: string; signatures: MessageSignatures },
): FetchLike {
  const { userAgent, profileUrl, signatures } = context;
  return async (url, init) => {
    const headers = new Headers(init?.headers);
    headers.set('request-id', randomUUID());
    headers.set('user-agent', userAgent);
    const method = (init?.method ?? 'GET').toUpperCase();
    const body = bodyBytes(init?.body);
    if (signatures.signsRequests) {
      // The signer's key is found through UCP-Agent, on MCP as on REST (draft, "MCP Transport").
      headers.set('ucp-agent', serializeDictionary({ profile: profileUrl }));
      const plain = Object.fromEntries(headers.entries());
      const target = typeof url === 'string' ? new URL(url) : url;
      for (const [name, value] of Object.entries(signatures.signatureHeaders({ url: target, method, headers: plain, body }))) {
        headers.set(name, value);
      }
    }
    const response = await undiciFetch(url, {
      ...(init as Record<string, unknown>),
      headers: Object.fromEntries(headers.entries()),
      ...(body !== undefined ? { body } : {}),
      dispatcher: agent.dispatcher,
      redirect: 'manual',
    });
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => undefined);
      throw new DiscoveryError(
        'redirect_refused',
        'endpoint',
        `The MCP endpoint ${endpoint} answered HTTP ${response.status} (a redirect to ${response.headers.get('location') ?? 'nowhere'}); endpoints must not redirect and redirects are never followed.`,
        { url: endpoint },
      );
    }
    const limited = capped(response, endpoint);
    // A GET opens the server's event stream, which never ends and carries nothing this client uses.
    if (!signatures.verifiesAnswers || method === 'GET') return limited;
    return verified(limited, signatures, exchangeName(method, body));
  };
}

/** "search_locations over MCP", "initialize over MCP", or the HTTP method when the body says nothing. */
function exchangeName(method: string, body: Uint8Array | undefined): string {
  let name = `an HTTP ${method}`;
  try {
    const message: unknown = body === undefined ? undefined : JSON.parse(Buffer.from(body).toString('utf8'));
    if (isRecord(message) && typeof message['method'] === 'string') {
      const params = message['params'];
      name =
        message['method'] === 'tools/call' && isRecord(params) && typeof params['name'] === 'string' ? params['name'] : message['method'];
    }
  } catch {
    // A body that is not JSON keeps the HTTP method as its name.
  }
  return `${name} over MCP`;
}

/** The request body as the bytes that travel: the SDK sends JSON-RPC messages as strings. */
function bodyBytes(body: unknown): Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  throw new TypeError('The MCP client sent a request body that is neither a string nor bytes; it cannot be digested and signed.');
}

/** The answer read whole (within the cap), its signature checked, then handed on unchanged. */
async function verified(response: Response, signatures: MessageSignatures, what: string): Promise<Response> {
  const bytes = noBody(response.status) || response.body === null ? new Uint8Array() : new Uint8Array(await response.arrayBuffer());
  signatures.verifyAnswer({ status: response.status, headers: response.headers }, bytes, what);
  if (noBody(response.status)) return response;
  return new Response(bytes, { status: response.status, statusText: response.statusText, headers: response.headers });
}

function noBody(status: number): boolean {
  return [101, 204, 205, 304].includes(status);
}

/** The response with its body limited to MAX_RESPONSE_BYTES (the SDK reads bodies whole). */
function capped(response: Response, endpoint: string): Response {
  const tooLarge = (): DiscoveryError =>
    new DiscoveryError(
      'unreachable',
      'endpoint',
      `The MCP endpoint ${endpoint} sent more than ${MAX_RESPONSE_BYTES} bytes; the response was abandoned.`,
      { url: endpoint },
    );
  const announced = Number(response.headers.get('content-length'));
  if (Number.isFinite(announced) && announced > MAX_RESPONSE_BYTES) {
    void response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  // Statuses that cannot carry a body must not be rebuilt with one.
  if (response.body === null || noBody(response.status)) return response;
  let size = 0;
  const body = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength;
        if (size > MAX_RESPONSE_BYTES) controller.error(tooLarge());
        else controller.enqueue(chunk);
      },
    }),
  );
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

function toClientError(error: unknown, endpoint: string, what: string, operation?: Operation): UcpClientError {
  if (error instanceof UcpClientError) return error;
  if (error instanceof McpError) {
    const data = error.data;
    // The SDK reports its own request timeout as code -32001 too (its RequestTimeout), with data.timeout.
    if (isRecord(data) && typeof data['timeout'] === 'number' && data['code'] === undefined) {
      return new DiscoveryError(
        'unreachable',
        'endpoint',
        `The MCP endpoint ${endpoint} did not answer ${what} within ${data['timeout']} ms.`,
        { cause: error, url: endpoint },
      );
    }
    const ucpCode = isRecord(data) && typeof data['code'] === 'string' ? data['code'] : undefined;
    const content = isRecord(data) && typeof data['content'] === 'string' ? data['content'] : stripSdkPrefix(error.message);
    const pointer = isRecord(data) && typeof data['pointer'] === 'string' ? data['pointer'] : undefined;
    const retry = isRecord(data) && typeof data['retry_after'] === 'number' ? data['retry_after'] : undefined;
    const kind = error.code === UCP_DISCOVERY_ERROR ? 'a discovery error' : `JSON-RPC error ${error.code}`;
    return businessFailure(
      describeBusinessError('mcp', `${kind} to ${what}`, content, ucpCode),
      {
        transport: 'mcp',
        rpcCode: error.code,
        data,
        ...(ucpCode !== undefined ? { ucpCode } : {}),
        ...(pointer !== undefined ? { pointer } : {}),
        ...(retry !== undefined ? { retryAfterSeconds: retry } : {}),
      },
      error,
    );
  }
  if (error instanceof StreamableHTTPError) {
    // A protocol error (401/403/429/503/500): the HTTP status is the primary signal (R-G7); the
    // body is usually a JSON-RPC error worth quoting.
    const body = parseRpcErrorBody(error.message);
    const status = error.code ?? 0;
    const retry = isRecord(body?.data) && typeof body.data['retry_after'] === 'number' ? body.data['retry_after'] : undefined;
    if (status === 404 || status === 405 || status === 406 || status === 415) {
      return new DiscoveryError(
        'unreachable',
        'endpoint',
        `${endpoint} does not behave as an MCP endpoint (HTTP ${status} to ${what}); check the business profile's mcp endpoint.`,
        {
          cause: error,
          url: endpoint,
        },
      );
    }
    // A refusal before the tool runs (a signature failure, 401) names its UCP code in data.code.
    const ucpCode = typeof body?.data?.['code'] === 'string' ? body.data['code'] : undefined;
    const content = typeof body?.data?.['content'] === 'string' ? body.data['content'] : body?.message;
    return businessFailure(
      describeBusinessError('mcp', `HTTP ${status} to ${what}`, content ?? stripSdkPrefix(error.message), ucpCode),
      {
        transport: 'mcp',
        httpStatus: status,
        ...(ucpCode !== undefined ? { ucpCode } : {}),
        ...(body?.code !== undefined ? { rpcCode: body.code } : {}),
        ...(body?.data !== undefined ? { data: body.data } : {}),
        ...(retry !== undefined ? { retryAfterSeconds: retry } : {}),
      },
      error,
    );
  }
  const name = (error as { name?: unknown } | null)?.name;
  if (typeof name === 'string' && name.includes('ZodError')) {
    const message = `The MCP endpoint ${endpoint} answered ${what} with a malformed JSON-RPC message`;
    if (operation !== undefined)
      return new ResponseValidationError(`${message}.`, operation, [{ pointer: '', message: String(error) }], { cause: error });
    return new DiscoveryError('unreachable', 'endpoint', `${message}; is it an MCP endpoint?`, { cause: error, url: endpoint });
  }
  const cause = (error as { cause?: unknown } | null)?.cause;
  const reason = cause instanceof Error ? cause.message : error instanceof Error ? error.message : String(error);
  return new DiscoveryError('unreachable', 'endpoint', `Cannot reach the MCP endpoint ${endpoint} (${what}): ${reason}`, {
    cause: error,
    url: endpoint,
  });
}

/** The SDK's StreamableHTTPError text is "Error POSTing to endpoint: <body>"; the body may be a JSON-RPC error. */
function parseRpcErrorBody(message: string): { code?: number; message?: string; data?: Record<string, unknown> } | undefined {
  const start = message.indexOf('{');
  if (start < 0) return undefined;
  try {
    const parsed: unknown = JSON.parse(message.slice(start));
    const error = isRecord(parsed) ? parsed['error'] : undefined;
    if (!isRecord(error)) return undefined;
    return {
      ...(typeof error['code'] === 'number' ? { code: error['code'] } : {}),
      ...(typeof error['message'] === 'string' ? { message: error['message'] } : {}),
      ...(isRecord(error['data']) ? { data: error['data'] } : {}),
    };
  } catch {
    return undefined;
  }
}

function stripSdkPrefix(message: string): string {
  return message.replace(/^MCP error -?\d+: /, '').replace(/^Streamable HTTP error: /, '');
}
