/**
 * Preloaded (`--import`) into every Node process the docs test starts: name lookups (getaddrinfo
 * and DNS queries alike) answer only for this machine. The docs are full of public-looking hosts (platform.example, shop.example,
 * stores.example.com); a command that would reach one fails at once with ENOTFOUND instead of
 * sending traffic beyond loopback. IP literals need no lookup and the docs name none off this host.
 */
import dns from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';

const LOCAL = new Set(['localhost', '127.0.0.1', '::1']);

function refusal(hostname) {
  const error = new Error(`getaddrinfo ENOTFOUND ${hostname} (the docs test resolves only loopback names)`);
  error.code = 'ENOTFOUND';
  error.hostname = hostname;
  return error;
}

const lookup = dns.lookup;
dns.lookup = function guardedLookup(hostname, ...rest) {
  if (LOCAL.has(String(hostname).toLowerCase())) return lookup.call(this, hostname, ...rest);
  const callback = rest.at(-1);
  process.nextTick(() => callback(refusal(hostname)));
  return undefined;
};

const lookupPromise = dns.promises.lookup;
dns.promises.lookup = async function guardedLookupPromise(hostname, options) {
  if (LOCAL.has(String(hostname).toLowerCase())) return lookupPromise.call(this, hostname, options);
  throw refusal(hostname);
};

// DNS queries over the network (the server's discovery resolver, c-ares) are refused the same way.
for (const method of ['resolve', 'resolve4', 'resolve6', 'resolveAny']) {
  const queryPromise = dns.promises.Resolver.prototype[method];
  dns.promises.Resolver.prototype[method] = async function guardedQuery(hostname, ...rest) {
    if (LOCAL.has(String(hostname).toLowerCase())) return queryPromise.call(this, hostname, ...rest);
    throw refusal(hostname);
  };
  const query = dns.Resolver.prototype[method];
  dns.Resolver.prototype[method] = function guardedQueryCallback(hostname, ...rest) {
    if (LOCAL.has(String(hostname).toLowerCase())) return query.call(this, hostname, ...rest);
    const callback = rest.at(-1);
    process.nextTick(() => callback(refusal(hostname)));
    return undefined;
  };
}

// ESM named imports of node:dns and node:dns/promises see the guarded functions too.
syncBuiltinESMExports();
