/**
 * The outside attacks of issue 37, replayed against the real server over real HTTP on loopback.
 * Several client addresses are simulated by connecting from 127.x addresses (all local on Linux).
 * DNS is never asked about outside names: profile hosts are resolved by an injected resolver.
 */
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { createLogger } from '../../src/logging.js';
import type { Resolver } from '../../src/protocol/safe-fetch.js';
import { startServer } from '../../src/server.js';
import type { RunningServer } from '../../src/server.js';
import { rawRequest } from '../../src/transport/test-support/raw-http.js';
import type { RawResponse } from '../../src/transport/test-support/raw-http.js';

const running: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(running.map((s) => s.close()));
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
    expect(grown).toBeLessThan(50 * 1024 * 1024);
  });
});
