/**
 * Connecting to a URL that a stranger supplied (R-N4), in two steps shared by every caller that
 * does so (the discovery fetcher here, the client's endpoint agent):
 *
 *  1. `pickPinnedAddress`: resolve the host once, check *every* address with the address guard,
 *     refuse plain http unless all of them are loopback, and return the one address to connect to;
 *  2. `pinnedAgent`: an undici agent whose every connection goes to that checked address, so DNS
 *     cannot answer differently between check and connect (rebinding). Only the socket target
 *     changes: `host` stays the URL's, so SNI and the certificate check still use the host name.
 *
 * The callers belong to different error families and phrase their refusals differently, so the
 * errors are theirs (`PinRefusals`); the order and content of the checks live only here.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { Agent, buildConnector } from 'undici';
import { checkAddress, isIpLiteral, stripBrackets, type AddressVerdict } from './address-guard.js';

/**
 * `lookup`-style resolver: every address the name resolves to. `signal` aborts when the caller
 * gives up waiting; a resolver that can cancel its queries should then do so.
 */
export type Resolver = (hostname: string, signal?: AbortSignal) => Promise<readonly { address: string; family: number }[]>;

export interface ConnectAttempt {
  /** Hostname from the URL (brackets stripped for IPv6 literals). */
  hostname: string;
  /** The checked address the socket is pinned to. */
  address: string;
  port: number;
}

/** The caller's error for each way a URL's host can be refused; `hostname` has brackets stripped. */
export interface PinRefusals {
  /** The resolver threw (for example ENOTFOUND, or a DNS server failure). */
  lookupFailed(hostname: string, error: unknown): Error;
  /** The name resolved to no address at all. */
  noAddress(hostname: string): Error;
  /** One of the addresses is special-use (or loopback while loopback is not allowed). */
  refused(hostname: string, verdict: AddressVerdict): Error;
  /** Plain http to a host that is not loopback-only. */
  plainHttp(hostname: string): Error;
}

/** Where to connect: the URL's host name (for TLS) and the checked address (for the socket). */
export interface PinnedTarget {
  /** Host name from the URL, brackets stripped for IPv6 literals. */
  hostname: string;
  /** The checked address, in canonical text form. */
  address: string;
}

export interface PickOptions {
  /** Local development only: admit loopback addresses (and so plain http to them). */
  allowLoopback: boolean;
  /** Default `dns.lookup(host, {all: true, verbatim: true})`. */
  resolve?: Resolver | undefined;
  /** Aborts when the caller stops waiting for the lookup. */
  signal?: AbortSignal | undefined;
}

/**
 * Resolves `url`'s host once (IP literals are taken as they are), checks every address, and
 * returns the first one as the address to pin to. Throws the matching `refusals` error otherwise.
 * `url` must already have passed the caller's syntax checks (scheme, userinfo).
 */
export async function pickPinnedAddress(url: URL, options: PickOptions, refusals: PinRefusals): Promise<PinnedTarget> {
  const hostname = stripBrackets(url.hostname);
  let addresses: readonly { address: string; family: number }[];
  if (isIpLiteral(url.hostname)) {
    addresses = [{ address: hostname, family: hostname.includes(':') ? 6 : 4 }];
  } else {
    try {
      addresses = await (options.resolve ?? defaultResolve)(hostname, options.signal);
    } catch (error) {
      throw refusals.lookupFailed(hostname, error);
    }
  }
  // A host is refused if any of its addresses is: the connection could otherwise reach it later.
  const verdicts = addresses.map((a) => checkAddress(a.address, { allowLoopback: options.allowLoopback }));
  const first = verdicts[0];
  if (first === undefined) throw refusals.noAddress(hostname);
  const refused = verdicts.find((v) => !v.allowed);
  if (refused !== undefined) throw refusals.refused(hostname, refused);
  if (url.protocol === 'http:' && !verdicts.every((v) => v.range === 'loopback')) throw refusals.plainHttp(hostname);
  return { hostname, address: first.address };
}

export interface PinnedAgentOptions {
  /** TCP + TLS handshake bound, ms. */
  connectTimeoutMs: number;
  /** Trusted CA certificate(s) in PEM, replacing the system roots. */
  ca?: string | Buffer | readonly (string | Buffer)[] | undefined;
  /** Called just before each connection; throwing aborts that connection. */
  onConnect?: ((attempt: ConnectAttempt) => void) | undefined;
  /** One connection without pipelining, for an agent that serves a single request. */
  singleConnection?: boolean;
}

/** An undici agent whose every connection goes to `target.address`, whatever the URL's host name. */
export function pinnedAgent(target: PinnedTarget, options: PinnedAgentOptions): Agent {
  const { hostname, address } = target;
  const { ca, onConnect } = options;
  const connector = buildConnector({
    timeout: options.connectTimeoutMs,
    ...(ca === undefined ? {} : { ca: typeof ca === 'string' || Buffer.isBuffer(ca) ? ca : [...ca] }),
  });
  return new Agent({
    ...(options.singleConnection === true ? { connections: 1, pipelining: 1 } : {}),
    connect: (connectOptions, callback) => {
      try {
        onConnect?.({ hostname, address, port: Number(connectOptions.port) || (connectOptions.protocol === 'https:' ? 443 : 80) });
      } catch (error) {
        callback(error instanceof Error ? error : new Error(String(error)), null);
        return;
      }
      // Only the socket target changes; `host` stays the URL's, so SNI and certificate checks use the host name.
      connector({ ...connectOptions, hostname: address }, callback);
    },
  });
}

async function defaultResolve(hostname: string): Promise<readonly { address: string; family: number }[]> {
  return dnsLookup(hostname, { all: true, verbatim: true });
}
