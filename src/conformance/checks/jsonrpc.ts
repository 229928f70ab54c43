/**
 * MCP binding checks (R-M1, R-M2): JSON-RPC 2.0 error codes for malformed traffic, `-32602` with a
 * pointer for every invalid tool call, the tool list, and — as audits over every call made — the
 * JSON-RPC envelope and the `structuredContent` / `content[0].text` identity.
 */
import { isDeepStrictEqual } from 'node:util';
import { fail, pass, skip, verdictOf, type Check, type RunContext, type Verdict } from '../check.js';
import { describeRequest, describeResponse } from '../exchange.js';
import type { McpPeer, RpcExchange } from '../mcp-peer.js';
import { callEvidence, describeOutcome, TOOL_OF, type Call, type Operation, type OperationClient } from '../operation-client.js';
import { isRecord } from '../oracle.js';
import { findPointer } from '../pointer.js';
import { operandProbes } from './operand-probes.js';
import type { Evidence } from '../types.js';

function rpcEvidence(x: RpcExchange, expected: string, observed: string): Evidence {
  return { expected, observed, request: describeRequest(x.exchange), response: describeResponse(x.exchange) };
}

function errorOf(x: RpcExchange): { code: unknown; message: unknown; data: unknown } | undefined {
  const e = x.message?.['error'];
  return isRecord(e) ? { code: e['code'], message: e['message'], data: e['data'] } : undefined;
}

function observedRpc(x: RpcExchange): string {
  if (x.message === undefined) return x.problem ?? 'no JSON-RPC response';
  const e = errorOf(x);
  if (e !== undefined) return `error ${String(e.code)}: ${typeof e.message === 'string' ? e.message.slice(0, 160) : ''}`;
  return 'a result (no error)';
}

/**
 * A rate-limit refusal (HTTP 429 with a JSON-RPC error): its id is judged by R-J1
 * (`jsonrpc.refusal-id`, edges.ts), so this R-M1 audit leaves a null id on it alone. A null id on
 * any other answer to a readable request is wrong here.
 */
export function isUnreadRefusal(x: RpcExchange): boolean {
  return x.exchange.status === 429 && isRecord(x.message?.['error']);
}

/** Sends `body` raw and expects a JSON-RPC error with `code`. */
async function expectRpcError(
  ctx: RunContext,
  mcp: McpPeer,
  body: string,
  label: string,
  sentId: number | undefined,
  code: number,
  expected: string,
): Promise<Verdict> {
  const x = await mcp.sendRaw(body, label, sentId);
  ctx.rawRpc.push(x);
  const e = errorOf(x);
  if (e?.code === code) return pass();
  return fail(`expected JSON-RPC error ${code}, got ${observedRpc(x)}`, [rpcEvidence(x, expected, observedRpc(x))]);
}

/** An operation the Business advertises (search preferred), for probes that need any tool. */
function someOperation(ctx: RunContext): Operation {
  return ctx.advertised.has('search') ? 'search' : 'lookup';
}

/** Invalid requests, each with the pointer (relative to the domain request) that must be reported. */
export const INVALID_REQUESTS: readonly { operation: Operation; request: Record<string, unknown>; pointer: string; why: string }[] = [
  {
    operation: 'search',
    request: { distance: { center: { latitude: 10, longitude: 10 }, max: -5 } },
    pointer: '/distance/max',
    why: 'distance.max below 0',
  },
  {
    operation: 'search',
    request: { distance: { center: { latitude: 95, longitude: 10 }, max: 10 } },
    pointer: '/distance/center/latitude',
    why: 'latitude beyond 90',
  },
  { operation: 'search', request: { pagination: { limit: 0 } }, pointer: '/pagination/limit', why: 'pagination.limit below 1' },
  { operation: 'search', request: { serves: {} }, pointer: '/serves', why: 'an empty serves map' },
  {
    operation: 'search',
    request: { filters: { hours: { open_at: '2026-11-30 10:00' } } },
    pointer: '/filters/hours/open_at',
    why: 'open_at without T and offset',
  },
  { operation: 'lookup', request: { ids: [] }, pointer: '/ids', why: 'an empty ids array' },
  { operation: 'lookup', request: { ids: 'loc_1' }, pointer: '/ids', why: 'ids not an array' },
];

/**
 * Runs the invalid requests of advertised operations over `client`; `judge` says what is wrong
 * with one refusal (undefined = fine).
 */
export async function probeInvalidRequests(
  ctx: RunContext,
  client: OperationClient,
  expected: string,
  judge: (call: Call, pointer: string) => string | undefined,
): Promise<Verdict> {
  const problems: Evidence[] = [];
  let ran = 0;
  for (const probe of INVALID_REQUESTS) {
    if (!ctx.advertised.has(probe.operation)) continue;
    ran += 1;
    const call = await client.call(probe.operation, probe.request);
    const wrong = judge(call, probe.pointer);
    if (wrong !== undefined) problems.push(callEvidence(call, `${expected} (${probe.why}, pointer ${probe.pointer})`, wrong));
  }
  return ran === 0 ? skip('no Location capability is advertised') : verdictOf(problems, `${ran} invalid requests refused`);
}

