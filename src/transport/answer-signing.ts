/**
 * Signing every answer of the bindings (R-SIG3): `Content-Digest` of the body bytes and an RFC 9421
 * signature over `@status`, `content-digest` and `content-type`, with `created`. Every answer on
 * `/ucp/*` ends in one `res.end(body)` — successes, refusals, the SDK's JSON-RPC, the last-resort
 * 500 — so the signature is added there: the bytes signed are the bytes sent, whoever wrote them.
 */
import type { ServerResponse } from 'node:http';
import { signResponse, type SigningKey } from '../protocol/signatures/index.js';
import { MCP_PATH, REST_LOOKUP_PATH, REST_SEARCH_PATH } from './business-profile.js';

/** Wraps `res` so that its answer goes out signed with `key`. `now` is epoch ms. */
export function signAnswer(res: ServerResponse, key: SigningKey, now: () => number): void {
  const end = res.end.bind(res);
  const write = res.write.bind(res);
  const held: Buffer[] = [];
  // Set once the signed body is handed on: an `end` that writes through `this.write` (as some
  // response implementations do) must reach the real write then, not be held again.
  let sealed = false;
  // Answers here are whole JSON documents; should anything write in pieces, the pieces are held
  // until end so the digest and signature cover all of them.
  res.write = (...args: unknown[]): boolean => {
    if (sealed || res.headersSent) return Boolean(Reflect.apply(write, undefined, args));
    const bytes = toBytes(args[0]);
    if (bytes !== undefined) held.push(bytes);
    const callback = args.find(isFunction);
    if (callback !== undefined) queueMicrotask(() => Reflect.apply(callback, undefined, []));
    return true;
  };
  res.end = (...args: unknown[]): ServerResponse => {
    if (sealed || res.headersSent) {
      Reflect.apply(end, undefined, args);
      return res;
    }
    const last = toBytes(args[0]);
    const body = Buffer.concat(last === undefined ? held : [...held, last]);
    const contentType = res.getHeader('content-type');
    const headers = contentType === undefined ? {} : { 'content-type': String(contentType) };
    const signed = signResponse({ status: res.statusCode, headers }, contentType === undefined ? undefined : body, key, {
      created: Math.floor(now() / 1000),
    });
    for (const [name, value] of Object.entries(signed)) res.setHeader(name, value);
    const callback = args.find(isFunction);
    sealed = true;
    Reflect.apply(end, undefined, callback === undefined ? [body] : [body, callback]);
    return res;
  };
}

function isFunction(value: unknown): value is (...args: unknown[]) => unknown {
  return typeof value === 'function';
}

function toBytes(chunk: unknown): Buffer | undefined {
  if (typeof chunk === 'string') return Buffer.from(chunk, 'utf8');
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return undefined;
}

/** The hook the HTTP server calls for each request: answers on the binding paths go out signed. */
export function answerSigner(key: SigningKey, now: () => number): (path: string, res: ServerResponse) => void {
  return (path, res) => {
    if (BINDING_PATHS.has(path)) signAnswer(res, key, now);
  };
}

const BINDING_PATHS = new Set([MCP_PATH, REST_SEARCH_PATH, REST_LOOKUP_PATH]);
