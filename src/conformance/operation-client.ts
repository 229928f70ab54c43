/**
 * Sends one Location operation over MCP or REST and classifies the answer the same way for both
 * bindings, so semantic checks are written once and run over each binding the Business offers.
 * Every call is appended to the run's call log, which the audit checks read afterwards
 * (schema validity, envelope, private ids, predicates).
 */
import { describeRequest, describeResponse, type Exchange, type HttpPeer } from './exchange.js';
import type { McpPeer, RpcExchange } from './mcp-peer.js';
import type { SigningProbe } from './request-signing.js';
import { isRecord } from './oracle.js';
import type { BindingName, Evidence } from './types.js';

export type Operation = 'search' | 'lookup';

export const TOOL_OF: Readonly<Record<Operation, string>> = { search: 'search_locations', lookup: 'lookup_locations' };

/** UCP negotiation codes (R-G5): transport errors, not request errors. */
const NEGOTIATION_CODES = new Set(['invalid_profile_url', 'profile_unreachable', 'profile_malformed', 'version_unsupported']);

export type Outcome =
  /** A result with the UCP payload (`ucp`, `locations`, …). */
  | { kind: 'success'; payload: Record<string, unknown> }
  /** A successful transport answer whose payload says `ucp.status: "error"` (e.g. capabilities_incompatible). */
  | { kind: 'business_error'; payload: Record<string, unknown> }
  /** The request was refused as invalid or not honourable: JSON-RPC -32602, REST 400. */
  | { kind: 'request_error'; code: number; message: string; data: unknown }
  /** Discovery or version failure: JSON-RPC -32001, REST 400/422/424 with a negotiation code. */
  | { kind: 'negotiation_error'; code: number; ucpCode: string | undefined; message: string; data: unknown }
  /** Any other error answer (rate limit, server fault, wrong code). */
  | { kind: 'other_error'; code: number; message: string; data: unknown }
  /** No usable answer: no response, not JSON, not JSON-RPC, no payload. */
  | { kind: 'broken'; problem: string };

export interface Call {
  binding: BindingName;
  operation: Operation;
  /** The bare domain request sent (MCP `arguments.location`, REST body). */
  request: unknown;
  outcome: Outcome;
  exchange: Exchange;
  /** The Platform profile URL the call named (null: none). */
  profileUrl: string | null;
  /** MCP only: the JSON-RPC response as received, for envelope audits. */
  rpc?: RpcExchange;
}

export interface CallOptions {
  /** Platform profile URL to send instead of the run's; null sends none at all. */
  profileUrl?: string | null;
  /** With the run's key: send one of the requests a signing Business must refuse (R-SIG2). */
  signing?: SigningProbe;
}

export interface OperationClient {
  readonly binding: BindingName;
  call(operation: Operation, request: unknown, options?: CallOptions): Promise<Call>;
}

/** Evidence for one call: request, answer and what was expected. */
export function callEvidence(call: Call, expected: string, observed?: string): Evidence {
  return {
    expected,
    ...(observed === undefined ? {} : { observed }),
    request: describeRequest(call.exchange),
    response: describeResponse(call.exchange),
  };
}

/** One-line description of an outcome, for `observed`. */
export function describeOutcome(outcome: Outcome): string {
  switch (outcome.kind) {
    case 'success': {
      const locations = outcome.payload['locations'];
      return `success with ${Array.isArray(locations) ? locations.length : 'no'} location(s)`;
    }
    case 'business_error':
      return 'a result with ucp.status "error"';
    case 'broken':
      return outcome.problem;
    default:
      return `error ${outcome.code}: ${outcome.message.slice(0, 200)}`;
  }
}

export function locationsOf(outcome: Outcome): Record<string, unknown>[] {
  if (outcome.kind !== 'success') return [];
  const list = outcome.payload['locations'];
  return Array.isArray(list) ? list.filter(isRecord) : [];
}

export function idsOf(outcome: Outcome): string[] {
  return locationsOf(outcome)
    .map((l) => l['id'])
    .filter((id): id is string => typeof id === 'string');
}

function classifyPayload(payload: unknown): Outcome {
  if (!isRecord(payload)) return { kind: 'broken', problem: 'the result carries no UCP payload object' };
  const ucp = payload['ucp'];
  if (isRecord(ucp) && ucp['status'] === 'error') return { kind: 'business_error', payload };
  return { kind: 'success', payload };
}

export class McpOperationClient implements OperationClient {
  readonly binding = 'mcp' as const;

  constructor(
    private readonly peer: McpPeer,
    private readonly platformProfileUrl: string | null,
    private readonly log: Call[],
  ) {}

