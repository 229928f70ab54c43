/**
 * What a request says about where it was sent and who sent it. Behind a reverse proxy (`serve
 * --trust-proxy`) the proxy's own `X-Forwarded-Host` and `X-Forwarded-For` are believed; without
 * the flag they are ignored, since any client can write them.
 */
import type { IncomingMessage } from 'node:http';

/** The host name a request was sent to, lower case, port dropped; undefined when it names none. */
export function requestHostName(req: IncomingMessage, trustProxy: boolean): string | undefined {
  const forwarded = trustProxy ? lastValue(req.headers['x-forwarded-host']) : undefined;
  const host = forwarded ?? req.headers.host;
  if (host === undefined || host === '') return undefined;
  const bare = host.trim().toLowerCase();
  // A bracketed IPv6 literal never names a tenant; anything else is name[:port].
  if (bare.startsWith('[')) return undefined;
  const name = (bare.split(':')[0] ?? '').replace(/\.$/, '');
  return name === '' ? undefined : name;
}

/**
 * The client address a proxy reports: the last `X-Forwarded-For` entry, the one our proxy added
 * (entries before it were written by whoever the proxy heard from). Undefined when absent.
 */
export function forwardedClientAddress(req: IncomingMessage): string | undefined {
  const header = req.headers['x-forwarded-for'];
  const joined = Array.isArray(header) ? header.join(',') : header;
  if (joined === undefined) return undefined;
  const entries = joined
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  return entries[entries.length - 1];
}

/** The last of a header's comma-separated values: the one our own proxy wrote, if it appends. */
function lastValue(header: string | string[] | undefined): string | undefined {
  const joined = Array.isArray(header) ? header.join(',') : header;
  const last = joined?.split(',').pop()?.trim();
  return last === undefined || last === '' ? undefined : last;
}
