/**
 * Real peers for the Platform SDK and CLI tests, all on 127.0.0.1:
 *  - our business server (`startServer`) over a generated dataset, with loopback Platform
 *    profiles allowed and rate limits off;
 *  - a small HTTP server publishing Platform profiles (and, for failure cases, hand-written
 *    business profiles, redirects and leaf profiles).
 * Nothing here resolves a real name or connects outside loopback.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inScratchDir } from '../../support/scratch.js';
import { parseConfig } from '../../../src/config.js';
import { createLogger } from '../../../src/logging.js';
import type { Resolver } from '../../../src/protocol/safe-fetch.js';
import type { UcpProfile } from '../../../src/protocol/types.js';
import { startServer, type RunningServer } from '../../../src/server.js';
import { buildPlatformProfile } from '../../../src/client/platform-profile.js';
import { json, startTestServer, type TestServer } from '../../support/http-server.js';

export const CACHEABLE = { 'cache-control': 'public, max-age=300', etag: '"v1"' };

/** Centre of the generated dataset: Kathmandu Durbar Square (an awkward +05:45 zone). */
export const CENTER = { latitude: 27.7042, longitude: 85.3067 };

/**
 * `count` public Locations on a spiral around CENTER (ids loc_000…), open 09:00–18:00 every day in
 * Asia/Kathmandu, plus one private Location that must never come back.
 */
export function datasetLines(count: number): string[] {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const angle = (i * 137.5 * Math.PI) / 180;
    const r = 0.002 * (i + 1);
    const id = `loc_${String(i).padStart(3, '0')}`;
    lines.push(
      JSON.stringify({
        id,
        name: `Store ${String(i).padStart(3, '0')}`,
        aliases: [`alias-${i}`],
        address: { street_address: `${i + 1} Test Marg`, address_locality: 'Kathmandu', address_country: 'NP', postal_code: '44600' },
        geo: { latitude: CENTER.latitude + r * Math.sin(angle), longitude: CENTER.longitude + r * Math.cos(angle) },
        keywords: ['grocery store'],
        amenities: i % 2 === 0 ? { 'dev.ucp.amenity.parking': { description: 'Parking' } } : {},
        timezone: 'Asia/Kathmandu',
        hours: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => ({
          day,
          opens: '09:00',
          closes: '18:00',
        })),
      }),
    );
  }
  lines.push(JSON.stringify({ id: 'loc_hidden', name: 'Hidden hub', geo: CENTER, keywords: ['grocery store'], visibility: 'private' }));
  return lines;
}

export interface Business {
  server: RunningServer;
  /** `http://127.0.0.1:<port>` */
  url: string;
  close(): Promise<void>;
}

export async function startBusiness(
  options: { locations?: number; lookupBatchMax?: number; maxPageSize?: number } = {},
): Promise<Business> {
  return startBusinessWith(datasetLines(options.locations ?? 30), {
    limits: { lookupBatchMax: options.lookupBatchMax ?? 50, maxPageSize: options.maxPageSize ?? 50, browseCap: 100 },
  });
}

/**
 * Our business server over these NDJSON `lines` (written to a scratch file removed on close), on a
 * free loopback port, accepting loopback Platform profiles, with rate limits off unless `config`
 * (a config-file object) says otherwise.
 */
export async function startBusinessWith(lines: readonly string[], config: Record<string, unknown> = {}): Promise<Business> {
  const { server, remove } = await inScratchDir('ucp-business', async (dir) => {
    const file = join(dir, 'locations.ndjson');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const server = await startServer({
      host: '127.0.0.1',
      port: 0,
      data: [file],
      config: parseConfig({ rateLimits: { enabled: false }, ...config }),
      allowLoopbackProfiles: true,
      logger: createLogger({ level: 'silent', destination: 'stderr' }),
    });
    return { server };
  });
  return {
    server,
    url: server.url,
    close: async () => {
      await server.close();
      remove();
    },
  };
}

export interface ProfileHost {
  server: TestServer;
  origin: string;
  /** Publishes `body` at `path` (JSON, cacheable) and returns its URL. */
  publish(path: string, body: unknown): string;
  close(): Promise<void>;
}

export async function startProfileHost(): Promise<ProfileHost> {
  const server = await startTestServer();
  const origin = server.origin('127.0.0.1');
  return {
    server,
    origin,
    publish(path, body) {
      server.route(path, json(body, CACHEABLE));
      return `${origin}${path}`;
    },
    close: () => server.close(),
  };
}

/** The platform profile this package generates (search + lookup, MCP + REST). */
export function platformProfile(): UcpProfile {
  return buildPlatformProfile();
}

/** Maps `*.private.test` names to 10.0.0.7 and refuses every other name: no real DNS ever. */
export const privateResolver: Resolver = (hostname) => {
  if (hostname.endsWith('.private.test')) return Promise.resolve([{ address: '10.0.0.7', family: 4 }]);
  return Promise.reject(Object.assign(new Error(`test resolver: unknown host ${hostname}`), { code: 'ENOTFOUND' }));
};
