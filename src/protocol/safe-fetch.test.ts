/**
 * SafeFetcher against real servers on 127.0.0.1 (and ::1 when available), with
 * a throw-away CA. Test host names are mapped to addresses by an injected
 * resolver. Every fetcher carries an `onConnect` seatbelt that refuses any
 * non-loopback connection, so no test can reach outside the machine even if the
 * guard under test were broken.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkAddress } from './address-guard.js';
import { MemoryCacheBackend } from './fetch-cache.js';
import { checkProfileHosting } from './profile-hosting.js';
import { UcpNegotiationError } from '../errors.js';
import { PlatformProfileResolver } from './profile-resolver.js';
import { SafeFetchError, SafeFetcher, type ConnectAttempt, type SafeFetcherOptions, type SafeFetchReason } from './safe-fetch.js';
import { createTestPki, type TestPki } from '../../test/support/tls.js';
import { json, startTestServer, type TestServer } from '../../test/support/http-server.js';

const HOSTS = ['profiles.test.example', 'a.test.example', 'b.test.example', 'c.test.example', 'evil.test.example'];

let pki: TestPki;
let https: TestServer;
let plain: TestServer;
let v6: TestServer | undefined;

/** Test DNS: host name → addresses. Unknown names fail like a real NXDOMAIN. */
let dns: Record<string, string[]>;
let resolverCalls: string[];
let attempts: ConnectAttempt[];
let now: number;

function resolve(hostname: string): Promise<{ address: string; family: number }[]> {
  resolverCalls.push(hostname);
  const addresses = dns[hostname];
  if (!addresses) return Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
  return Promise.resolve(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
}

function fetcher(options: SafeFetcherOptions = {}): SafeFetcher {
  return new SafeFetcher({
    ca: pki.ca,
    resolve,
    now: () => now,
    allowLoopback: true,
    onConnect: (attempt) => {
      attempts.push(attempt);
      // Seatbelt: tests only ever talk to loopback.
      if (checkAddress(attempt.address).range !== 'loopback') throw new Error(`test tried to connect to ${attempt.address}`);
    },
    ...options,
  });
}

async function failure(promise: Promise<unknown>): Promise<SafeFetchError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SafeFetchError) return error;
    throw error;
  }
  throw new Error('expected the fetch to fail');
}

async function expectFailure(promise: Promise<unknown>, reason: SafeFetchReason): Promise<SafeFetchError> {
  const error = await failure(promise);
  expect(error.reason).toBe(reason);
  return error;
}

const hits = (server: TestServer, path: string): number => server.requests.filter((r) => r.path === path).length;
const url = (host: string, path: string, server: TestServer = https): string => `${server.origin(host)}${path}`;

beforeAll(async () => {
  pki = createTestPki();
  https = await startTestServer({ tls: pki.issue(HOSTS) });
  plain = await startTestServer();
  try {
    v6 = await startTestServer({ tls: pki.issue(HOSTS), listenHost: '::1' });
  } catch {
    v6 = undefined; // no IPv6 loopback in this environment
  }
});

afterAll(async () => {
  await Promise.all([https.close(), plain.close(), v6?.close()]);
  pki.dispose();
});

beforeEach(() => {
  dns = Object.fromEntries(HOSTS.map((h) => [h, ['127.0.0.1']]));
  resolverCalls = [];
  attempts = [];
  now = Date.UTC(2026, 8, 1, 12);
});

