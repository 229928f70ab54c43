/**
 * Issue 37's attacks on discovery (N2, N5, N6), against SafeFetcher with real loopback servers.
 * Host names are resolved by injected resolvers (one of them never answers); nothing is ever
 * resolved or connected outside loopback (an `onConnect` seatbelt refuses anything else).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAddress } from './address-guard.js';
import { SafeFetchError, SafeFetcher, type Resolver, type SafeFetcherOptions } from './safe-fetch.js';
import { json, startTestServer, type TestServer } from '../../test/support/http-server.js';

let server: TestServer;
let releaseSlow = (): void => undefined;

beforeAll(async () => {
  server = await startTestServer();
  server.route('/profile.json', json({ ok: true }));
  const held = new Promise<void>((resolve) => (releaseSlow = resolve));
  server.route('/slow.json', (req, res) => void held.then(() => json({ slow: true })(req, res)));
});

afterAll(async () => {
  releaseSlow();
  await server?.close();
});

/** `*.silent.test` never answers (until the caller gives up); every other name is 127.0.0.1. */
function silentZone(): { resolve: Resolver; pending: () => number; asked: () => number } {
  let pending = 0;
  let asked = 0;
  const resolve: Resolver = (hostname, signal) => {
    if (!hostname.endsWith('.silent.test')) return Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
    asked += 1;
    pending += 1;
    return new Promise((_, reject) => {
      signal?.addEventListener('abort', () => {
        pending -= 1;
        reject(Object.assign(new Error(`query for ${hostname} cancelled`), { code: 'ECANCELLED' }));
      });
    });
  };
  return { resolve, pending: () => pending, asked: () => asked };
}

function fetcher(options: SafeFetcherOptions): SafeFetcher {
  return new SafeFetcher({
    allowLoopback: true,
    onConnect: (attempt) => {
      if (checkAddress(attempt.address).range !== 'loopback') throw new Error(`test tried to connect to ${attempt.address}`);
    },
    ...options,
  });
}

const at = (host: string, path = '/profile.json'): string => `${server.origin(host)}${path}`;

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'fetched';
  } catch (error) {
    if (error instanceof SafeFetchError) return error.reason;
    throw error;
  }
}

/** Settles `promise` or says it is still pending once `others` have settled. */
async function settlesBefore<T>(promise: Promise<T>, stalled: Promise<unknown>): Promise<boolean> {
  return Promise.race([promise.then(() => true), stalled.then(() => false)]);
}

describe('N2: DNS lookups of profile hosts are budgeted and bounded like fetches (R-G2, R-P3)', () => {
  it('one address naming hosts in a silent zone spends its share of the budget and at most its share of the slots', async () => {
    const zone = silentZone();
    const f = fetcher({ resolve: zone.resolve, totalTimeoutMs: 60_000 });
    const attacker = { client: '203.0.1.7' };
    const attack = Array.from({ length: 10 }, (_, i) => reasonOf(f.get(at(`h${i}.silent.test`), attacker)));
    // Its share of the new-origin budget is 5 (a quarter of 20): the rest are refused at once,
    // without a lookup, and only 2 lookups (its slot share) are running.
    const early = await Promise.all(attack.slice(5));
    expect(early).toEqual(Array.from({ length: 5 }, () => 'client_rate_limited'));
    expect(zone.asked()).toBe(2);
    // A new Platform from elsewhere is served while those lookups hang.
    expect((await f.get(at('fresh.platform.test'), { client: '198.51.1.9' })).body).toEqual({ ok: true });
    expect(zone.pending()).toBe(2);
  });

  it('the fetch deadline cancels a lookup that never answers (the resolver is told, no query is left behind)', async () => {
    const zone = silentZone();
    const f = fetcher({ resolve: zone.resolve, totalTimeoutMs: 200 });
    expect(await reasonOf(f.get(at('never.silent.test'), { client: '203.0.1.8' }))).toBe('timeout');
    expect(zone.asked()).toBe(1);
    expect(zone.pending()).toBe(0);
  });
});

describe('N5: slow distinct origins cannot fill every fetch slot (R-G2)', () => {
  it('two addresses asking for 5 never-answering origins each leave slots for a new Platform', async () => {
    const f = fetcher({ resolve: silentZone().resolve, totalTimeoutMs: 60_000 });
    const slow = [];
    for (const client of ['203.0.2.1', '203.0.3.1']) {
      for (let i = 0; i < 5; i += 1) slow.push(f.get(at(`slow${i}-${client}.test`, '/slow.json'), { client }).catch(() => undefined));
    }
    // The slow fetches wait on a zone that never answers, until their 60 s timeout: the new
    // Platform's answer must come while every one of them still holds on.
    const stalled = Promise.race(slow);
    const fresh = f.get(at('new.platform.test'), { client: '198.51.2.9' });
    expect(await settlesBefore(fresh, stalled)).toBe(true);
    expect((await fresh).body).toEqual({ ok: true });
  });
});

describe('N5: a Platform new to us does not queue behind attackers (R-G2)', () => {
  it('with every slot held by six addresses, a new address starts at once (slots kept for newcomers), ahead of their queue', async () => {
    const f = fetcher({ resolve: silentZone().resolve, totalTimeoutMs: 400, newOriginRate: null });
    let settled = 0;
    const attack = [];
    for (let a = 0; a < 6; a += 1) {
      const client = `203.0.${40 + a}.1`;
      for (let i = 0; i < 4; i += 1) attack.push(reasonOf(f.get(at(`q${i}.a${a}.silent.test`), { client })).finally(() => (settled += 1)));
    }
    const fresh = await f.get(at('first.platform.test'), { client: '198.51.40.9' });
    expect(fresh.body).toEqual({ ok: true });
    // Served before the 16 fetches queued ahead of it (before: after all of them).
    expect(settled).toBeLessThan(16);
    expect(new Set(await Promise.all(attack))).toEqual(new Set(['timeout']));
  });
});

describe('N6: many addresses each within their share cannot drain the new-origin budget (R-G2)', () => {
  it('16 attacking networks probing continuously leave a token for each of 14 new Platforms', async () => {
    let now = 1_000_000;
    const f = fetcher({ resolve: silentZone().resolve, now: () => now });
    const attackers = Array.from({ length: 16 }, (_, n) => `203.0.${10 + n}.1`);
    let probe = 0;
    const attack = async (): Promise<void> => {
      for (const client of attackers) {
        probe += 1;
        // A 404 is a fetch that spent the budget like any other.
        await reasonOf(f.get(at(`probe${probe}.attack.test`, '/missing.json'), { client }));
      }
    };
    await attack();
    const served: string[] = [];
    for (let second = 1; second <= 28; second += 1) {
      now += 1_000;
      await attack();
      if (second % 2 === 0) served.push(await reasonOf(f.get(at(`platform${second}.test`), { client: `198.51.${second}.9` })));
    }
    expect(served).toEqual(Array.from({ length: 14 }, () => 'fetched'));
  });
});