  async call(operation: Operation, request: unknown, options: CallOptions = {}): Promise<Call> {
    const profile = options.profileUrl === undefined ? this.platformProfileUrl : options.profileUrl;
    const args: Record<string, unknown> = { location: request };
    if (profile !== null) args['meta'] = { 'ucp-agent': { profile } };
    const rpc = await this.peer.callTool(TOOL_OF[operation], args, options.signing);
    const call: Call = { binding: 'mcp', operation, request, outcome: classifyRpc(rpc), exchange: rpc.exchange, profileUrl: profile, rpc };
    this.log.push(call);
    return call;
  }
}

/** Outcome of a tools/call answer (R-M1, R-G5 codes). */
export function classifyRpc(rpc: RpcExchange): Outcome {
  const message = rpc.message;
  if (message === undefined) return { kind: 'broken', problem: rpc.problem ?? 'no JSON-RPC response' };
  const error = message['error'];
  if (isRecord(error)) {
    const code = typeof error['code'] === 'number' ? error['code'] : Number.NaN;
    const text = typeof error['message'] === 'string' ? error['message'] : '';
    const data = error['data'];
    if (code === -32602) return { kind: 'request_error', code, message: text, data };
    if (code === -32001) {
      const ucpCode = isRecord(data) && typeof data['code'] === 'string' ? data['code'] : undefined;
      return { kind: 'negotiation_error', code, ucpCode, message: text, data };
    }
    return { kind: 'other_error', code, message: text, data };
  }
  const result = message['result'];
  if (!isRecord(result)) return { kind: 'broken', problem: 'the response has neither an "error" nor a "result" object' };
  if (result['isError'] === true) {
    const content: unknown = result['content'];
    const first: unknown = Array.isArray(content) ? content[0] : undefined;
    const text = isRecord(first) && typeof first['text'] === 'string' ? first['text'] : '';
    return { kind: 'other_error', code: 0, message: `tool result with isError: true ${text}`.trim(), data: result };
  }
  return classifyPayload(result['structuredContent']);
}

/** `profile="…"` as an RFC 8941 sf-string. */
export function ucpAgentHeader(profileUrl: string): string {
  return `profile="${profileUrl.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

export class RestOperationClient implements OperationClient {
  readonly binding = 'rest' as const;

  constructor(
    private readonly http: HttpPeer,
    /** The REST endpoint from the profile (`<base>/ucp`); OpenAPI paths append to it (R-D2). */
    private readonly endpoint: string,
    private readonly platformProfileUrl: string | null,
    private readonly log: Call[],
  ) {}

  async call(operation: Operation, request: unknown, options: CallOptions = {}): Promise<Call> {
    const profile = options.profileUrl === undefined ? this.platformProfileUrl : options.profileUrl;
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (profile !== null) headers['ucp-agent'] = ucpAgentHeader(profile);
    const exchange = await this.http.send({
      binding: 'rest',
      label: operation,
      method: 'POST',
      url: `${this.endpoint}/locations/${operation}`,
      headers,
      body: JSON.stringify(request),
      ...(options.signing === undefined ? {} : { signing: options.signing }),
    });
    const call: Call = { binding: 'rest', operation, request, outcome: classifyRest(exchange), exchange, profileUrl: profile };
    this.log.push(call);
    return call;
  }
}

/** Outcome of a REST answer (draft rest.md statuses; R-G5 table). */
export function classifyRest(exchange: Exchange): Outcome {
  if (exchange.status === undefined) return { kind: 'broken', problem: `no answer (${exchange.failure ?? 'unknown failure'})` };
  let body: unknown;
  try {
    body = JSON.parse(exchange.responseText ?? '');
  } catch {
    return { kind: 'broken', problem: `HTTP ${exchange.status} with a body that is not JSON` };
  }
  const status = exchange.status;
  if (status === 200) return classifyPayload(body);
  const first = isRecord(body) && Array.isArray(body['messages']) && isRecord(body['messages'][0]) ? body['messages'][0] : undefined;
  const ucpCode =
    typeof first?.['code'] === 'string' ? first['code'] : isRecord(body) && typeof body['code'] === 'string' ? body['code'] : undefined;
  const message =
    typeof first?.['content'] === 'string'
      ? first['content']
      : isRecord(body) && typeof body['content'] === 'string'
        ? body['content']
        : `HTTP ${status}`;
  if (ucpCode !== undefined && NEGOTIATION_CODES.has(ucpCode))
    return { kind: 'negotiation_error', code: status, ucpCode, message, data: body };
  if (status === 424) return { kind: 'negotiation_error', code: status, ucpCode, message, data: body };
  if (status === 400) return { kind: 'request_error', code: status, message, data: body };
  return { kind: 'other_error', code: status, message, data: body };
}
