/**
 * Real businesses on 127.0.0.1 for the agent bridge's end-to-end tests.
 *
 *  - `north` and `south`: our business server over two small datasets around one point in New York
 *    (a zone other than the machine's pinned Asia/Kathmandu). Half of each dataset is open around
 *    the clock and half is never open, so `open_now` has the same answer at any hour; each dataset
 *    has a private Location right at the centre that must never appear.
 *  - `north` is reached through a proxy whose profile offers only the MCP binding (and which
 *    refuses the REST paths), `south` through one offering only REST: until the business server has
 *    a setting to offer one binding only, this is how a business "offering only MCP" is built; it
 *    proves the bridge negotiates and uses each transport.
 *  - `down`: a port nothing listens on.
 * And, for the error classes, businesses that fail in one way each: `tight` (1 km radius cap and an
 * item-search budget of one call per minute), `lookuponly` (no search capability), `old` (a
 * profile for release 2026-01-11 only) and `broken` (answers that fail the UCP schema).
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RunningServer } from '../../../src/server.js';
import { startFakeBusiness, type FakeBusiness } from '../../client/support/fake-business.js';
import { startBusinessWith } from '../../client/support/peers.js';

/** The search centre: Lower Manhattan, with more decimals than any log may show. */
export const CENTER = { latitude: 40.712776, longitude: -74.005974 };
/** Locations per dataset. */
export const PER_BUSINESS = 24;

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

export interface DatasetOptions {
  /** Id prefix and name prefix, e.g. `north`. */
  prefix: string;
  /** Bearing offset of the spiral, degrees, so two datasets interleave in distance. */
  turn: number;
}

/** `PER_BUSINESS` public Locations on a spiral around CENTER plus one private one at the centre. */
export function dataset(options: DatasetOptions): string[] {
  const lines: string[] = [];
  for (let i = 0; i < PER_BUSINESS; i++) {
    const angle = ((i * 137.5 + options.turn) * Math.PI) / 180;
    const r = 0.0015 * (i + 1);
    const id = `${options.prefix}_${String(i).padStart(2, '0')}`;
    const alwaysOpen = i % 2 === 0;
    lines.push(
      JSON.stringify({
        id,
        name: `${capitalise(options.prefix)} Market ${i}`,
        aliases: [`${options.prefix}-store-${i}`],
        address: {
          street_address: `${i + 1} Test Street`,
          address_locality: 'New York',
          address_region: 'NY',
          postal_code: '10005',
          address_country: 'US',
        },
        geo: { latitude: CENTER.latitude + r * Math.sin(angle), longitude: CENTER.longitude + r * Math.cos(angle) },
        keywords: ['grocery store'],
        amenities: i % 3 === 0 ? { 'dev.ucp.amenity.parking': { description: 'Parking' } } : {},
        timezone: 'America/New_York',
        // 00:00–23:59 is the whole day (R-H1); [] is a known schedule with no opening at all.
        hours: alwaysOpen ? DAYS.map((day) => ({ day, opens: '00:00', closes: '23:59' })) : [],
        items: i % 4 === 0 ? ['sku-milk'] : [],
      }),
    );
  }
  lines.push(
    JSON.stringify({
      id: `${options.prefix}_hidden`,
      name: `${capitalise(options.prefix)} Hidden Hub`,
      aliases: [`${options.prefix}-hub`],
      geo: CENTER,
      keywords: ['grocery store'],
      visibility: 'private',
      timezone: 'America/New_York',
      hours: DAYS.map((day) => ({ day, opens: '00:00', closes: '23:59' })),
    }),
  );
  return lines;
}

export interface Closable {
  url: string;
  close(): Promise<void>;
}

/** Our business server over `lines`, accepting loopback Platform profiles. */
export async function startBusiness(
  lines: readonly string[],
  config: Record<string, unknown> = {},
): Promise<Closable & { server: RunningServer }> {
  return startBusinessWith(lines, config);
}

export interface ProxyOptions {
  /** Keep only this binding in the profile, and refuse the other's paths. */
  only?: 'mcp' | 'rest';
  /** Rewrite every `version` of the profile to this release. */
  version?: string;
  /**
   * Never forward a REST call (`/ucp/locations/…`): hold it until the proxy closes. A business
   * that never answers, so a caller that gets an answer at all must have stopped waiting for it.
   */
  holdRest?: boolean;
}

/**
 * A loopback proxy in front of `upstream` that rewrites its `/.well-known/ucp` (endpoints pointing
 * at the proxy, bindings and versions as asked) and forwards everything else unchanged.
 */