describe('SafeFetcher: fetching', () => {
  it('fetches JSON over https, pinned to the checked address, with SNI and Host kept as the host name', async () => {
    https.route('/profile.json', json({ hello: 'world' }, { 'cache-control': 'public, max-age=300' }));
    const doc = await fetcher().get(url('profiles.test.example', '/profile.json#ignored-fragment'));
    expect(doc).toMatchObject({ body: { hello: 'world' }, source: 'network', url: url('profiles.test.example', '/profile.json') });
    expect(attempts).toEqual([{ hostname: 'profiles.test.example', address: '127.0.0.1', port: https.port }]);
    expect(https.requests.at(-1)?.headers.host).toBe(`profiles.test.example:${https.port}`);
  });

  it('checks the certificate against the host name: a name the certificate lacks fails TLS', async () => {
    dns['wrong.test.example'] = ['127.0.0.1'];
    https.route('/tls', json({}));
    const error = await expectFailure(fetcher().get(url('wrong.test.example', '/tls')), 'tls_failed');
    expect(error.ucpCode).toBe('profile_unreachable');
  });

  it('does not trust a certificate from an unknown CA', async () => {
    https.route('/tls2', json({}));
    const untrusting = new SafeFetcher({ resolve, allowLoopback: true });
    await expectFailure(untrusting.get(url('profiles.test.example', '/tls2')), 'tls_failed');
  });

  it('allows plain http only for loopback targets in development (R-N4)', async () => {
    plain.route('/dev.json', json({ dev: true }));
    dns['dev.test.example'] = ['127.0.0.1'];
    expect((await fetcher().get(url('dev.test.example', '/dev.json', plain))).body).toEqual({ dev: true });

    await expectFailure(fetcher({ allowLoopback: false }).get(url('dev.test.example', '/dev.json', plain)), 'insecure_http');

    dns['public.test.example'] = ['93.184.215.14'];
    const before = attempts.length;
    const error = await expectFailure(fetcher().get(url('public.test.example', '/dev.json', plain)), 'insecure_http');
    expect(error.ucpCode).toBe('invalid_profile_url');
    expect(attempts.length).toBe(before);
  });

  it('exposes one uncached fetch with headers, for the R-D5 hosting checks', async () => {
    https.route('/hosted.json', json({ ok: 1 }, { 'cache-control': 'public, max-age=300', etag: '"h1"' }));
    const response = await fetcher().fetchDocument(url('profiles.test.example', '/hosted.json'));
    expect(response.status).toBe(200);
    expect(checkProfileHosting(response)).toEqual([]);
    https.route('/badly-hosted.json', json({ ok: 1 }, { 'cache-control': 'no-store' }));
    const bad = await fetcher().fetchDocument(url('profiles.test.example', '/badly-hosted.json'));
    expect(checkProfileHosting(bad).map((p) => p.rule)).toEqual([
      'cache-control-public',
      'cache-control-max-age',
      'cache-control-forbidden-directive',
      'validator',
    ]);
  });
});

