/**
 * A deliberately low-level MCP client for the checker: it writes JSON-RPC by hand so it can also
 * send what a real client never would (a body that is not JSON, a message that is not JSON-RPC,
 * an unknown method). It speaks Streamable HTTP the way any Business may answer it: a JSON body
 * or an SSE stream, with or without a session (`Mcp-Session-Id` is echoed when one is issued).
 */
import { headerValue, type Exchange, type HttpPeer } from './exchange.js';
import { isRecord } from './oracle.js';
import type { SigningProbe } from './request-signing.js';

export type JsonRpcId = string | number | null;

/** An exchange plus the JSON-RPC message found in its answer (or why none was found). */
export interface RpcExchange {
  exchange: Exchange;
  /** The id the request carried; undefined for raw bodies without one. */
  sentId: JsonRpcId | undefined;
  message?: Record<string, unknown>;
  problem?: string;
}

/** MCP protocol revision the checker offers at `initialize`. */
export const MCP_PROTOCOL_VERSION = '2025-06-18';

export class McpPeer {
  #nextId = 1;
  #sessionId: string | undefined;
  #protocolVersion: string | undefined;
  /** What `initialize` did; quoted when later calls fail for session reasons. */
  initialize: RpcExchange | undefined;

  constructor(
    private readonly http: HttpPeer,
    readonly endpoint: string,
  ) {}

  /**
   * `initialize` + `notifications/initialized`. Stateless servers answer without a session; the
   * checker then simply goes on. A failure here is recorded, not thrown: tool calls may still work.
   */
  async open(): Promise<void> {
    const init = await this.request('initialize', {
      protocolVersion: MCP_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'ucp-location-conformance', version: '1' },
    });
    this.initialize = init;
    const session = headerValue(init.exchange.headers, 'mcp-session-id');
    if (session !== undefined && session !== '') this.#sessionId = session;
    const result = init.message?.['result'];
    if (isRecord(result) && typeof result['protocolVersion'] === 'string') this.#protocolVersion = result['protocolVersion'];
    if (init.message !== undefined && 'result' in init.message) {
      await this.sendRaw(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), 'notifications/initialized', undefined);
    }
  }

  /** A well-formed request with a fresh numeric id. */
  request(method: string, params?: Record<string, unknown>): Promise<RpcExchange> {
    const id = this.#nextId++;
    const message = params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
    const label = method === 'tools/call' && typeof params?.['name'] === 'string' ? `tools/call ${params['name']}` : method;
    return this.sendRaw(JSON.stringify(message), label, id);
  }

  callTool(name: string, args: Record<string, unknown>, signing?: SigningProbe): Promise<RpcExchange> {
    if (signing === undefined) return this.request('tools/call', { name, arguments: args });
    const id = this.#nextId++;
    return this.sendRaw(
      JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }),
      `tools/call ${name}`,
      id,
      signing,
    );
  }

  /** Any body at all, as the Business's MCP endpoint receives it. */
  async sendRaw(body: string, label: string, sentId: JsonRpcId | undefined, signing?: SigningProbe): Promise<RpcExchange> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    if (this.#sessionId !== undefined) headers['mcp-session-id'] = this.#sessionId;
    if (this.#protocolVersion !== undefined) headers['mcp-protocol-version'] = this.#protocolVersion;
    const exchange = await this.http.send({
      binding: 'mcp',
      label,
      method: 'POST',
      url: this.endpoint,
      headers,
      body,
      cost: batchLength(body),
      ...(signing === undefined ? {} : { signing }),
    });
    return { exchange, sentId, ...readRpcAnswer(exchange, sentId) };
  }

  close(): Promise<void> {
    return this.http.close();
  }
}

/** The JSON-RPC response in an answer: a JSON body, a batch, or `data:` events of an SSE stream. */
export function readRpcAnswer(exchange: Exchange, sentId: JsonRpcId | undefined): { message?: Record<string, unknown>; problem?: string } {
  if (exchange.status === undefined) return { problem: `no answer (${exchange.failure ?? 'unknown failure'})` };
  const text = exchange.responseText ?? '';
  if (text.trim() === '') return { problem: `HTTP ${exchange.status} with an empty body; a JSON-RPC response was expected` };
  const type = (headerValue(exchange.headers, 'content-type') ?? '').toLowerCase();
  const candidates: unknown[] = [];
  if (type.startsWith('text/event-stream')) {
    for (const event of text.split(/\r?\n\r?\n/)) {
      const data = event
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, ''))
        .join('\n');
      if (data === '') continue;
      try {
        candidates.push(JSON.parse(data));
      } catch {
        return { problem: `an SSE event carries data that is not JSON: ${data.slice(0, 120)}` };
      }
    }
  } else {
    try {
      candidates.push(JSON.parse(text));
    } catch {
      return { problem: `the body is not JSON (content-type ${type || 'absent'})` };
    }
  }
  const messages = candidates.flatMap((c): unknown[] => (Array.isArray(c) ? c : [c])).filter(isRecord);
  const responses = messages.filter((m) => 'result' in m || 'error' in m);
  const match = responses.find((m) => sentId !== undefined && sentId !== null && m['id'] === sentId) ?? responses[0];
  return match === undefined ? { problem: 'the answer holds no JSON-RPC response object (with "result" or "error")' } : { message: match };
}

/** How many messages a raw body carries when it is a JSON-RPC batch (each is charged), else 1. */
function batchLength(body: string): number {
  if (!body.trimStart().startsWith('[')) return 1;
  try {
    const parsed: unknown = JSON.parse(body);
    return Array.isArray(parsed) ? Math.max(1, parsed.length) : 1;
  } catch {
    return 1;
  }
}
