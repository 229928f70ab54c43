/**
 * The outside attacks of issue 37, replayed against the real server over real HTTP on loopback.
 * Several client addresses are simulated by connecting from 127.x addresses (all local on Linux).
 * DNS is never asked about outside names: profile hosts are resolved by an injected resolver.
 */
import { createSocket } from 'node:dgram';
import { lookup } from 'node:dns/promises';
import { createServer as createNetServer } from 'node:net';
import { performance } from 'node:perf_hooks';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { ConfigError } from '../../src/errors.js';
import { createLogger } from '../../src/logging.js';
import { networkResolver } from '../../src/protocol/network-resolver.js';
import type { Resolver } from '../../src/protocol/safe-fetch.js';
import { DEMO_PLATFORM_PROFILE_URL, startServer } from '../../src/server.js';
import type { RunningServer } from '../../src/server.js';
import { UcpHttpServer } from '../../src/transport/http.js';
import { rawRequest } from '../../src/transport/test-support/raw-http.js';
import type { RawResponse } from '../../src/transport/test-support/raw-http.js';

const running: RunningServer[] = [];
/** Figures for docs/reliability.md, printed when UCP_ATTACK_FIGURES is set. */
let firstAnswerDuringDnsAttackMs = Number.NaN;
let heapGrowthBytes = Number.NaN;
afterAll(async () => {
  await Promise.all(running.map((s) => s.close()));
  if (process.env['UCP_ATTACK_FIGURES'] !== undefined) {
    process.stdout.write(`${JSON.stringify({ firstAnswerDuringDnsAttackMs, heapGrowthBytes, rss: process.memoryUsage().rss })}\n`);
  }
});

async function serve(config: Record<string, unknown>, resolveHost?: Resolver): Promise<RunningServer> {
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    allowLoopbackProfiles: true,
    ...(resolveHost === undefined ? {} : { resolveHost }),
    config: parseConfig(config),
    logger: createLogger({ level: 'silent' }),
  });
  running.push(server);
  return server;
}

function toolCall(profile: string, id: number): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'lookup_locations', arguments: { meta: { 'ucp-agent': { profile } }, location: { ids: ['loc_1'] } } },
  });
}

function mcp(server: RunningServer, body: string, from: string): Promise<RawResponse> {
  return rawRequest(`${server.url}/ucp/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    localAddress: from,
  });
}

/** Heap in use after a full collection: what the server keeps, not what it has yet to collect. */
function heapAfterGc(): number {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

describe('N1: long profile URLs cannot grow the server (R-P2, R-G2)', () => {
  it('refuses 1,000 distinct 40 KB profile URLs from 5 addresses as invalid_profile_url, and keeps < 50 MB of them', async () => {
    const server = await serve({ rateLimits: { perIp: { limit: 100_000, windowSeconds: 60 } } });
    const addresses = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5', '127.0.0.6'];
    const padding = 'a'.repeat(40 * 1024);
    const before = heapAfterGc();
    for (let round = 0; round < 200; round += 1) {
      const answers = await Promise.all(
        addresses.map((from, i) => mcp(server, toolCall(`https://p${round}-${i}.example/${padding}`, round * 5 + i), from)),
      );
      for (const answer of answers) {
        expect(answer.json).toMatchObject({ error: { code: -32001, data: { code: 'invalid_profile_url' } } });
      }
    }
    const last = await mcp(server, toolCall(`https://last.example/${padding}`, 1), '127.0.0.2');
    expect(JSON.stringify(last.json)).toContain('the limit is 2048 bytes');
    const grown = heapAfterGc() - before;
    heapGrowthBytes = grown;
    expect(grown).toBeLessThan(50 * 1024 * 1024);
  });
});