describe('SafeFetcher: URL and address refusals (R-N3, R-N4, R-P3)', () => {
  it.each([
    ['not a url', 'invalid_url'],
    ['/relative/profile.json', 'invalid_url'],
    ['ftp://profiles.test.example/p.json', 'unsupported_scheme'],
    ['file:///etc/passwd', 'unsupported_scheme'],
    ['https://user:secret@profiles.test.example/p.json', 'userinfo'],
    [`https://${'x'.repeat(2100)}.example/`, 'invalid_url'],
  ] as const)('refuses %j before any I/O as %s', async (input, reason) => {
    const error = await expectFailure(fetcher().get(input), reason);
    expect(error.ucpCode).toBe('invalid_profile_url');
    expect(resolverCalls).toEqual([]);
    expect(attempts).toEqual([]);
  });

  it('refuses plain http when loopback development is off, without resolving', async () => {
    await expectFailure(fetcher({ allowLoopback: false }).get('http://profiles.test.example/p.json'), 'insecure_http');
    expect(resolverCalls).toEqual([]);
  });

  const resolvedTo: [string, string[], boolean][] = [
    ['a private address', ['10.0.0.1'], true],
    ['the cloud-metadata address', ['169.254.169.254'], true],
    ['shared CGNAT space', ['100.64.0.1'], true],
    ['IPv6 unique-local', ['fd00::1'], true],
    ['IPv6 loopback', ['::1'], false],
    ['IPv4-mapped loopback', ['::ffff:127.0.0.1'], false],
    ['IPv4 loopback', ['127.0.0.1'], false],
    ['the unspecified address', ['0.0.0.0'], true],
    ['6to4 embedding a private address', ['2002:a00:1::1'], true],
    ['NAT64 embedding the metadata address', ['64:ff9b::a9fe:a9fe'], true],
    ['one public and one private address', ['93.184.215.14', '10.0.0.1'], true],
    ['one loopback and one private address', ['127.0.0.1', '10.0.0.1'], true],
  ];

  it.each(resolvedTo)('refuses a host resolving to %s, never connecting', async (_label, addresses, evenInDevelopment) => {
    dns['evil.test.example'] = addresses;
    https.route('/p.json', json({}));
    const connections = { v4: https.connections, v6: v6?.connections };
    for (const allowLoopback of evenInDevelopment ? [false, true] : [false]) {
      const error = await expectFailure(fetcher({ allowLoopback }).get(url('evil.test.example', '/p.json')), 'refused_address');
      expect(error.ucpCode).toBe('invalid_profile_url');
    }
    expect(attempts).toEqual([]);
    expect(https.connections).toBe(connections.v4);
    expect(v6?.connections).toBe(connections.v6);
  });

  it.each([
    'https://10.0.0.1/p.json',
    'https://169.254.169.254/latest/meta-data/',
    'https://100.64.0.1/p.json',
    'https://[fd00::1]/p.json',
    'https://[::ffff:169.254.169.254]/p.json',
    'https://0x7f.1/p.json', // WHATWG-normalised to 127.0.0.1
  ])('refuses the IP-literal URL %s without resolving or connecting', async (input) => {
    await expectFailure(fetcher({ allowLoopback: false }).get(input), 'refused_address');
    expect(resolverCalls).toEqual([]);
    expect(attempts).toEqual([]);
  });

  it('refuses IP-literal loopback URLs unless in development', async () => {
    https.route('/literal.json', json({ literal: true }));
    const before = https.connections;
    await expectFailure(fetcher({ allowLoopback: false }).get(`https://127.0.0.1:${https.port}/literal.json`), 'refused_address');
    await expectFailure(fetcher({ allowLoopback: false }).get(`https://[::ffff:127.0.0.1]:${https.port}/literal.json`), 'refused_address');
    expect(https.connections).toBe(before);
  });

  it('refuses ::1 while a real server listens there, and reaches it only in development', async ({ skip }) => {
    if (!v6) return skip('no IPv6 loopback here');
    dns['evil.test.example'] = ['::1'];
    v6.route('/v6.json', json({ v6: true }));
    await expectFailure(fetcher({ allowLoopback: false }).get(url('evil.test.example', '/v6.json', v6)), 'refused_address');
    expect(v6.connections).toBe(0);
    expect((await fetcher().get(url('evil.test.example', '/v6.json', v6))).body).toEqual({ v6: true });
    expect(v6.connections).toBe(1);
  });

  it('treats a name that does not exist as an invalid URL, and a failed lookup as unreachable', async () => {
    const missing = await expectFailure(fetcher().get('https://nowhere.test.example/p.json'), 'unresolvable');
    expect(missing.ucpCode).toBe('invalid_profile_url');
    const flaky = new SafeFetcher({ resolve: () => Promise.reject(Object.assign(new Error('EAI_AGAIN'), { code: 'EAI_AGAIN' })) });
    const error = await expectFailure(flaky.get('https://profiles.test.example/p.json'), 'dns_failure');
    expect(error.ucpCode).toBe('profile_unreachable');
  });

  it('bounds DNS by the total deadline', async () => {
    const stuck = new SafeFetcher({ resolve: () => new Promise(() => undefined), totalTimeoutMs: 100 });
    await expectFailure(stuck.get('https://profiles.test.example/p.json'), 'timeout');
  });
});

