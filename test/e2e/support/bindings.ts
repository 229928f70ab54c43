/**
 * The three ways a Platform reaches the business, behind one interface so that every e2e test
 * body runs unchanged against each (ARCHITECTURE habit 5):
 *  - `mcp-raw`: JSON-RPC POSTs exactly like seed 000's envelope examples (no initialize, only
 *    `Content-Type: application/json`);
 *  - `mcp-sdk`: the official MCP SDK `Client` over `StreamableHTTPClientTransport`;
 *  - `rest`: `POST /ucp/locations/{search,lookup}` with the `UCP-Agent` header.
 * Outcomes are normalised so tests can compare payloads across bindings and assert errors with
 * binding-specific expectations (`expectRequestError`, `expectNegotiationError`).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import type { NegotiationErrorCode } from '../../../src/errors.js';
import { pointerToJsonPath } from '../../../src/transport/json-path.js';
import { NEGOTIATION_STATUS } from '../../../src/transport/rest/errors.js';
import { inProcessFetch } from '../../../src/transport/test-support/in-process.js';
import { postJson } from '../../../src/transport/test-support/raw-http.js';

export type Operation = 'search' | 'lookup';
export type BindingName = 'mcp-raw' | 'mcp-sdk' | 'rest';

export type Outcome =
  | { ok: true; payload: Record<string, unknown> }
  | {
      ok: false;
      /** HTTP status of the answer. */
      httpStatus: number;
      /** JSON-RPC error code (MCP bindings). */
      rpcCode?: number;
      /** UCP code: `error.data.code` (MCP) or `messages[0].code` (REST). */
      ucpCode?: string;
      /** `error.data.pointer` (MCP) or `messages[0].path` (REST). */
      where?: string;
      retryAfter?: number;
      /** `error.data.continue_url` (MCP) or `continue_url` of the error body (REST). */
      continueUrl?: string;
      message: string;
    };

export interface Binding {
  readonly name: BindingName;
  call(operation: Operation, request: unknown, profileUrl: string): Promise<Outcome>;
  close(): Promise<void>;
}

const TOOL: Record<Operation, string> = { search: 'search_locations', lookup: 'lookup_locations' };

