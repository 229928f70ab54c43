/**
 * The hot path of MCP over Streamable HTTP: a plain `tools/call` request answered without building
 * the SDK's per-request objects (a `Server`, a web-standard transport, a `Request`/`Response`, the
 * zod parses of the message, its params and the result, the envelope JSON.stringify).
 *
 * "Plain" is narrow on purpose: a single JSON-RPC request (not a notification) with exactly the
 * members JSON-RPC allows, `method: "tools/call"`, a string or safe-integer id, params holding a
 * string `name` and an optional object `arguments`, and nothing the SDK treats specially (`_meta`,
 * which may name a related task or progress token; `task`, a task-augmented call; a `__proto__`
 * member, which the SDK's zod copy of the params would turn into a prototype) — under a supported
 * or absent `Mcp-Protocol-Version`. For such a message every check the SDK path makes (our shape
 * check, the envelope guard, the transport's and Protocol's zod parses) is known to pass, so they
 * are skipped; anything else goes through the SDK unchanged (initialize, ping, tools/list, errors
 * of shape, batches' odd elements, notifications).
 *
 * The answer is the SDK's to the byte (http-tools-call.test.ts compares them): the SDK sends
 * `{"result": …, "jsonrpc": "2.0", "id": …}` whose result is its zod copy of ours — `content`
 * first, then `structuredContent` — and an error as `{"jsonrpc", "id", "error": {code, message,
 * data?}}`. The payload's JSON and its string-escaped form come together from frozen-json.ts,
 * where the Location documents in it keep both texts from one call to the next: they are
 * `structuredContent` and `content[0].text` (R-M2 wants both).
 */
import { ErrorCode, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { jsonTexts } from '../../protocol/frozen-json.js';
import type { MappedMcpError } from './errors.js';
import { callTool } from './server.js';
import type { McpApp, McpCallContext } from './server.js';

export interface PlainToolsCall {
  id: string | number;
  name: string;
  args: Record<string, unknown> | undefined;
}

const JSON_RPC_MEMBERS = new Set(['jsonrpc', 'id', 'method', 'params']);

/**
 * The call when `message` is a plain `tools/call` (see above) under this `Mcp-Protocol-Version`
 * header; undefined when the SDK must handle it.
 */
export function plainToolsCall(message: unknown, protocolVersion: string | string[] | undefined): PlainToolsCall | undefined {
  // The transport refuses unsupported versions with its own 400; leave those to it.
  if (typeof protocolVersion === 'string' && !SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersion)) return undefined;
  if (!isPlainRecord(message) || message['method'] !== 'tools/call' || message['jsonrpc'] !== '2.0') return undefined;
  for (const key of Object.keys(message)) if (!JSON_RPC_MEMBERS.has(key)) return undefined;
  const id = message['id'];
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return undefined;
  const params = message['params'];
  if (!isPlainRecord(params) || typeof params['name'] !== 'string') return undefined;
  if (Object.hasOwn(params, '_meta') || Object.hasOwn(params, 'task') || Object.hasOwn(params, '__proto__')) return undefined;
  const args = params['arguments'];
  if (args !== undefined && (!isPlainRecord(args) || Object.hasOwn(args, '__proto__'))) return undefined;
  return { id: id as string | number, name: params['name'], args };
}

/** The JSON-RPC response to a plain call, as the text of the bytes the SDK would send, and the failures it reported. */
export async function answerToolsCall(
  app: McpApp,
  ctx: McpCallContext,
  call: PlainToolsCall,
): Promise<{ bytes: string; failures: MappedMcpError[] }> {
  const failures: MappedMcpError[] = [];
  const id = JSON.stringify(call.id);
  try {
    const payload = await callTool(app, { ...ctx, onFailure: (f) => failures.push(f) }, call.id, call.name, call.args);
    // The documents in the payload are serialised once per document, not once per call (frozen-json.ts).
    const texts = jsonTexts(payload);
    if (texts === undefined) throw new TypeError('a tool payload is an object, which always has a JSON text');
    return {
      bytes: `{"result":{"content":[{"type":"text","text":"${texts.escaped}"}],"structuredContent":${texts.json}},"jsonrpc":"2.0","id":${id}}`,
      failures,
    };
  } catch (err) {
    // What the SDK's Protocol makes of a handler's rejection.
    const e = err as { code?: unknown; message?: string; data?: unknown };
    const error = {
      code: Number.isSafeInteger(e.code) ? (e.code as number) : ErrorCode.InternalError,
      message: e.message ?? 'Internal error',
      ...(e.data !== undefined && { data: e.data }),
    };
    return { bytes: JSON.stringify({ jsonrpc: '2.0', id: call.id, error }), failures };
  }
}

function isPlainRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