describe('SafeFetcher: responses', () => {
  it('refuses a redirect and never follows it (R-N3)', async () => {
    https.route('/moved.json', (_req, res) => res.writeHead(302, { location: '/target.json' }).end());
    https.route('/target.json', json({ followed: true }));
    const error = await expectFailure(fetcher().get(url('profiles.test.example', '/moved.json')), 'redirect');
    expect(error).toMatchObject({ ucpCode: 'profile_unreachable', status: 302 });
    expect(hits(https, '/target.json')).toBe(0);
  });

  it('reports a refused connection as unreachable', async () => {
    const closed = await startTestServer({ tls: pki.issue(HOSTS) });
    const port = closed.port;
    await closed.close();
    const error = await expectFailure(fetcher().get(`https://profiles.test.example:${port}/p.json`), 'connect_failed');
    expect(error.ucpCode).toBe('profile_unreachable');
  });

  it('does not mistake a 304 to an unconditional request for a document or a redirect', async () => {
    https.route('/odd-304.json', (_req, res) => res.writeHead(304).end());
    const error = await expectFailure(fetcher().get(url('profiles.test.example', '/odd-304.json')), 'unexpected_not_modified');
    expect(error).toMatchObject({ ucpCode: 'profile_unreachable', status: 304 });
  });

  it('reports a non-2xx status as unreachable', async () => {
    const error = await expectFailure(fetcher().get(url('profiles.test.example', '/no-such-route.json')), 'http_status');
    expect(error).toMatchObject({ ucpCode: 'profile_unreachable', status: 404 });
  });

  it('refuses at once a body whose Content-Length exceeds the cap', async () => {
    https.route('/announced-big.json', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024) });
      res.write('{"padding":"'); // and then nothing: only the announcement can end this quickly
    });
    const error = await expectFailure(
      fetcher({ maxBodyBytes: 64 * 1024 }).get(url('profiles.test.example', '/announced-big.json')),
      'too_large',
    );
    expect(error.ucpCode).toBe('profile_unreachable');
  });

  it('aborts a chunked body (no Content-Length) as soon as it passes the cap', async () => {
    let finished: boolean | undefined;
    let sent = 0;
    https.route('/endless.json', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(16 * 1024, 0x20);
      const pump = (): void => {
        // Stop by itself at 8 MiB so a broken cap cannot run forever.
        while (!res.destroyed && sent < 8 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        if (!res.destroyed) res.end();
      };
      res.on('close', () => (finished = res.writableFinished));
      pump();
    });
    await expectFailure(fetcher({ maxBodyBytes: 64 * 1024 }).get(url('profiles.test.example', '/endless.json')), 'too_large');
    await waitFor(() => finished !== undefined);
    expect(finished).toBe(false);
    expect(sent).toBeLessThan(8 * 1024 * 1024);
  });

  it('times out a server that never sends headers', async () => {
    https.route('/silent.json', () => undefined);
    await expectFailure(fetcher({ totalTimeoutMs: 300 }).get(url('profiles.test.example', '/silent.json')), 'timeout');
  });

  it('times out a body that trickles forever', async () => {
    https.route('/trickle.json', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"a":');
      const timer = setInterval(() => res.write(' '), 20);
      res.on('close', () => clearInterval(timer));
    });
    await expectFailure(fetcher({ totalTimeoutMs: 400 }).get(url('profiles.test.example', '/trickle.json')), 'timeout');
  });

  it('reports a body that is not JSON as malformed', async () => {
    https.route('/garbage.json', (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('<html>'));
    const error = await expectFailure(fetcher().get(url('profiles.test.example', '/garbage.json')), 'not_json');
    expect(error.ucpCode).toBe('profile_malformed');
  });

  it('refuses a non-JSON content type, tolerates a missing one, a charset and +json', async () => {
    https.route('/page.html', (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('{}'));
    const error = await expectFailure(fetcher().get(url('profiles.test.example', '/page.html')), 'content_type');
    expect(error.ucpCode).toBe('profile_malformed');

    https.route('/untyped.json', (_req, res) => res.writeHead(200).end('{"untyped":true}'));
    https.route('/ld.json', (_req, res) =>
      res.writeHead(200, { 'content-type': 'application/ld+json; charset=UTF-8' }).end('\ufeff{"ld":true}'),
    );
    expect((await fetcher().get(url('profiles.test.example', '/untyped.json'))).body).toEqual({ untyped: true });
    expect((await fetcher().get(url('profiles.test.example', '/ld.json'))).body).toEqual({ ld: true });
  });
});

