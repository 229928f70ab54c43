/**
 * The default discovery resolver against a DNS server on loopback that never answers (a silent
 * zone). No outside name is ever resolved: every query goes to 127.0.0.1.
 */
import { createSocket, type Socket } from 'node:dgram';
import { lookup } from 'node:dns/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCodeOf } from './error-code.js';
import { networkResolver, withSystemFallback } from './network-resolver.js';

let silent: Socket;
let server = '';
let queries = 0;

beforeAll(async () => {
  silent = createSocket('udp4');
  silent.on('message', () => (queries += 1)); // swallowed: the zone never answers
  await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
  server = `127.0.0.1:${silent.address().port}`;
});

afterAll(() => silent?.close());

const failureCode = (promise: Promise<unknown>): Promise<string> =>
  promise.then(
    () => 'resolved',
    (error: unknown) => errorCodeOf(error),
  );

describe('networkResolver: platform hosts resolved over the network, not on the thread pool (issue 37 N2)', () => {
  it('asks the configured server, and a silent one ends in a DNS timeout, not a hang', async () => {
    const before = queries;
    const resolve = networkResolver({ servers: [server], timeoutMs: 100 });
    expect(await failureCode(resolve('never.silent.test'))).toBe('ETIMEOUT');
    expect(queries).toBeGreaterThan(before);
  });

  it('cancels its queries when the caller gives up', async () => {
    const resolve = networkResolver({ servers: [server], timeoutMs: 60_000 });
    const giveUp = new AbortController();
    const pending = failureCode(resolve('cancelled.silent.test', giveUp.signal));
    giveUp.abort();
    expect(await pending).toBe('ECANCELLED');
  });

  it('many stalled lookups leave getaddrinfo (the store’s lookups) free: localhost resolves while they hang', async () => {
    const resolve = networkResolver({ servers: [server], timeoutMs: 60_000 });
    const giveUp = new AbortController();
    const stalled = Array.from({ length: 16 }, (_, i) => failureCode(resolve(`h${i}.silent.test`, giveUp.signal)));
    const all = Promise.all(stalled);
    const local = Promise.all(Array.from({ length: 8 }, () => lookup('localhost')));
    const first = await Promise.race([local.then(() => 'store lookups'), all.then(() => 'stalled lookups')]);
    expect(first).toBe('store lookups');
    giveUp.abort();
    expect(new Set(await all)).toEqual(new Set(['ECANCELLED']));
  });

  it('answers localhost names with loopback without asking anyone (RFC 6761 §6.3)', async () => {
    const before = queries;
    const resolve = networkResolver({ servers: [server] });
    expect(await resolve('profiles.localhost')).toEqual([
      { address: '127.0.0.1', family: 4 },
      { address: '::1', family: 6 },
    ]);
    expect(queries).toBe(before);
  });

  it('in development only, a name DNS does not know is looked up in the system resolver (/etc/hosts)', async () => {
    const unknown = (): Promise<never> => Promise.reject(Object.assign(new Error('no such name'), { code: 'ENOTFOUND' }));
    const addresses = await withSystemFallback(unknown)('localhost');
    expect(addresses.map((a) => a.address)).toContain('127.0.0.1');
    const timedOut = (): Promise<never> => Promise.reject(Object.assign(new Error('timeout'), { code: 'ETIMEOUT' }));
    expect(await failureCode(withSystemFallback(timedOut)('localhost'))).toBe('ETIMEOUT');
  });
});