export async function startProxy(
  upstream: string,
  options: ProxyOptions,
): Promise<Closable & { requests: string[]; reconfigure(next: ProxyOptions): void }> {
  const target = new URL(upstream);
  const requests: string[] = [];
  let origin = '';
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://placeholder').pathname;
    requests.push(`${req.method ?? 'GET'} ${path}`);
    const refused = (options.only === 'mcp' && path.startsWith('/ucp/locations/')) || (options.only === 'rest' && path === '/ucp/mcp');
    if (refused) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('this business does not offer that binding');
      return;
    }
    if (options.holdRest === true && path.startsWith('/ucp/locations/')) return; // closeAllConnections() ends it
    forwardRequest(req, res, path);
  });
  const forwardRequest = (req: IncomingMessage, res: ServerResponse, path: string): void => {
    const forward = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
      (upstreamRes) => {
        if (path !== '/.well-known/ucp' || upstreamRes.statusCode !== 200) {
          res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
          upstreamRes.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        upstreamRes.on('data', (c: Buffer) => chunks.push(c));
        upstreamRes.on('end', () => {
          const body = rewriteProfile(Buffer.concat(chunks).toString('utf8'), target.origin, origin, options);
          res
            .writeHead(200, {
              'content-type': 'application/json',
              'cache-control': String(upstreamRes.headers['cache-control'] ?? 'public, max-age=300'),
              etag: `"proxy-${body.length}"`,
            })
            .end(body);
        });
      },
    );
    forward.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
    });
    req.pipe(forward);
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    requests,
    reconfigure: (next) => {
      options = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function rewriteProfile(text: string, from: string, to: string, options: ProxyOptions): string {
  const profile = JSON.parse(text.split(from).join(to)) as { ucp: { services: Record<string, { transport: string }[]> } };
  if (options.only !== undefined) {
    for (const [name, bindings] of Object.entries(profile.ucp.services)) {
      profile.ucp.services[name] = bindings.filter((b) => b.transport === options.only);
    }
  }
  const json = JSON.stringify(profile);
  return options.version === undefined ? json : json.split('"version":"2026-08-25"').join(`"version":"${options.version}"`);
}

/** A loopback port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface Fleet {
  /** `name=url` for each business, in order: the agent's --business flags. */
  flags: string[];
  /** Every id of a private Location (none may ever appear in an answer). */
  privateIds: string[];
  close(): Promise<void>;
}

/** north (MCP only), south (REST only), down. */
export async function startMainFleet(): Promise<Fleet & { proxies: { north: { requests: string[] }; south: { requests: string[] } } }> {
  const north = await startBusiness(dataset({ prefix: 'north', turn: 0 }));
  const south = await startBusiness(dataset({ prefix: 'south', turn: 70 }));
  const northProxy = await startProxy(north.url, { only: 'mcp' });
  const southProxy = await startProxy(south.url, { only: 'rest' });
  const down = await closedPort();
  return {
    flags: [`north=${northProxy.url}`, `south=${southProxy.url}`, `down=http://127.0.0.1:${down}`],
    privateIds: ['north_hidden', 'south_hidden', 'north-hub', 'south-hub'],
    proxies: { north: northProxy, south: southProxy },
    close: async () => {
      await Promise.all([northProxy.close(), southProxy.close()]);
      await Promise.all([north.close(), south.close()]);
    },
  };
}

/** tight, lookuponly, old, broken, slow: one failure class each. */
export async function startErrorFleet(): Promise<Fleet & { broken: FakeBusiness; slow: string }> {
  const tight = await startBusiness(dataset({ prefix: 'tight', turn: 0 }), {
    limits: { maxRadiusMeters: 1000 },
    rateLimits: { enabled: true, itemSearch: { limit: 1, windowSeconds: 60 } },
  });
  const lookupOnly = await startBusiness(dataset({ prefix: 'lookonly', turn: 0 }), { capabilities: ['dev.ucp.common.location.lookup'] });
  const modern = await startBusiness(dataset({ prefix: 'old', turn: 0 }));
  const old = await startProxy(modern.url, { version: '2026-01-11' });
  const broken = await startFakeBusiness();
  // A search answer without the required pagination member, and a Location without a name.
  broken.respondWith({ ucp: { version: '2026-08-25' }, locations: [{ id: 'x' }] });
  // Discoverable, but never answers a search over REST: whatever timeout the agent gives it passes.
  const patient = await startBusiness(dataset({ prefix: 'slow', turn: 0 }));
  const slow = await startProxy(patient.url, { holdRest: true });
  return {
    flags: [`tight=${tight.url}`, `lookuponly=${lookupOnly.url}`, `old=${old.url}`, `broken=${broken.url}`],
    slow: slow.url,
    privateIds: ['tight_hidden', 'lookonly_hidden', 'old_hidden', 'slow_hidden'],
    broken,
    close: async () => {
      await Promise.all([old.close(), broken.close(), slow.close()]);
      await Promise.all([tight.close(), lookupOnly.close(), modern.close(), patient.close()]);
    },
  };
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
