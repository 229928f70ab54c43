/**
 * The default resolver for hosts named in discovery URLs: DNS queries over the network
 * (c-ares, `dns.promises.Resolver`), never `getaddrinfo`.
 *
 * Why not `dns.lookup`: it runs `getaddrinfo` on libuv's thread pool (four threads by default),
 * which the rest of the process shares — file system calls, and every connection the store opens
 * to a database named by host. A stranger naming hosts in a zone whose nameserver never answers
 * would park lookups on all four threads (a deadline stops our waiting, not the lookup), and the
 * store's own lookups would queue behind them. c-ares sends its queries from the event loop, a
 * query that is given up on is cancelled for real, and each has its own timeout.
 *
 * Differences from `dns.lookup` an operator may notice: /etc/hosts is not read (discovery
 * targets are public hosts, published in DNS), except that `localhost` and `*.localhost` are
 * loopback as RFC 6761 §6.3 requires. The servers are the system's (from /etc/resolv.conf) unless
 * `servers` names others.
 */
import { Resolver as DnsResolver, lookup } from 'node:dns/promises';
import { errorCodeOf } from './error-code.js';
import type { Resolver } from './pinned-agent.js';

export interface NetworkResolverOptions {
  /** DNS servers (`"127.0.0.1:5353"`, `"[::1]:53"`…); default the system's. */
  servers?: readonly string[];
  /** How long one query waits for an answer before giving up, ms. Default 2000. */
  timeoutMs?: number;
}

const NOT_FOUND = new Set(['ENOTFOUND', 'ENODATA']);

export function networkResolver(options: NetworkResolverOptions = {}): Resolver {
  const timeout = Math.max(1, Math.round(options.timeoutMs ?? 2_000));
  const servers = options.servers === undefined ? undefined : [...options.servers];
  return async (hostname, signal) => {
    const name = hostname.toLowerCase().replace(/\.$/, '');
    if (name === 'localhost' || name.endsWith('.localhost')) {
      return [
        { address: '127.0.0.1', family: 4 },
        { address: '::1', family: 6 },
      ];
    }
    // One channel per lookup, so giving up on it (cancel) ends this lookup's queries only.
    const resolver = new DnsResolver({ timeout, tries: 1 });
    if (servers !== undefined) resolver.setServers(servers);
    const cancel = (): void => resolver.cancel();
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      const [v4, v6] = await Promise.allSettled([resolver.resolve4(name), resolver.resolve6(name)]);
      const addresses = [
        ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
        ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
      ];
      if (addresses.length > 0) return addresses;
      const failures = [v4, v6].flatMap((r): Error[] => (r.status === 'rejected' && r.reason instanceof Error ? [r.reason] : []));
      // "No such name" only when every query says so; a timeout or server failure is a DNS failure.
      throw failures.find((e) => !NOT_FOUND.has(errorCodeOf(e))) ?? failures[0] ?? notFound(name);
    } finally {
      signal?.removeEventListener('abort', cancel);
      resolver.cancel();
    }
  };
}

function notFound(name: string): Error {
  return Object.assign(new Error(`${name} has no address`), { code: 'ENOTFOUND' });
}

/**
 * For local development (`allowLoopback`) only: a name DNS does not know is looked up once more
 * with the system's resolver (`/etc/hosts`, mDNS), where development host names live. Never used
 * for a server open to strangers, since that lookup runs on libuv's thread pool.
 */
export function withSystemFallback(resolve: Resolver): Resolver {
  return async (hostname, signal) => {
    try {
      return await resolve(hostname, signal);
    } catch (error) {
      if (!NOT_FOUND.has(errorCodeOf(error))) throw error;
      return lookup(hostname, { all: true, verbatim: true });
    }
  };
}