describe('SafeFetcher: cache (R-G2)', () => {
  const noStale = { freshness: { defaultStaleWhileRevalidateSeconds: 0 } };

  it('keeps a document for at least 60 s even when max-age is lower', async () => {
    https.route('/short.json', json({ v: 1 }, { 'cache-control': 'max-age=10' }));
    const f = fetcher(noStale);
    const target = url('profiles.test.example', '/short.json');
    await f.get(target);
    now += 59_000;
    expect((await f.get(target)).source).toBe('cache');
    expect(hits(https, '/short.json')).toBe(1);
    now += 2_000;
    expect((await f.get(target)).source).toBe('network');
    expect(hits(https, '/short.json')).toBe(2);
  });

  it('still caches for the 60 s floor when the origin says no-store', async () => {
    https.route('/nostore.json', json({ v: 1 }, { 'cache-control': 'no-store' }));
    const f = fetcher(noStale);
    const target = url('profiles.test.example', '/nostore.json');
    await f.get(target);
    now += 30_000;
    expect((await f.get(target)).source).toBe('cache');
    expect(hits(https, '/nostore.json')).toBe(1);
  });

  it('honours a longer max-age', async () => {
    https.route('/long.json', json({ v: 1 }, { 'cache-control': 'public, max-age=300' }));
    const f = fetcher(noStale);
    const target = url('profiles.test.example', '/long.json');
    await f.get(target);
    now += 299_000;
    expect((await f.get(target)).source).toBe('cache');
    now += 2_000;
    expect((await f.get(target)).source).toBe('network');
    expect(hits(https, '/long.json')).toBe(2);
  });

  it('revalidates with If-None-Match and accepts 304, renewing the lifetime from the 304', async () => {
    https.route('/etag.json', (req, res) => {
      if (req.headers['if-none-match'] === '"v1"')
        return void res.writeHead(304, { 'cache-control': 'public, max-age=120', etag: '"v1"' }).end();
      json({ v: 1 }, { 'cache-control': 'public, max-age=60', etag: '"v1"' })(req, res);
    });
    const f = fetcher(noStale);
    const target = url('profiles.test.example', '/etag.json');
    const first = await f.get(target);
    now += 61_000;
    const second = await f.get(target);
    expect(second.source).toBe('revalidated');
    expect(second.body).toBe(first.body);
    expect(https.requests.filter((r) => r.path === '/etag.json').map((r) => r.headers['if-none-match'])).toEqual([undefined, '"v1"']);
    now += 119_000;
    expect((await f.get(target)).source).toBe('cache');
    expect(hits(https, '/etag.json')).toBe(2);
  });

  it('revalidates with If-Modified-Since when only Last-Modified was sent', async () => {
    const lastModified = 'Tue, 01 Sep 2026 00:00:00 GMT';
    https.route('/lm.json', (req, res) => {
      if (req.headers['if-modified-since'] === lastModified) return void res.writeHead(304).end();
      json({ v: 1 }, { 'cache-control': 'public, max-age=60', 'last-modified': lastModified })(req, res);
    });
    const f = fetcher(noStale);
    const target = url('profiles.test.example', '/lm.json');
    await f.get(target);
    now += 61_000;
    expect((await f.get(target)).source).toBe('revalidated');
  });

  it('evicts the least recently used document beyond the configured number of entries', async () => {
    for (const p of ['/l1.json', '/l2.json', '/l3.json']) https.route(p, json({ p }, { 'cache-control': 'public, max-age=300' }));
    const cache = new MemoryCacheBackend({ maxEntries: 2 });
    const f = fetcher({ cache });
    for (const p of ['/l1.json', '/l2.json', '/l3.json']) await f.get(url('profiles.test.example', p));
    expect(cache.size).toBe(2);
    expect((await f.get(url('profiles.test.example', '/l3.json'))).source).toBe('cache');
    expect((await f.get(url('profiles.test.example', '/l1.json'))).source).toBe('network');
    expect(hits(https, '/l1.json')).toBe(2);
  });

  it('serves a stale document at once while exactly one background refresh runs', async () => {
    let version = 0;
    https.route('/swr.json', (req, res) => {
      version += 1;
      json({ version }, { 'cache-control': 'public, max-age=60, stale-while-revalidate=120' })(req, res);
    });
    const f = fetcher();
    const target = url('profiles.test.example', '/swr.json');
    expect((await f.get(target)).body).toEqual({ version: 1 });
    now += 90_000;
    const stale = await Promise.all(Array.from({ length: 5 }, () => f.get(target)));
    expect(stale.map((d) => [d.source, d.body])).toEqual(Array(5).fill(['stale', { version: 1 }]));
    await f.idle();
    expect(hits(https, '/swr.json')).toBe(2);
    expect(await f.get(target)).toMatchObject({ source: 'cache', body: { version: 2 } });
    // Past the stale window the caller waits for a fresh copy.
    now += 200_000;
    expect(await f.get(target)).toMatchObject({ source: 'network', body: { version: 3 } });
  });

  it('reports background refresh failures to onBackgroundError and keeps serving stale', async () => {
    let fail = false;
    https.route('/bg.json', (req, res) => {
      if (fail) return void res.writeHead(503).end();
      json({ ok: true }, { 'cache-control': 'max-age=60, stale-while-revalidate=600' })(req, res);
    });
    const seen: string[] = [];
    const f = fetcher({ onBackgroundError: (e) => seen.push(e.reason) });
    const target = url('profiles.test.example', '/bg.json');
    await f.get(target);
    fail = true;
    now += 61_000;
    expect((await f.get(target)).source).toBe('stale');
    await f.idle();
    expect(seen).toEqual(['http_status']);
    // Back-off refuses the next refresh (a self-imposed limit, not reported again); stale is still served.
    expect((await f.get(target)).source).toBe('stale');
    await f.idle();
    expect(seen).toEqual(['http_status']);
    expect(hits(https, '/bg.json')).toBe(2);
  });

  it('collapses concurrent fetches of one URL into one request', async () => {
    https.route('/slow.json', (req, res) => void setTimeout(() => json({ slow: true })(req, res), 150));
    const f = fetcher();
    const docs = await Promise.all(Array.from({ length: 10 }, () => f.get(url('profiles.test.example', '/slow.json'))));
    expect(hits(https, '/slow.json')).toBe(1);
    expect(new Set(docs.map((d) => d.body)).size).toBe(1);
  });

  it('serves pre-approved documents from the registry without any I/O', async () => {
    const body = { ucp: { version: '2026-08-25' } };
    const f = fetcher({ registry: { 'https://trusted.test.example/p.json#x': body } });
    expect(await f.get('https://trusted.test.example/p.json')).toEqual({
      url: 'https://trusted.test.example/p.json',
      body,
      source: 'registry',
    });
    expect(resolverCalls).toEqual([]);
    expect(attempts).toEqual([]);
  });
});