export const JSONRPC_CHECKS: readonly Check[] = [
  {
    id: 'jsonrpc.parse-error',
    rule: 'R-M1',
    area: 'jsonrpc',
    title: 'a body that is not JSON gets -32700 (parse error)',
    scope: 'mcp',
    needs: ['profile'],
    run: async (ctx) =>
      expectRpcError(
        ctx,
        ctx.mcp as McpPeer,
        '{"jsonrpc": "2.0", "id": 1, "method": "tools/list"',
        'truncated JSON',
        undefined,
        -32700,
        'JSON-RPC error -32700 with id null',
      ),
  },
  {
    id: 'jsonrpc.invalid-request',
    rule: 'R-M1',
    area: 'jsonrpc',
    title: 'JSON that is not a JSON-RPC request gets -32600 (invalid request)',
    scope: 'mcp',
    needs: ['profile'],
    run: async (ctx) =>
      expectRpcError(
        ctx,
        ctx.mcp as McpPeer,
        '{"jsonrpc": "2.0", "id": 41, "method": 42}',
        'method is a number',
        41,
        -32600,
        'JSON-RPC error -32600',
      ),
  },
  {
    id: 'jsonrpc.unknown-method',
    rule: 'R-M1',
    area: 'jsonrpc',
    title: 'an unknown method gets -32601 (method not found)',
    scope: 'mcp',
    needs: ['profile'],
    run: async (ctx) =>
      expectRpcError(
        ctx,
        ctx.mcp as McpPeer,
        JSON.stringify({ jsonrpc: '2.0', id: 42, method: 'conformance/no_such_method', params: {} }),
        'conformance/no_such_method',
        42,
        -32601,
        'JSON-RPC error -32601',
      ),
  },
  {
    id: 'jsonrpc.unknown-tool',
    rule: 'R-M1',
    area: 'jsonrpc',
    title: 'an unknown tool name gets -32602 (invalid params), as MCP specifies',
    scope: 'mcp',
    needs: ['profile'],
    run: async (ctx) => {
      const meta = ctx.platform.url === null ? {} : { meta: { 'ucp-agent': { profile: ctx.platform.url } } };
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: 43,
        method: 'tools/call',
        params: { name: 'conformance_no_such_tool', arguments: { ...meta, location: {} } },
      });
      return expectRpcError(
        ctx,
        ctx.mcp as McpPeer,
        body,
        'tools/call conformance_no_such_tool',
        43,
        -32602,
        'JSON-RPC error -32602 naming the unknown tool',
      );
    },
  },
  {
    id: 'jsonrpc.missing-meta',
    rule: 'R-M1',
    area: 'jsonrpc',
    title: 'a tool call without meta["ucp-agent"] gets -32602',
    scope: 'mcp',
    needs: ['profile'],
    run: async (ctx, client) => {
      const operation = someOperation(ctx);
      const call = await client.call(operation, operation === 'search' ? {} : { ids: ['conformance-any'] }, {
        profileUrl: null,
      });
      if (call.outcome.kind === 'request_error') return pass();
      return fail(`expected -32602, got ${describeOutcome(call.outcome)}`, [
        callEvidence(call, 'JSON-RPC error -32602 (arguments.meta is required)', describeOutcome(call.outcome)),
      ]);
    },
  },
  {
    id: 'jsonrpc.schema-failure',
    rule: 'R-M1',
    area: 'jsonrpc',
    title: 'every schema failure gets -32602 with the failing JSON pointer and a message',
    scope: 'mcp',
    needs: ['profile'],
    run: async (ctx, client) =>
      probeInvalidRequests(ctx, client, 'JSON-RPC error -32602 with the JSON pointer', (call, pointer) => {
        const o = call.outcome;
        if (o.kind !== 'request_error') return `expected -32602, got ${describeOutcome(o)}`;
        if (o.message.trim() === '') return 'the error message is empty';
        return findPointer(pointer, o.message, o.data) === undefined
          ? `-32602 without the pointer ${pointer} in error.data or the message`
          : undefined;
      }),
  },
  {
    id: 'jsonrpc.invalid-operands',
    rule: 'R-M1',
    area: 'jsonrpc',
    title: 'no invalid operand is answered with success: each required member missing, of the wrong type, out of range or malformed',
    scope: 'binding',
    needs: ['profile'],
    run: async (ctx, client) => {
      const probes = operandProbes(ctx.advertised);
      if (probes.length === 0) return skip('no Location capability is advertised');
      const accepted: Evidence[] = [];
      for (const probe of probes) {
        const call = await client.call(probe.operation, probe.request);
        if (call.outcome.kind === 'success') {
          accepted.push(callEvidence(call, 'a request error (MCP -32602, REST 400)', `success for ${probe.operation} with ${probe.why}`));
        }
      }
      return verdictOf(accepted, `${probes.length} invalid operands refused`);
    },
  },
  {
    id: 'jsonrpc.tools-list',
    rule: 'R-M2',
    area: 'jsonrpc',
    title: 'tools/list declares a tool per advertised capability, with inputSchema and outputSchema',
    scope: 'mcp',
    needs: ['profile'],
    run: async (ctx) => {
      const x = await (ctx.mcp as McpPeer).request('tools/list', {});
      ctx.rawRpc.push(x);
      const result = x.message?.['result'];
      const tools = isRecord(result) && Array.isArray(result['tools']) ? result['tools'].filter(isRecord) : undefined;
      if (tools === undefined) return fail('tools/list gave no tool list', [rpcEvidence(x, 'a result {tools: [...]}', observedRpc(x))]);
      const problems: Evidence[] = [];
      for (const operation of ['search', 'lookup'] as const) {
        const name = TOOL_OF[operation];
        const tool = tools.find((t) => t['name'] === name);
        const expected = ctx.advertised.has(operation)
          ? `tool ${name} with object inputSchema and outputSchema`
          : `no tool ${name} (its capability is not advertised, R-D3)`;
        if (!ctx.advertised.has(operation)) {
          if (tool !== undefined) problems.push(rpcEvidence(x, expected, `${name} is listed`));
          continue;
        }
        if (tool === undefined) problems.push(rpcEvidence(x, expected, `${name} is missing`));
        else if (!isRecord(tool['inputSchema']) || !isRecord(tool['outputSchema']))
          problems.push(rpcEvidence(x, expected, `${name} lacks inputSchema or outputSchema`));
      }
      return verdictOf(problems);
    },
  },
  {
    id: 'jsonrpc.envelope',
    rule: 'R-M1',
    area: 'jsonrpc',
    title: 'every answer is exact JSON-RPC 2.0 (jsonrpc "2.0", id echoed, result xor error)',
    scope: 'run',
    needs: ['profile'],
    audit: true,
    run: async (ctx) => {
      const exchanges = [...ctx.rawRpc, ...ctx.calls.flatMap((c) => (c.rpc === undefined ? [] : [c.rpc]))];
      if (exchanges.length === 0) return skip('no MCP traffic was exchanged');
      const problems: Evidence[] = [];
      for (const x of exchanges) {
        const m = x.message;
        if (m === undefined) {
          problems.push(rpcEvidence(x, 'a JSON-RPC 2.0 response object', x.problem ?? 'no response'));
          continue;
        }
        const wrong: string[] = [];
        if (m['jsonrpc'] !== '2.0') wrong.push(`"jsonrpc" is ${JSON.stringify(m['jsonrpc'])}`);
        const expectedId = x.sentId === undefined ? null : x.sentId;
        if (m['id'] !== expectedId && !(m['id'] === null && isUnreadRefusal(x)))
          wrong.push(`"id" is ${JSON.stringify(m['id'])}, expected ${JSON.stringify(expectedId)}`);
        if ('result' in m === 'error' in m) wrong.push('it must carry exactly one of "result" and "error"');
        const e = m['error'];
        if (e !== undefined && (!isRecord(e) || !Number.isInteger(e['code']) || typeof e['message'] !== 'string'))
          wrong.push('"error" must be {code: integer, message: string}');
        if (wrong.length > 0) problems.push(rpcEvidence(x, 'a JSON-RPC 2.0 response', wrong.join('; ')));
      }
      return verdictOf(problems, `${exchanges.length} JSON-RPC answers`);
    },
  },
  {
    id: 'jsonrpc.structured-text',
    rule: 'R-M2',
    area: 'jsonrpc',
    title: 'tool results carry the payload in structuredContent and the same JSON in content[0].text',
    scope: 'run',
    needs: ['profile'],
    audit: true,
    run: async (ctx) => {
      const results = ctx.calls.filter((c) => c.binding === 'mcp' && (c.outcome.kind === 'success' || c.outcome.kind === 'business_error'));
      if (results.length === 0) return skip('no MCP tool call succeeded');
      const problems: Evidence[] = [];
      for (const call of results) {
        const result = call.rpc?.message?.['result'];
        if (!isRecord(result)) continue;
        const content: unknown = result['content'];
        const first: unknown = Array.isArray(content) ? content[0] : undefined;
        let wrong: string | undefined;
        if (!isRecord(first) || first['type'] !== 'text' || typeof first['text'] !== 'string') wrong = 'content[0] is not a text part';
        else {
          try {
            if (!isDeepStrictEqual(JSON.parse(first['text']), result['structuredContent']))
              wrong = 'content[0].text differs from structuredContent';
          } catch {
            wrong = 'content[0].text is not JSON';
          }
        }
        if (wrong !== undefined) problems.push(callEvidence(call, 'content[0] = {type: "text", text: JSON of structuredContent}', wrong));
      }
      return verdictOf(problems, `${results.length} tool results`);
    },
  },
];
