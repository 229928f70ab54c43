/**
 * JSON-RPC error answers written by the HTTP layer itself, before or instead of any JSON-RPC
 * library: for a request refused before its body is read (429 rate limit, 503 shed, the Host
 * guard's 403, a missing token's 401) or whose body could not be used (413, 400). JSON-RPC 2.0
 * wants the id echoed whenever it was readable (R-J1), and reading a little of the body costs far
 * less than the work the refusal saves.
 *
 * At most PREFIX_BYTES of the body are looked at, by a single pass that never parses a value it
 * does not need: it counts nesting (no recursion, whatever the depth) and only reads the `id`
 * members of the top-level object, or of each top-level element of a batch.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { writeJson } from './respond.js';

/** A JSON-RPC request id; null when none was readable. */
export type RpcId = string | number | null;

/** A JSON-RPC 2.0 error response. */
export interface RpcErrorObject {
  jsonrpc: '2.0';
  id: RpcId;
  error: { code: number; message: string; data?: Record<string, unknown> };
}

/** JSON-RPC 2.0 codes the HTTP layer answers with. */
export const RPC_PARSE_ERROR = -32700;
export const RPC_INVALID_REQUEST = -32600;
export const RPC_INTERNAL_ERROR = -32603;
/** The "server error" code UCP uses for 401/403/429/503 (and MCP servers for transport refusals). */
export const RPC_SERVER_ERROR = -32000;

/** How much of a body is read for its ids. */
export const PREFIX_BYTES = 8 * 1024;
/** How long a refusal waits for that much of the body before answering without ids. */
const PREFIX_WAIT_MS = 1_000;

/** The ids found: one message, or one entry per batch element seen (null where it had none). */
export type PrefixIds =
  | { kind: 'single'; id: RpcId }
  | {
      kind: 'batch';
      /** Per element: its id (null when it had none), and whether the element was seen whole. */
      elements: { id: RpcId; whole: boolean }[];
    };

/**
 * A JSON-RPC refusal written before the body was parsed, echoing the request's id — or, for a
 * batch, one refusal per element with its id — read from the start of the body (R-J1).
 */
export async function refuseJsonRpc(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  error: RpcErrorObject['error'],
): Promise<void> {
  answerJsonRpcError(res, status, scanIds(await readBodyPrefix(req)), error);
}

/**
 * A JSON-RPC error about a body as a whole (too large, nested too deep, of the wrong type), written
 * from the bytes read of it (`bytes`: the body, or the first bytes of one refused as too large):
 * one error object, echoing the request's id when a single request's id can be read from them.
 * A batch gets one error with a null id, since the failure is not any one element's.
 */
export function writeJsonRpcError(res: ServerResponse, status: number, bytes: Buffer, error: RpcErrorObject['error']): void {
  const ids = scanIds(bytes);
  writeJson(res, status, { jsonrpc: '2.0', id: ids?.kind === 'single' ? ids.id : null, error } satisfies RpcErrorObject);
}

function answerJsonRpcError(res: ServerResponse, status: number, ids: PrefixIds | undefined, error: RpcErrorObject['error']): void {
  const one = (id: RpcId): RpcErrorObject => ({ jsonrpc: '2.0', id, error });
  // A batch element seen whole without an id is a notification (or no request at all): no answer.
  const elements = ids?.kind === 'batch' ? ids.elements.filter((e) => !e.whole || e.id !== null) : [];
  if (elements.length > 0)
    writeJson(
      res,
      status,
      elements.map((e) => one(e.id)),
    );
  else writeJson(res, status, one(ids?.kind === 'single' ? ids.id : null));
}

/**
 * Reads up to PREFIX_BYTES of the request body (or what arrives within a short wait), then lets
 * the rest drain unread. Resolves with the bytes read; never rejects.
 */
export function readBodyPrefix(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', finish);
      req.off('error', finish);
      req.resume(); // discard the rest, so the connection can carry the answer
      resolve(Buffer.concat(chunks, Math.min(size, PREFIX_BYTES)).subarray(0, PREFIX_BYTES));
    };
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= PREFIX_BYTES) finish();
    };
    const timer = setTimeout(finish, PREFIX_WAIT_MS);
    timer.unref();
    req.on('data', onData);
    req.once('end', finish);
    req.once('error', finish);
  });
}

/**
 * The ids in the first PREFIX_BYTES of a JSON text. An id is read only when its whole value lies
 * in the prefix; anything unreadable is `null`. Returns undefined when the text is neither an
 * object nor an array.
 */
export function scanIds(bytes: Buffer): PrefixIds | undefined {
  const text = bytes.subarray(0, PREFIX_BYTES).toString('utf8');
  let i = skipSpace(text, 0);
  const top = text[i];
  if (top !== '{' && top !== '[') return undefined;
  const batch = top === '[';
  // The depth at which `id` members count: 1 in a lone object, 2 in a batch's element objects.
  const memberDepth = batch ? 2 : 1;
  const elements: { id: RpcId; whole: boolean }[] = [];
  let single: RpcId = null;
  let depth = 0;
  /** The bracket opened at depth 1 and 2 (deeper ones never matter, so none is kept). */
  const opened: string[] = ['', '', ''];
  /** True when the next string at memberDepth is a member name (after `{` or `,`). */
  let expectKey = false;
  for (; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const end = stringEnd(text, i);
      if (end === -1) break;
      if (expectKey && depth === memberDepth && text.slice(i, end + 1) === '"id"') {
        const value = readScalar(text, skipSpace(text, skipSpace(text, end + 1) + 1));
        if (value !== undefined) {
          if (batch) {
            const current = elements[elements.length - 1];
            if (current !== undefined) current.id = value;
          } else single = value;
        }
      }
      expectKey = false;
      i = end;
    } else if (c === '{' || c === '[') {
      depth++;
      if (depth <= 2) opened[depth] = c;
      expectKey = c === '{';
      if (batch && depth === 2) elements.push({ id: null, whole: false });
    } else if (c === '}' || c === ']') {
      if (batch && depth === 2) {
        const current = elements[elements.length - 1];
        if (current !== undefined) current.whole = true;
      }
      depth--;
      expectKey = false;
      if (depth === 0) break;
    } else if (c === ',') {
      expectKey = depth <= 2 && opened[depth] === '{';
    } else if (c === ':') {
      expectKey = false;
    }
  }
  return batch ? { kind: 'batch', elements } : { kind: 'single', id: single };
}

/** Index of the quote closing the string opened at `start`, or -1 when it is not in the text. */
function stringEnd(text: string, start: number): number {
  for (let j = start + 1; j < text.length; j++) {
    const c = text[j];
    if (c === '\\') j++;
    else if (c === '"') return j;
  }
  return -1;
}

/** A string, integer or null value starting at `at`; undefined for anything else or a cut-off value. */
function readScalar(text: string, at: number): RpcId | undefined {
  if (text[at] === '"') {
    const end = stringEnd(text, at);
    if (end === -1) return undefined;
    try {
      const value: unknown = JSON.parse(text.slice(at, end + 1));
      return typeof value === 'string' ? value : undefined;
    } catch {
      return undefined;
    }
  }
  const m = /^(?:-?\d+|null)(?=[\s,}\]])/.exec(text.slice(at, at + 32));
  if (m === null) return undefined;
  if (m[0] === 'null') return null;
  const n = Number(m[0]);
  return Number.isSafeInteger(n) ? n : undefined;
}

function skipSpace(text: string, at: number): number {
  let j = at;
  while (j < text.length && (text[j] === ' ' || text[j] === '\n' || text[j] === '\r' || text[j] === '\t')) j++;
  return j;
}
