/**
 * The HTTP agent used to call a Business endpoint (MCP or REST) after discovery.
 *
 * Endpoint URLs come from a profile someone else published, so they get the same treatment as
 * discovery URLs (R-N4): https only (plain http solely for loopback development), no userinfo,
 * the host resolved once with every address checked by the shared address guard, and the
 * connection pinned to the checked address so DNS cannot answer differently at connect time.
 * TLS still verifies the certificate against the host name. Unlike the discovery fetcher, the
 * agent keeps connections alive: every call of a client goes to this one origin.
 *
 * URL syntax and address classification are the protocol layer's (`parseFetchUrl`,
 * `checkAddress`); only the pinned connector lives here, because the discovery fetcher keeps its
 * own private and builds one per GET.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { Agent, buildConnector } from 'undici';
import { checkAddress, isIpLiteral, stripBrackets } from '../protocol/address-guard.js';
import { SafeFetchError, parseFetchUrl, type Resolver } from '../protocol/safe-fetch.js';
import { DiscoveryError } from './errors.js';
import { fromSafeFetchError } from './fetch-errors.js';

export interface EndpointAgentOptions {
  /** Local development: allow loopback endpoints, and plain http to them. */
  allowLoopback?: boolean;
  resolve?: Resolver;
  /** Trusted CA certificate(s) in PEM, replacing the system roots. */
  ca?: string | Buffer | readonly (string | Buffer)[];
  /** TCP + TLS handshake bound, ms. Default 5000. */
  connectTimeoutMs?: number;
}

export interface EndpointAgent {
  /** The endpoint URL, normalised (no fragment). */
  url: URL;
  dispatcher: Agent;
  close(): Promise<void>;
}

/** Resolves and checks the endpoint's host, then returns an agent pinned to the checked address. */
export async function openEndpointAgent(endpoint: string, options: EndpointAgentOptions = {}): Promise<EndpointAgent> {
  const allowLoopback = options.allowLoopback === true;
  let url: URL;
  try {
    url = parseFetchUrl(endpoint, allowLoopback);
  } catch (error) {
    if (error instanceof SafeFetchError) throw fromSafeFetchError(error, 'endpoint', endpoint);
    throw error;
  }
  const hostname = stripBrackets(url.hostname);
  let addresses: readonly { address: string; family: number }[];
  if (isIpLiteral(url.hostname)) {
    addresses = [{ address: hostname, family: hostname.includes(':') ? 6 : 4 }];
  } else {
    try {
      addresses = await (options.resolve ?? defaultResolve)(hostname);
    } catch (error) {
      throw new DiscoveryError('unreachable', 'endpoint', `Cannot reach the business endpoint ${url.href}: resolving ${hostname} failed (${String((error as { code?: unknown }).code ?? error)})`, {
        cause: error,
        url: endpoint,
      });
    }
  }
  if (addresses.length === 0) {
    throw new DiscoveryError('unreachable', 'endpoint', `Cannot reach the business endpoint ${url.href}: ${hostname} has no address`, { url: endpoint });
  }
  const verdicts = addresses.map((a) => checkAddress(a.address, { allowLoopback }));
  const refused = verdicts.find((v) => !v.allowed);
  if (refused !== undefined) {
    throw new DiscoveryError(
      'address_refused',
      'endpoint',
      `Refusing to call the business endpoint ${url.href}: ${hostname} resolves to ${refused.address} (${refused.range}), a special-use address. Business endpoints must resolve to public addresses (--allow-loopback admits loopback for local development).`,
      { url: endpoint },
    );
  }
  if (url.protocol === 'http:' && !verdicts.every((v) => v.range === 'loopback')) {
    throw new DiscoveryError('invalid_url', 'endpoint', `The business endpoint ${url.href} uses plain http; only https is allowed outside loopback development.`, { url: endpoint });
  }
  const target = verdicts[0];
  if (target === undefined) throw new DiscoveryError('unreachable', 'endpoint', `${hostname} has no address`, { url: endpoint });

  const caOption = options.ca === undefined ? {} : { ca: typeof options.ca === 'string' || Buffer.isBuffer(options.ca) ? options.ca : [...options.ca] };
  const connector = buildConnector({ timeout: options.connectTimeoutMs ?? 5_000, ...caOption });
  const dispatcher = new Agent({
    connect: (connectOptions, callback) => {
      // Only the socket target changes; `host` (and so SNI and the certificate check) stays the URL's.
      connector({ ...connectOptions, hostname: target.address }, callback);
    },
  });
  return {
    url,
    dispatcher,
    close: () => dispatcher.close().catch(() => undefined),
  };
}

async function defaultResolve(hostname: string): Promise<readonly { address: string; family: number }[]> {
  return dnsLookup(hostname, { all: true, verbatim: true });
}