describe('SafeFetcher: discovery budget and back-off (R-G2)', () => {
  it('backs off an origin after a failure, doubling, and recovers after a success', async () => {
    let status = 500;
    https.route('/flaky.json', (req, res) => (status === 200 ? json({ ok: true })(req, res) : void res.writeHead(status).end()));
    const f = fetcher({ backoff: { baseMs: 1_000 }, freshness: { defaultStaleWhileRevalidateSeconds: 0 } });
    const target = url('a.test.example', '/flaky.json');
    await expectFailure(f.get(target), 'http_status');
    const refused = await expectFailure(f.get(target), 'backing_off');
    expect(refused).toMatchObject({ ucpCode: 'profile_unreachable', retryAfterMs: 1_000 });
    expect(hits(https, '/flaky.json')).toBe(1);
    // Another origin is unaffected.
    https.route('/other.json', json({ other: true }));
    expect((await f.get(url('b.test.example', '/other.json'))).source).toBe('network');

    now += 1_001;
    await expectFailure(f.get(target), 'http_status');
    expect((await expectFailure(f.get(target), 'backing_off')).retryAfterMs).toBe(2_000);
    now += 2_001;
    status = 200;
    expect((await f.get(target)).body).toEqual({ ok: true });
    status = 500;
    now += 61_000; // the cached success expires; the next failure starts back-off afresh
    await expectFailure(f.get(target), 'http_status');
    expect((await expectFailure(f.get(target), 'backing_off')).retryAfterMs).toBe(1_000);
  });

  it('rate-limits fetches of origins not seen recently, globally', async () => {
    https.route('/x.json', json({ x: 1 }));
    https.route('/y.json', json({ y: 1 }));
    const f = fetcher({ newOriginRate: { kind: 'token-bucket', capacity: 2, refillPerSecond: 0.1 } });
    await f.get(url('a.test.example', '/x.json'));
    await f.get(url('b.test.example', '/x.json'));
    const connections = https.connections;
    const error = await expectFailure(f.get(url('c.test.example', '/x.json')), 'rate_limited');
    expect(error).toMatchObject({ ucpCode: 'profile_unreachable', retryAfterMs: 10_000 });
    // Resolved and checked (so a refused address would have cost nothing), but never connected.
    expect(https.connections).toBe(connections);
    // A recently seen origin does not spend the budget.
    expect((await f.get(url('a.test.example', '/y.json'))).source).toBe('network');
    now += 10_000;
    expect((await f.get(url('c.test.example', '/x.json'))).source).toBe('network');
  });

  it('bounds concurrent fetches and refuses beyond the wait queue', async () => {
    https.route('/hold.json', (req, res) => void setTimeout(() => json({})(req, res), 200));
    const f = fetcher({ maxConcurrent: 1, maxQueued: 0 });
    const results = await Promise.allSettled([f.get(url('a.test.example', '/hold.json')), f.get(url('b.test.example', '/hold.json'))]);
    expect(results[0]?.status).toBe('fulfilled');
    expect(results[1]).toMatchObject({ status: 'rejected', reason: { reason: 'busy', ucpCode: 'profile_unreachable' } });
  });

  it('never counts a refused URL against the origin (no back-off for invalid_profile_url)', async () => {
    dns['evil.test.example'] = ['10.0.0.1'];
    const f = fetcher({ allowLoopback: false });
    await expectFailure(f.get('https://evil.test.example/p.json'), 'refused_address');
    await expectFailure(f.get('https://evil.test.example/p.json'), 'refused_address');
  });
});

