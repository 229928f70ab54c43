/**
 * JSON-RPC 2.0 message shapes, shared by MCP over HTTP and over stdio (R-M1, R-J1): what is wrong
 * with a message, the message as the SDK accepts it, and how a batch is answered.
 *
 * JSON-RPC 2.0 forbids no extra top-level member, but the SDK's message schemas are strict (an
 * `"extra": 1` fails them), so a message is judged, and handed on, without the members JSON-RPC
 * does not define. A batch of any length is answered with an array; elements past MAX_BATCH are
 * each refused with their own id rather than the batch as a whole.
 */
import { ErrorCode, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

/**
 * Elements of one batch that are carried out; each further element is answered with its own
 * -32600. MCP 2025-06-18 dropped batching, but JSON-RPC 2.0 clients may still send one.
 */
export const MAX_BATCH = 20;

export type RpcId = string | number | null;

export interface RpcErrorObject {
  jsonrpc: '2.0';
  id: RpcId;
  error: { code: number; message: string; data?: Record<string, unknown> };
}

/** Members JSON-RPC 2.0 defines; any other top-level member is tolerated and dropped. */
const MEMBERS = ['jsonrpc', 'id', 'method', 'params', 'result', 'error'] as const;

/** The id of a message when it is a usable one (string or number), else null. */
export function idOf(value: unknown): RpcId {
  if (!isObject(value)) return null;
  const id = value['id'];
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** True for a request (a message with an id and a method): it must be answered. */
export function isRequest(value: unknown): boolean {
  return isObject(value) && typeof value['method'] === 'string' && 'id' in value && value['id'] !== null;
}

/** The message with only the members JSON-RPC 2.0 defines (the same object when it has no other). */
export function withoutExtraMembers(value: unknown): unknown {
  if (!isObject(value)) return value;
  const keys = Object.keys(value);
  if (keys.every((k) => (MEMBERS as readonly string[]).includes(k))) return value;
  const out: Record<string, unknown> = {};
  for (const k of MEMBERS) if (Object.hasOwn(value, k)) out[k] = value[k];
  return out;
}

/**
 * Returns what is wrong with a JSON-RPC 2.0 message (or batch), or undefined when it is well formed.
 * Not recursive: a batch's elements are checked as single messages, so a deeply nested array is
 * one invalid element, never a stack overflow. A batch's length is no fault (see MAX_BATCH).
 */
export function checkJsonRpcShape(value: unknown): { id: RpcId; message: string } | undefined {
  if (!Array.isArray(value)) return checkMessageShape(value);
  if (value.length === 0) return { id: null, message: 'an empty batch is not a JSON-RPC request.' };
  for (const [i, item] of value.entries()) {
    const problem = checkMessageShape(item);
    if (problem !== undefined) return { id: null, message: `batch element ${i}: ${problem.message}` };
  }
  return undefined;
}

/** What is wrong with one JSON-RPC 2.0 message (an array is not one), or undefined. */
export function checkMessageShape(value: unknown): { id: RpcId; message: string } | undefined {
  if (!isObject(value)) {
    return { id: null, message: 'expected a JSON-RPC 2.0 object {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {...}}.' };
  }
  const id = idOf(value);
  if (value['jsonrpc'] !== '2.0') return { id, message: 'member "jsonrpc" must be exactly "2.0".' };
  if ('method' in value && (typeof value['method'] !== 'string' || value['method'].length === 0)) {
    return { id, message: 'member "method" must be a non-empty string.' };
  }
  if ('id' in value && value['id'] !== null && typeof value['id'] !== 'string' && !Number.isInteger(value['id'])) {
    return { id: null, message: 'member "id" must be a string or an integer.' };
  }
  if ('params' in value && (value['params'] === null || typeof value['params'] !== 'object' || Array.isArray(value['params']))) {
    return { id, message: 'member "params" must be an object (MCP uses named parameters).' };
  }
  if (!JSONRPCMessageSchema.safeParse(withoutExtraMembers(value)).success) {
    return { id, message: 'not a JSON-RPC 2.0 request, notification or response (a request needs "id" and "method").' };
  }
  return undefined;
}

export function rpcError(id: RpcId, code: number, message: string, data?: Record<string, unknown>): RpcErrorObject {
  return { jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } };
}

/** One batch element's fate: refused at once (shape, or past the limit) or to be carried out. */
export type BatchStep = { kind: 'refused'; answer: RpcErrorObject } | { kind: 'run'; message: unknown };

/**
 * The elements of a non-empty batch in order: the first MAX_BATCH well-formed ones to run (without
 * extra members), every malformed one refused, and every well-formed one past the limit refused
 * with its id — except notifications, which JSON-RPC never answers.
 */
export function planBatch(batch: readonly unknown[]): BatchStep[] {
  const steps: BatchStep[] = [];
  let running = 0;
  for (const element of batch) {
    const problem = checkMessageShape(element);
    if (problem !== undefined) {
      steps.push({ kind: 'refused', answer: rpcError(problem.id, ErrorCode.InvalidRequest, `Invalid Request: ${problem.message}`) });
      continue;
    }
    if (running < MAX_BATCH) {
      running++;
      steps.push({ kind: 'run', message: withoutExtraMembers(element) });
      continue;
    }
    if (!isRequest(element)) continue;
    steps.push({
      kind: 'refused',
      answer: rpcError(
        idOf(element),
        ErrorCode.InvalidRequest,
        `Invalid Request: a batch is carried out for its first ${MAX_BATCH} messages only; send this one again in another batch or on its own.`,
      ),
    });
  }
  return steps;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