/** How one attacking call ended: 'unreachable', 'rate limited', or the answer itself. */
function dnsAttackOutcome(json: unknown): string {
  const error = typeof json === 'object' && json !== null && 'error' in json ? json.error : undefined;
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  const data = typeof error === 'object' && error !== null && 'data' in error ? error.data : undefined;
  const dataCode = typeof data === 'object' && data !== null && 'code' in data ? data.code : undefined;
  const retryAfter = typeof data === 'object' && data !== null && 'retry_after' in data ? data.retry_after : undefined;
  if (code === -32001 && dataCode === 'profile_unreachable') return 'unreachable';
  if (code === -32000 && typeof retryAfter === 'number') return 'rate limited';
  return JSON.stringify(json);
}

describe('N2: a DNS zone that never answers delays neither the store nor /readyz (R-G2)', () => {
  it('while 20 calls from 5 addresses wait on a silent name server, /readyz, the store’s lookups and known Platforms answer', async () => {
    const silent = createSocket('udp4');
    silent.on('message', () => undefined); // the zone's name server never answers
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    try {
      const server = await serve(
        { profileFetch: { timeoutMs: 1_000 } },
        networkResolver({ servers: [`127.0.0.1:${silent.address().port}`], timeoutMs: 60_000 }),
      );
      const addresses = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5', '127.0.0.6'];
      let settled = 0;
      const attack = addresses.flatMap((from, a) =>
        Array.from({ length: 4 }, (_, i) =>
          mcp(server, toolCall(`https://p${a}-${i}.silent.test/profile.json`, i), from).finally(() => (settled += 1)),
        ),
      );
      const started = performance.now();
      const ready = await rawRequest(`${server.url}/readyz`, { localAddress: '127.0.0.7' });
      const known = await mcp(server, toolCall(DEMO_PLATFORM_PROFILE_URL, 99), '127.0.0.7');
      await Promise.all(Array.from({ length: 8 }, () => lookup('localhost')));
      firstAnswerDuringDnsAttackMs = performance.now() - started;
      expect(ready.status).toBe(200);
      expect(known.json).toMatchObject({ result: {} });
      // All of that happened while the attacking calls that passed the budget were still waiting on
      // DNS (the others were refused at once: past half the new-origin budget, each address gets one).
      expect(attack.length - settled).toBeGreaterThanOrEqual(addresses.length);
      const answers = await Promise.all(attack);
      // Those that waited end at the fetch deadline as unreachable; those the budget refused are told
      // to retry later, as every budget refusal is (R-G7). Nothing else.
      const outcomes = answers.map((a) => dnsAttackOutcome(a.json));
      expect(outcomes.filter((o) => o !== 'unreachable' && o !== 'rate limited')).toEqual([]);
      expect(outcomes.filter((o) => o === 'unreachable').length).toBeGreaterThanOrEqual(addresses.length);
    } finally {
      silent.close();
    }
  });
});

describe('N15: a start-up that fails after binding releases the port', () => {
  it('an app that cannot be built once the port is bound is refused, and the port is free again', async () => {
    const port = await freePort();
    const server = new UcpHttpServer();
    await expect(
      server.listen({ host: '127.0.0.1', port }, () => {
        throw new ConfigError('the app cannot be built for this address');
      }),
    ).rejects.toThrow(/cannot be built/);
    // Bound again at once: the failed start did not keep it.
    const again = createNetServer();
    await new Promise<void>((resolve, reject) => {
      again.once('error', reject);
      again.listen(port, '127.0.0.1', resolve);
    });
    await new Promise<void>((resolve) => again.close(() => resolve()));
  });

  it('serve on ::ffff:127.0.0.1 is loopback before and after binding alike (issue 29: it once failed only after binding)', async () => {
    const running = await startServer({
      host: '::ffff:127.0.0.1',
      port: 0,
      config: parseConfig({}),
      logger: createLogger({ level: 'silent' }),
    });
    try {
      expect(running.baseUrl).toMatch(/^http:\/\/\[::ffff:(127\.0\.0\.1|7f00:1)\]:\d+$/);
    } finally {
      await running.close();
    }
  });
});

async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '::ffff:127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