describe('SafeFetcher: the discovery budget cannot be spent by refused URLs or by one client (R-G2, R-P3)', () => {
  it('IP literals refused on their address cost nothing from the new-origin budget; host names cost their lookup (issue 37 N2)', async () => {
    https.route('/fine.json', json({ fine: true }));
    const f = fetcher({ newOriginRate: { kind: 'token-bucket', capacity: 2, refillPerSecond: 0.01 } });
    for (let i = 0; i < 10; i++) await expectFailure(f.get(`https://10.0.0.${i + 1}/p.json`), 'refused_address');
    expect(attempts).toEqual([]);
    // The whole budget is still there for two new Platforms.
    dns['evil.test.example'] = ['10.0.0.1'];
    expect((await f.get(url('a.test.example', '/fine.json'))).source).toBe('network');
    expect((await f.get(url('b.test.example', '/fine.json'))).source).toBe('network');
    // A host name is outbound traffic (a DNS lookup) even when its address is then refused.
    const g = fetcher({ newOriginRate: { kind: 'token-bucket', capacity: 2, refillPerSecond: 0.01 } });
    await expectFailure(g.get('https://evil.test.example/q1.json'), 'refused_address');
    await expectFailure(g.get('https://nowhere.test.example/q2.json'), 'unresolvable');
    await expectFailure(g.get(url('c.test.example', '/fine.json')), 'rate_limited');
  });

  it('one client spends only its share of the new-origin budget; other clients still reach new Platforms', async () => {
    https.route('/share.json', json({ share: true }));
    const f = fetcher({ newOriginRate: { kind: 'token-bucket', capacity: 8, refillPerSecond: 0.01 }, newOriginClientShare: 0.25 });
    const greedy = { client: '192.0.2.66' };
    expect((await f.get(url('a.test.example', '/share.json'), greedy)).source).toBe('network');
    expect((await f.get(url('b.test.example', '/share.json'), greedy)).source).toBe('network');
    const refused = await expectFailure(f.get(url('c.test.example', '/share.json'), greedy), 'client_rate_limited');
    expect(refused).toMatchObject({ ucpCode: 'profile_unreachable' });
    expect(refused.retryAfterMs).toBeGreaterThan(0);
    // Another client is served, for a new origin too.
    expect((await f.get(url('c.test.example', '/share.json'), { client: '192.0.2.67' })).source).toBe('network');
    // An origin already fetched costs no budget: the greedy client still gets it.
    expect((await f.get(url('a.test.example', '/share.json?again'), greedy)).source).toBe('network');
  });

  it('one slow origin holds at most its per-origin share of the fetch slots: a new Platform does not wait behind it', async () => {
    let release = (): void => undefined;
    const held = new Promise<void>((r) => (release = r));
    for (let i = 0; i < 8; i++) https.route(`/slow${i}.json`, (req, res) => void held.then(() => json({ slow: i })(req, res)));
    https.route('/quick.json', json({ quick: true }));
    const f = fetcher({ totalTimeoutMs: 20_000 });
    const slow = Array.from({ length: 8 }, (_, i) => f.get(url('evil.test.example', `/slow${i}.json`)));
    await waitFor(() => hits(https, '/slow0.json') + hits(https, '/slow1.json') >= 2);
    // Answered while the slow origin's fetches are all still held: it did not wait behind them.
    expect((await f.get(url('a.test.example', '/quick.json'))).body).toEqual({ quick: true });
    // Only two of the slow origin's fetches were running; the rest waited without a slot.
    expect(Array.from({ length: 8 }, (_, i) => hits(https, `/slow${i}.json`)).reduce((a, b) => a + b)).toBe(2);
    release();
    expect((await Promise.all(slow)).map((d) => d.body)).toEqual(Array.from({ length: 8 }, (_, i) => ({ slow: i })));
  });

  it('tells a caller the same thing for a host that does not resolve and one that resolves to a non-public address', async () => {
    dns['evil.test.example'] = ['10.0.0.1'];
    dns['b.test.example'] = ['192.168.1.20'];
    const resolver = new PlatformProfileResolver({ fetcher: fetcher({ allowLoopback: false }) });
    const wire = async (target: string): Promise<string> => {
      const error = await resolver.resolve(target).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UcpNegotiationError);
      expect((error as UcpNegotiationError).code).toBe('invalid_profile_url');
      return (error as UcpNegotiationError).message.replace(target, '<url>');
    };
    const messages = new Set([
      await wire('https://evil.test.example/p.json'),
      await wire('https://b.test.example/p.json'),
      await wire('https://nowhere.test.example/p.json'),
      await wire('https://10.1.2.3/p.json'),
      await wire('https://printer.invalid/p.json'),
    ]);
    expect(messages.size).toBe(1);
    const [message] = messages;
    expect(message).not.toMatch(/10\.0\.0\.1|192\.168|private address|does not resolve;/);
  });
});

/**
 * Waits until `condition` holds, checking after each turn of the event loop's I/O (where requests
 * reach the test server). No deadline of its own: on a busy machine it waits longer, and the
 * test's timeout is what ends a wait for something that never happens.
 */
async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}
