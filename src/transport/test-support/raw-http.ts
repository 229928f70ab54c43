/**
 * A raw HTTP/1.1 client for tests that must control every header (no implicit Accept, a forged
 * Host) — which `fetch` does not allow. Loopback only. A URL of an in-process server
 * (in-process.ts) is answered by that server's listener, without a socket; `localAddress` then
 * becomes the address the server sees the request come from.
 */
import { request } from 'node:http';
import type { Agent, RequestListener } from 'node:http';
import { injectRequest, inProcessListener } from './in-process.js';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** Parsed body; undefined when it is empty or not JSON. */
  json: unknown;
}

export function rawRequest(
  url: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    agent?: Agent;
    /** Local address to connect from, e.g. 127.0.0.2 (any 127.x address works on Linux loopback). */
    localAddress?: string;
  } = {},
): Promise<RawResponse> {
  const target = new URL(url);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname))
    throw new Error(`tests only talk to loopback, not ${target.hostname}`);
  const listener = inProcessListener(target);
  if (listener !== undefined) return injected(listener, url, options);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname.replace(/^\[|\]$/g, ''),
        port: target.port,
        path: target.pathname + target.search,
        method: options.method ?? 'GET',
        headers: options.headers ?? {},
        ...(options.agent === undefined ? {} : { agent: options.agent }),
        ...(options.localAddress === undefined ? {} : { localAddress: options.localAddress }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: parseJson(text) });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.end(options.body);
    else req.end();
  });
}

/** POST a JSON-RPC body exactly like the seed's envelope examples: only Content-Type, no Accept. */
export function postJson(url: string, body: unknown, headers: Record<string, string> = {}, agent?: Agent): Promise<RawResponse> {
  return rawRequest(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    ...(agent === undefined ? {} : { agent }),
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function injected(
  listener: RequestListener,
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer; localAddress?: string },
): Promise<RawResponse> {
  const res = await injectRequest(listener, url, {
    ...(options.method === undefined ? {} : { method: options.method }),
    ...(options.headers === undefined ? {} : { headers: options.headers }),
    ...(options.body === undefined ? {} : { body: options.body }),
    ...(options.localAddress === undefined ? {} : { remoteAddress: options.localAddress }),
  });
  const text = res.body.toString('utf8');
  return { status: res.status, headers: res.headers, text, json: parseJson(text) };
}

function parseJson(text: string): unknown {
  try {
    return text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}