export async function openBinding(name: BindingName, baseUrl: string): Promise<Binding> {
  if (name === 'mcp-raw') return new RawMcpBinding(baseUrl);
  if (name === 'rest') return new RestBinding(baseUrl);
  const client = new Client({ name: 'ucp-location-e2e', version: '1.0.0' });
  // inProcessFetch: an in-process server's URL is answered without a socket (test/e2e/server.test.ts).
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/ucp/mcp`), { fetch: inProcessFetch }));
  // Listing caches each tool's outputSchema, so every callTool below is checked against it.
  await client.listTools();
  return new SdkMcpBinding(client);
}

let rpcId = 0;

class RawMcpBinding implements Binding {
  readonly name = 'mcp-raw' as const;
  constructor(private readonly baseUrl: string) {}

  async call(operation: Operation, request: unknown, profileUrl: string): Promise<Outcome> {
    const id = ++rpcId;
    const res = await postJson(`${this.baseUrl}/ucp/mcp`, {
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: TOOL[operation], arguments: { meta: { 'ucp-agent': { profile: profileUrl } }, location: request } },
    });
    const body = res.json as {
      id: number;
      result?: { structuredContent: Record<string, unknown>; content: { text: string }[] };
      error?: RpcErrorBody;
    };
    expect(body.id).toBe(id);
    if (body.result !== undefined) {
      expect(res.status).toBe(200);
      // R-M2: the same payload serialised in content[0].text.
      expect(JSON.parse(body.result.content[0]?.text ?? 'null')).toEqual(body.result.structuredContent);
      return { ok: true, payload: body.result.structuredContent };
    }
    return fromRpcError(res.status, body.error as RpcErrorBody);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

interface RpcErrorBody {
  code: number;
  message: string;
  data?: { code?: string; pointer?: string; retry_after?: number; continue_url?: string };
}

function fromRpcError(httpStatus: number, error: RpcErrorBody): Outcome {
  const out: Outcome = { ok: false, httpStatus, rpcCode: error.code, message: error.message };
  if (error.data?.code !== undefined) out.ucpCode = error.data.code;
  if (error.data?.pointer !== undefined) out.where = error.data.pointer;
  if (error.data?.retry_after !== undefined) out.retryAfter = error.data.retry_after;
  if (error.data?.continue_url !== undefined) out.continueUrl = error.data.continue_url;
  return out;
}

class SdkMcpBinding implements Binding {
  readonly name = 'mcp-sdk' as const;
  constructor(private readonly client: Client) {}

  async call(operation: Operation, request: unknown, profileUrl: string): Promise<Outcome> {
    try {
      const result = await this.client.callTool({
        name: TOOL[operation],
        arguments: { meta: { 'ucp-agent': { profile: profileUrl } }, location: request as Record<string, unknown> },
      });
      expect(result.isError).not.toBe(true);
      const payload = result.structuredContent as Record<string, unknown>;
      const text = (result.content as { type: string; text: string }[])[0]?.text;
      expect(JSON.parse(text ?? 'null')).toEqual(payload);
      return { ok: true, payload };
    } catch (err) {
      if (err instanceof McpError) {
        // The SDK rebuilds the error with its "MCP error <code>: " prefix; strip it for comparisons.
        const body: RpcErrorBody = { code: err.code, message: err.message.replace(/^MCP error -?\d+: /, '') };
        if (err.data !== undefined) body.data = err.data as NonNullable<RpcErrorBody['data']>;
        return fromRpcError(200, body);
      }
      // Non-2xx HTTP answers surface as StreamableHTTPError { code: <status> } with the body in the message.
      const status = (err as { code?: unknown }).code;
      if (typeof status === 'number' && status >= 400) {
        const jsonText = /\{.*\}$/s.exec((err as Error).message)?.[0];
        const parsed = jsonText === undefined ? undefined : (JSON.parse(jsonText) as { error?: RpcErrorBody });
        return parsed?.error === undefined
          ? { ok: false, httpStatus: status, message: (err as Error).message }
          : fromRpcError(status, parsed.error);
      }
      throw err;
    }
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

class RestBinding implements Binding {
  readonly name = 'rest' as const;
  constructor(private readonly baseUrl: string) {}

  async call(operation: Operation, request: unknown, profileUrl: string): Promise<Outcome> {
    const res = await postJson(`${this.baseUrl}/ucp/locations/${operation}`, request, {
      'ucp-agent': `profile="${profileUrl}"`,
      'request-id': `e2e-${++rpcId}`,
    });
    expect(res.headers['request-id']).toBe(`e2e-${rpcId}`);
    const body = res.json as Record<string, unknown> & { messages?: { code?: string; path?: string; content: string }[] };
    if (res.status === 200) return { ok: true, payload: body };
    const first = body.messages?.[0];
    const out: Outcome = { ok: false, httpStatus: res.status, message: first?.content ?? res.text };
    if (first?.code !== undefined) out.ucpCode = first.code;
    if (first?.path !== undefined) out.where = first.path;
    if (typeof body['continue_url'] === 'string') out.continueUrl = body['continue_url'];
    const retry = res.headers['retry-after'];
    if (typeof retry === 'string') out.retryAfter = Number(retry);
    return out;
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** A schema failure or a request the Business cannot honour: MCP -32602 + pointer; REST 400 + JSONPath. */
export function expectRequestError(binding: BindingName, outcome: Outcome, expected: { code?: string; pointer: string }): void {
  expect(outcome.ok).toBe(false);
  if (outcome.ok) return;
  if (binding === 'rest') {
    expect(outcome.httpStatus).toBe(400);
    expect(outcome.where).toBe(pointerToJsonPath(expected.pointer));
  } else {
    expect(outcome.rpcCode).toBe(-32602);
    expect(outcome.where).toBe(`/location${expected.pointer}`);
  }
  if (expected.code !== undefined) expect(outcome.ucpCode).toBe(expected.code);
  expect(outcome.message.length).toBeGreaterThan(10);
}

/** Discovery / version failure (R-G5): MCP -32001 with data.code; REST 400/424/422/422. */
export function expectNegotiationError(binding: BindingName, outcome: Outcome, code: NegotiationErrorCode): void {
  expect(outcome.ok).toBe(false);
  if (outcome.ok) return;
  expect(outcome.ucpCode).toBe(code);
  if (binding === 'rest') expect(outcome.httpStatus).toBe(NEGOTIATION_STATUS[code]);
  else expect(outcome.rpcCode).toBe(-32001);
}
