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
 * URL syntax, the address checks and the pinned connector are the protocol layer's
 * (`parseFetchUrl`, `pickPinnedAddress`, `pinnedAgent`), shared with the discovery fetcher; only
 * the wording of the refusals, as `DiscoveryError`s about the endpoint, is this module's.
 */
import type { Agent } from 'undici';
import { pickPinnedAddress, pinnedAgent, type PinRefusals } from '../protocol/pinned-agent.js';
import { SafeFetchError, parseFetchUrl, type Resolver } from '../protocol/safe-fetch.js';
import { DiscoveryError } from './errors.js';
import { fromSafeFetchError } from './fetch-errors.js';
import { errorCodeOf } from '../protocol/error-code.js';

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
  const refusals: PinRefusals = {
    lookupFailed: (hostname, error) =>
      new DiscoveryError(
        'unreachable',
        'endpoint',
        `Cannot reach the business endpoint ${url.href}: resolving ${hostname} failed (${errorCodeOf(error) || String(error)})`,
        {
          cause: error,
          url: endpoint,
        },
      ),
    noAddress: (hostname) =>
      new DiscoveryError('unreachable', 'endpoint', `Cannot reach the business endpoint ${url.href}: ${hostname} has no address`, {
        url: endpoint,
      }),
    refused: (hostname, verdict) =>
      new DiscoveryError(
        'address_refused',
        'endpoint',
        `Refusing to call the business endpoint ${url.href}: ${hostname} resolves to ${verdict.address} (${verdict.range}), a special-use address. Business endpoints must resolve to public addresses (--allow-loopback admits loopback for local development).`,
        { url: endpoint },
      ),
    plainHttp: () =>
      new DiscoveryError(
        'invalid_url',
        'endpoint',
        `The business endpoint ${url.href} uses plain http; only https is allowed outside loopback development.`,
        { url: endpoint },
      ),
  };
  const target = await pickPinnedAddress(url, { allowLoopback, resolve: options.resolve }, refusals);
  // Keep-alive (no single-connection limit): every call of a client goes to this one origin.
  const dispatcher = pinnedAgent(target, { connectTimeoutMs: options.connectTimeoutMs ?? 5_000, ca: options.ca });
  return {
    url,
    dispatcher,
    close: () => dispatcher.close().catch(() => undefined),
  };
}
