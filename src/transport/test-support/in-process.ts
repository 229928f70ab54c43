/**
 * HTTP without a socket, for tests of what a server answers rather than of how bytes travel: a
 * server's node:http request listener is registered under an origin (`registerInProcess`; see
 * test/support/in-process-server.ts for the business server), and `rawRequest`/`postJson`
 * (raw-http.ts) and `inProcessFetch` (for the MCP SDK client) hand a request for that origin
 * straight to the listener, injected by light-my-request, instead of opening a connection. No
 * port, no TCP stack, no keep-alive timers: a test waits only on its own answers, which keeps it
 * quick and indifferent to a loaded machine.
 */
import type { IncomingHttpHeaders, OutgoingHttpHeaders, RequestListener } from 'node:http';
import { inject } from 'light-my-request';

/** Origins of the in-process servers currently open, and the listener each hands requests to. */
const listeners = new Map<string, RequestListener>();

/**
 * Makes `origin` answered by `listener` in this process (test/support/in-process-server.ts does it
 * for a server it starts); the returned function takes it back.
 */
export function registerInProcess(origin: string, listener: RequestListener): () => void {
  if (listeners.has(origin)) throw new Error(`an in-process server already answers for ${origin}`);
  listeners.set(origin, listener);
  return () => void listeners.delete(origin);
}

/** The listener of the in-process server that answers for `url`'s origin, if one does. */
export function inProcessListener(url: string | URL): RequestListener | undefined {
  return listeners.get(new URL(url).origin);
}

export interface InjectedResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One request through `listener`, as node:http would deliver it from `remoteAddress`. */
export async function injectRequest(
  listener: RequestListener,
  url: string,
  request: { method?: string; headers?: IncomingHttpHeaders; body?: string | Buffer; remoteAddress?: string },
): Promise<InjectedResponse> {
  const res = await inject(listener, {
    url,
    method: request.method ?? 'GET',
    // light-my-request adds a User-Agent unless told not to; the request carries only its own headers.
    headers: { 'user-agent': undefined, ...request.headers },
    ...(request.body === undefined ? {} : { body: request.body }),
    remoteAddress: request.remoteAddress ?? '127.0.0.1',
  });
  return { status: res.statusCode, headers: stringHeaders(res.headers), body: res.rawPayload };
}

/**
 * `fetch` for clients that take one (the MCP SDK's StreamableHTTPClientTransport): a request for
 * an in-process server goes to its listener; any other goes to the real `fetch`.
 */
export async function inProcessFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const listener = inProcessListener(request.url);
  if (listener === undefined) return fetch(request);
  const headers: IncomingHttpHeaders = {};
  request.headers.forEach((value, name) => (headers[name] = value));
  const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
  const res = await injectRequest(listener, request.url, { method: request.method, headers, ...(body === undefined ? {} : { body }) });
  const out = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) out.append(name, v);
  }
  // 204, 205 and 304 answers and HEAD have no body, and the Response constructor refuses one for the first three.
  const bodiless = res.status === 204 || res.status === 205 || res.status === 304 || request.method === 'HEAD';
  return new Response(bodiless ? null : new Uint8Array(res.body), { status: res.status, headers: out });
}

function stringHeaders(headers: OutgoingHttpHeaders): Record<string, string | string[] | undefined> {
  const out: Record<string, string | string[] | undefined> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = typeof value === 'number' ? String(value) : value;
  return out;
}
