/**
 * The shared resolve → check → pin steps (R-N4), directly: the refusal each input leads to, and
 * that a pinned agent connects to the checked address while TLS still checks the host name.
 * Real HTTPS on 127.0.0.1 with a throw-away CA; test names resolve through an injected resolver.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickPinnedAddress, pinnedAgent, type ConnectAttempt, type PinRefusals, type Resolver } from './pinned-agent.js';
import { createTestPki, type TestPki } from '../../test/support/tls.js';
import { json, startTestServer, type TestServer } from '../../test/support/http-server.js';

/** Each refusal as a plain Error whose message names the refusal, so tests can tell them apart. */
const refusals: PinRefusals = {
  lookupFailed: (hostname, error) => new Error(`lookupFailed ${hostname} ${String((error as { code?: unknown }).code)}`),
  noAddress: (hostname) => new Error(`noAddress ${hostname}`),
  refused: (hostname, verdict) => new Error(`refused ${hostname} ${verdict.address} ${verdict.range}`),
  plainHttp: (hostname) => new Error(`plainHttp ${hostname}`),
};

function resolverOf(dns: Record<string, string[]>, calls: string[] = []): Resolver {
  return (hostname) => {
    calls.push(hostname);
    const addresses = dns[hostname];
    if (addresses === undefined)
      return Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
    return Promise.resolve(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  };
}

async function refusalOf(url: string, dns: Record<string, string[]>, allowLoopback = false): Promise<string> {
  try {
    await pickPinnedAddress(new URL(url), { allowLoopback, resolve: resolverOf(dns) }, refusals);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`expected ${url} to be refused`);
}

describe('pickPinnedAddress (R-N4)', () => {
  it('returns the first address of a host whose every address is public, with the host name', async () => {
    const target = await pickPinnedAddress(
      new URL('https://shop.test.example/x'),
      { allowLoopback: false, resolve: resolverOf({ 'shop.test.example': ['93.184.216.34', '2606:2800:220:1::1'] }) },
      refusals,
    );
    expect(target).toEqual({ hostname: 'shop.test.example', address: '93.184.216.34' });
  });

  it('refuses a host if any one of its addresses is special-use, not only the first', async () => {
    expect(await refusalOf('https://mixed.test.example', { 'mixed.test.example': ['93.184.216.34', '10.0.0.7'] })).toBe(
      'refused mixed.test.example 10.0.0.7 private',
    );
  });

  it('refuses loopback unless loopback development is allowed', async () => {
    expect(await refusalOf('https://local.test.example', { 'local.test.example': ['127.0.0.1'] })).toBe(
      'refused local.test.example 127.0.0.1 loopback',
    );
    const target = await pickPinnedAddress(
      new URL('https://local.test.example'),
      { allowLoopback: true, resolve: resolverOf({ 'local.test.example': ['127.0.0.1'] }) },
      refusals,
    );
    expect(target.address).toBe('127.0.0.1');
  });

  it('admits plain http only when every address is loopback', async () => {
    expect(await refusalOf('http://public.test.example', { 'public.test.example': ['93.184.216.34'] }, true)).toBe(
      'plainHttp public.test.example',
    );
    const target = await pickPinnedAddress(new URL('http://[::1]:8080/'), { allowLoopback: true, resolve: resolverOf({}) }, refusals);
    expect(target).toEqual({ hostname: '::1', address: '::1' });
  });

  it('takes IP literals as they are, without resolving', async () => {
    const calls: string[] = [];
    const error = await pickPinnedAddress(
      new URL('https://169.254.169.254/latest'),
      { allowLoopback: true, resolve: resolverOf({}, calls) },
      refusals,
    ).catch((e: unknown) => e as Error);
    expect((error as Error).message).toBe('refused 169.254.169.254 169.254.169.254 link-local');
    expect(calls).toEqual([]);
  });

  it('reports a failed lookup and a name without addresses through the caller’s refusals', async () => {
    expect(await refusalOf('https://nowhere.test.example', {})).toBe('lookupFailed nowhere.test.example ENOTFOUND');
    expect(await refusalOf('https://empty.test.example', { 'empty.test.example': [] })).toBe('noAddress empty.test.example');
  });
});

describe('pinnedAgent', () => {
  let pki: TestPki;
  let server: TestServer;

  beforeAll(async () => {
    pki = createTestPki();
    server = await startTestServer({ tls: pki.issue(['shop.test.example']) });
    server.route('/doc', json({ ok: true }));
  });

  afterAll(async () => {
    await server.close();
    pki.dispose();
  });

  it('connects to the pinned address while the Host header and certificate check use the host name', async () => {
    const attempts: ConnectAttempt[] = [];
    const agent = pinnedAgent(
      { hostname: 'shop.test.example', address: '127.0.0.1' },
      { connectTimeoutMs: 2_000, ca: pki.ca, onConnect: (a) => void attempts.push(a) },
    );
    try {
      // The name resolves nowhere: only the pinned address can have been used.
      const response = await request(`${server.origin('shop.test.example')}/doc`, { dispatcher: agent });
      expect(response.statusCode).toBe(200);
      expect(await response.body.json()).toEqual({ ok: true });
    } finally {
      await agent.close();
    }
    expect(attempts).toEqual([{ hostname: 'shop.test.example', address: '127.0.0.1', port: server.port }]);
    expect(server.requests.at(-1)?.headers.host).toBe(`shop.test.example:${server.port}`);
  });

  it('fails TLS when the certificate does not name the URL’s host, even at the right address', async () => {
    const agent = pinnedAgent({ hostname: 'other.test.example', address: '127.0.0.1' }, { connectTimeoutMs: 2_000, ca: pki.ca });
    try {
      await expect(request(`${server.origin('other.test.example')}/doc`, { dispatcher: agent })).rejects.toThrow(/altname|certificate/i);
    } finally {
      await agent.close();
    }
  });

  it('aborts the connection when onConnect throws, before any byte reaches the server', async () => {
    const before = server.connections;
    const agent = pinnedAgent(
      { hostname: 'shop.test.example', address: '127.0.0.1' },
      {
        connectTimeoutMs: 2_000,
        ca: pki.ca,
        onConnect: () => {
          throw new Error('seatbelt');
        },
      },
    );
    try {
      await expect(request(`${server.origin('shop.test.example')}/doc`, { dispatcher: agent })).rejects.toThrow('seatbelt');
    } finally {
      await agent.close();
    }
    expect(server.connections).toBe(before);
  });
});
