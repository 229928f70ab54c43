/**
 * The front of `serve --tenants`: one request listener that hands each request to the server of
 * the tenant its host name names. The tenants' servers are whole business servers, built exactly
 * as a single-business `serve` builds its one; the router adds nothing to what they answer.
 *
 * An unknown host gets a plain 404 that names no tenant, so probing host names tells an outsider
 * nothing about who else is served here. `/healthz` answers for the process at any host, so a
 * process manager can probe it by address.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { requestHostName } from './forwarded.js';

export const UNKNOWN_HOST_MESSAGE = 'No business is served at this host name.\n';

export interface TenantRouterOptions {
  /** Believe `X-Forwarded-Host` (the server is behind a reverse proxy). */
  trustProxy: boolean;
  /** Told of every request whose host names no tenant (metrics). */
  onUnknownHost?: () => void;
}

export function tenantRouter(byHost: ReadonlyMap<string, RequestListener>, options: TenantRouterOptions): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    const name = requestHostName(req, options.trustProxy);
    const listener = name === undefined ? undefined : byHost.get(name);
    if (listener !== undefined) {
      listener(req, res);
      return;
    }
    req.resume();
    if ((req.url ?? '').split('?')[0] === '/healthz' && (req.method === 'GET' || req.method === 'HEAD')) {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
      res.end(JSON.stringify({ status: 'ok' }));
      return;
    }
    options.onUnknownHost?.();
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(UNKNOWN_HOST_MESSAGE) });
    res.end(UNKNOWN_HOST_MESSAGE);
  };
}
