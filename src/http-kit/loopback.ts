/**
 * What counts as "this machine" for every server of the package (the Business's HTTP server, the
 * console, the agent bridge): one answer, so a name one of them accepts is never refused by another.
 * Parsing is ipaddr.js's, not a regular expression, so every spelling of a loopback address is the
 * same address: `127.0.0.1`, `127.8.9.10`, `::1`, `[::1]`, `0:0:0:0:0:0:0:1` and the IPv4-mapped
 * `::ffff:127.0.0.1` are loopback; `0.0.0.0`, `::` and every other address are not.
 */
import ipaddr from 'ipaddr.js';

/** The one host name (not an address) treated as loopback: resolvers map it to the machine itself. */
const LOOPBACK_NAME = 'localhost';

/** `[::1]` → `::1`; anything else unchanged. Brackets are how IPv6 addresses appear in URLs and Host. */
export function withoutBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/**
 * True for a loopback address (127.0.0.0/8, ::1, IPv4-mapped 127.x, with or without IPv6 brackets)
 * and for the name `localhost`, in any letter case. A host with a port (`127.0.0.1:8080`) is not a
 * host: split it first with `splitAuthority`.
 */
export function isLoopbackHost(host: string): boolean {
  const bare = withoutBrackets(host.trim()).toLowerCase();
  if (bare === LOOPBACK_NAME) return true;
  if (!ipaddr.isValid(bare)) return false;
  // process() turns an IPv4-mapped IPv6 address into the IPv4 address it carries.
  return ipaddr.process(bare).range() === 'loopback';
}

/** A Host header (or URL authority) split into its host and port; the host keeps IPv6 brackets. */
export interface Authority {
  /** Lower-cased; `[::1]` for IPv6. */
  host: string;
  /** undefined when the authority names none. */
  port: number | undefined;
}

/**
 * `localhost:8080` → {host: 'localhost', port: 8080}; `[::1]:80` → {host: '[::1]', port: 80};
 * `example.org` → {host: 'example.org', port: undefined}. undefined for what no client sends as a
 * Host (empty, a port out of range, an unclosed bracket, a bare IPv6 address without brackets).
 */
export function splitAuthority(value: string): Authority | undefined {
  const text = value.trim().toLowerCase();
  let host: string;
  let rest: string;
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close === -1) return undefined;
    host = text.slice(0, close + 1);
    rest = text.slice(close + 1);
  } else {
    const colon = text.indexOf(':');
    if (colon !== text.lastIndexOf(':')) return undefined; // an IPv6 address must be bracketed
    host = colon === -1 ? text : text.slice(0, colon);
    rest = colon === -1 ? '' : text.slice(colon);
  }
  if (host === '' || host === '[]') return undefined;
  if (rest === '') return { host, port: undefined };
  const port = /^:(\d{1,5})$/.exec(rest)?.[1];
  if (port === undefined || Number(port) > 65_535) return undefined;
  return { host, port: Number(port) };
}

/** How a host is written in a URL or Host header: an IPv6 address in brackets, anything else as is. */
export function hostForUrl(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
