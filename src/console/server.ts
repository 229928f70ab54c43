/**
 * The operator console's HTTP server: the bundled single-page app (built into dist/console/web by
 * `npm run build`, so nothing is fetched from the network) and a JSON API under /api/ built on the
 * same service the MCP tool and REST route call, in-process.
 *
 * Requests that change or reveal state are guarded three ways: the token (off loopback), the Host
 * header (on loopback, against DNS rebinding), and a custom header on every API call, which a
 * cross-site form or image cannot send.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { ConfigError, DataValidationError, UcpRequestError, causeMessage } from '../errors.js';
import { isRecord, listeningPort } from '../protocol/guards.js';
import { MAX_JSON_DEPTH, exceedsJsonDepth } from '../protocol/json-depth.js';
import { planPredicates } from '../domain/predicates.js';
import { validateSearchRequest } from '../domain/request-validation.js';
import { LocationService } from '../service.js';
import type { LocationStore } from '../store/store.js';
import { checkAccessSettings, hostHeaderAllowed, isLoopbackHost, presentedToken, TOKEN_COOKIE, tokenMatches } from './access.js';
import { DatasetCache } from './dataset.js';
import { explainLocation } from './explain.js';
import { geodesicCircle } from './geodesic-shapes.js';
import { weekHours } from './hours-week.js';
import { ImportPreviews, MAX_UPLOAD_BYTES, parseFormatChoice } from './import-preview.js';
import { locationCard, resultRows, zoneCounts } from './location-card.js';
import { DATA_FORMATS } from '../data/sources.js';
import { localInstant } from './local-instant.js';
import { overview } from './overview.js';

export const DEFAULT_CONSOLE_HOST = '127.0.0.1';
export const DEFAULT_CONSOLE_PORT = 8788;
/** Header every API call must carry (see the module comment). */
export const API_HEADER = 'x-ucp-console';
const MAX_JSON_BYTES = 1 << 20;
/** Vertices of a coverage radius on the map overview (the playground's search circle has more). */
const COVERAGE_CIRCLE_STEPS = 64;
/** Above this many Locations the map shows coverage shapes for none (points and clusters only). */
const MAX_COVERAGE_SHAPES = 5_000;

export interface ConsoleOptions {
  store: LocationStore;
  host?: string;
  /** 0 = any free port. */
  port?: number;
  /** Required when `host` is not loopback. */
  token?: string;
  /** Optional XYZ tile URL template (`https://…/{z}/{x}/{y}.png`) for an online basemap; off by default. */
  tileUrl?: string;
  /** Where the built app lives; default: next to this module, else dist/console/web of the checkout. */
  assetsDir?: string;
  /** The clock (epoch ms), for the hours page's "now". */
  now?: () => number;
}

export interface RunningConsole {
  url: string;
  port: number;
  close(): Promise<void>;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const ASSETS: Readonly<Record<string, string>> = {
  '/': 'index.html',
  '/index.html': 'index.html',
  '/app.js': 'app.js',
  '/app.css': 'app.css',
};
const TYPES: Readonly<Record<string, string>> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

function findAssets(explicit: string | undefined): string {
  const candidates =
    explicit !== undefined
      ? [explicit]
      : [fileURLToPath(new URL('./web/', import.meta.url)), fileURLToPath(new URL('../../dist/console/web/', import.meta.url))];
  for (const dir of candidates) if (existsSync(`${dir}/app.js`)) return dir;
  throw new ConfigError(`The console's web app is not built (looked in ${candidates.join(', ')}); run \`npm run build\` first.`);
}

/** How long an over-long body is still read (and discarded) so the client can read its 413. */
const DISCARD_MS = 5_000;

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const collect = (c: Buffer): void => {
      size += c.length;
      if (size > limit) {
        // Destroying the socket now would reset the connection under the client, which then never
        // reads the 413. Instead the rest is read and dropped while the answer goes out (with
        // `connection: close`), for a few seconds at most.
        chunks.length = 0;
        req.off('data', collect);
        req.on('data', () => undefined);
        setTimeout(() => req.destroy(), DISCARD_MS).unref();
        reject(new HttpError(413, `The request body is larger than ${limit} bytes.`));
        return;
      }
      chunks.push(c);
    };
    req.on('data', collect);
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const bytes = await readBody(req, MAX_JSON_BYTES);
  // Checked on the bytes: a deeply nested body would overflow the recursive code that reads it.
  if (exceedsJsonDepth(bytes)) {
    throw new HttpError(400, `The body nests arrays/objects more than ${MAX_JSON_DEPTH} levels deep; no console request needs that many.`);
  }
  const text = bytes.toString('utf8');
  try {
    const value: unknown = JSON.parse(text);
    if (isRecord(value)) return value;
  } catch {
    // answered below
  }
  throw new HttpError(400, 'The body must be a JSON object.');
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(text);
}

function contentSecurityPolicy(tileUrl: string | undefined): string {
  let tiles = '';
  if (tileUrl !== undefined) {
    try {
      tiles = ` ${new URL(tileUrl.replace(/[{}]/g, '')).origin}`;
    } catch {
      tiles = '';
    }
  }
  return `default-src 'self'; img-src 'self' data:${tiles}; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'`;
}

export async function startConsole(options: ConsoleOptions): Promise<RunningConsole> {
  const host = options.host ?? DEFAULT_CONSOLE_HOST;
  const token = options.token;
  checkAccessSettings(host, token);
  if (options.tileUrl !== undefined && !/^https?:\/\/.+\{z\}.*\{x\}.*\{y\}/.test(options.tileUrl)) {
    throw new ConfigError(
      `--tile-url must be an http(s) URL template with {z}, {x} and {y}, e.g. https://tile.example.org/{z}/{x}/{y}.png; got ${options.tileUrl}`,
    );
  }
  // Looked up at the first page request, so the API works (and is tested) without a built app.
  let assetsDir: string | undefined;
  const assets = (): string => (assetsDir ??= findAssets(options.assetsDir));
  const store = options.store;
  // Cursors issued here are only ever read back here: a per-process secret is enough.
  const service = new LocationService(store, { cursorSecret: randomBytes(32).toString('hex') });
  const datasets = new DatasetCache(service);
  const now = options.now ?? Date.now;
  const imports = new ImportPreviews(store, now);
  const loopback = isLoopbackHost(host);
  const csp = contentSecurityPolicy(options.tileUrl);

  async function api(req: IncomingMessage, url: URL): Promise<unknown> {
    const route = `${req.method ?? 'GET'} ${url.pathname}`;
    switch (route) {
      case 'GET /api/config': {
        const dataset = await datasets.get();
        const zones = zoneCounts(dataset.locations);
        return {
          tileUrl: options.tileUrl ?? null,
          limits: service.limits,
          amenities: (await store.amenityIds?.(1000)) ?? [],
          amenityText: Object.fromEntries(dataset.amenityText),
          timezones: [...zones.keys()].sort(),
          // The playground's zone picker starts on the zone most Locations are in (UTC for an empty dataset).
          defaultZone: [...zones].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? 'UTC',
        };
      }
      case 'GET /api/overview':
        return overview(store, await datasets.get(), imports.lastImport);
      case 'GET /api/map': {
        const { locations } = await datasets.get();
        const shapes = locations.length <= MAX_COVERAGE_SHAPES;
        return {
          locations: locations.map((l) => ({
            id: l.id,
            name: l.name,
            geo: l.geo,
            radius:
              shapes && l.geo !== null && l.coverage?.radius_m !== undefined
                ? geodesicCircle(l.geo, l.coverage.radius_m, COVERAGE_CIRCLE_STEPS)
                : null,
            areas: shapes ? (l.coverage?.areas ?? []) : [],
          })),
        };
      }
      case 'GET /api/locations': {
        const { locations } = await datasets.get();
        return { locations: locations.map((l) => ({ id: l.id, name: l.name, timezone: l.timezone })) };
      }
      case 'POST /api/search': {
        const body = await readJson(req);
        const request = validateSearchRequest(body['request']);
        const plan = planPredicates(request, service.limits);
        const response = await service.search(request);
        return {
          request,
          response,
          circle: plan.distance === null ? null : geodesicCircle(plan.distance.center, plan.distance.max),
          rows: resultRows(response.locations, plan, now()),
        };
      }
      case 'POST /api/explain': {
        const body = await readJson(req);
        const id = body['id'];
        if (typeof id !== 'string' || id === '') throw new HttpError(400, 'Give the Location as "id": its id or one of its aliases.');
        return explainLocation(service, body['request'] ?? {}, id);
      }
      case 'GET /api/hours': {
        const id = url.searchParams.get('id') ?? '';
        const location = (await datasets.get()).byId.get(id);
        if (location === undefined) throw new HttpError(404, `No public Location has the id ${JSON.stringify(id)}.`);
        return { id: location.id, name: location.name, ...weekHours(location.schedule, now(), location.timezone) };
      }
      case 'GET /api/location': {
        const id = url.searchParams.get('id') ?? '';
        const dataset = await datasets.get();
        const location = dataset.byId.get(id);
        if (location === undefined) throw new HttpError(404, `No public Location has the id ${JSON.stringify(id)}.`);
        return locationCard(location, dataset.amenityText, now());
      }
      case 'GET /api/instant':
        return localInstant(url.searchParams.get('local') ?? '', url.searchParams.get('zone') ?? '');
      case 'POST /api/import/preview': {
        const name = url.searchParams.get('name') ?? '';
        if (name === '')
          throw new HttpError(
            400,
            `Give the file name as ?name=…, and the format as &format=${DATA_FORMATS.join('|')} (default: from the name's extension).`,
          );
        const format = parseFormatChoice(url.searchParams.get('format') ?? '');
        return imports.preview(name, await readBody(req, MAX_UPLOAD_BYTES), format);
      }
      case 'POST /api/import/commit': {
        const body = await readJson(req);
        const id = body['previewId'];
        if (typeof id !== 'string') throw new HttpError(400, 'Give "previewId" from the preview answer.');
        return imports.commit(id);
      }
      default:
        throw new HttpError(404, `No console API ${route}; see docs/console.md.`);
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://console.invalid');
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('referrer-policy', 'no-referrer');
    if (loopback && token === undefined && !hostHeaderAllowed(req)) {
      throw new HttpError(403, 'This console answers only to a loopback Host (127.0.0.1, localhost, [::1]).');
    }
    if (token !== undefined && !tokenMatches(token, presentedToken(req, url))) {
      throw new HttpError(
        401,
        `The console needs its token: open ${url.pathname}?token=<token> once (it is then kept in a cookie), or send Authorization: Bearer <token>.`,
      );
    }
    if (url.pathname.startsWith('/api/')) {
      if (req.headers[API_HEADER] !== '1') throw new HttpError(403, `Console API calls must carry the header ${API_HEADER}: 1.`);
      send(res, 200, await api(req, url));
      return;
    }
    const asset = ASSETS[url.pathname];
    if (asset === undefined || (req.method !== 'GET' && req.method !== 'HEAD')) throw new HttpError(404, 'Not found.');
    if (token !== undefined && url.searchParams.has('token')) {
      // Keep the token in a cookie and drop it from the address bar (and from history).
      res.writeHead(303, {
        location: url.pathname,
        'set-cookie': `${TOKEN_COOKIE}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Strict`,
      });
      res.end();
      return;
    }
    const type = TYPES[asset.slice(asset.lastIndexOf('.') + 1)] ?? 'application/octet-stream';
    res.writeHead(200, { 'content-type': type, 'cache-control': 'no-cache', 'content-security-policy': csp });
    res.end(req.method === 'HEAD' ? undefined : readFileSync(`${assets()}/${asset}`));
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (error instanceof HttpError) {
        if (error.status === 413) res.setHeader('connection', 'close');
        send(res, error.status, { error: { code: `http_${error.status}`, message: error.message } });
      } else if (error instanceof UcpRequestError)
        send(res, 400, { error: { code: error.code, message: error.message, pointer: error.pointer } });
      else if (error instanceof DataValidationError)
        send(res, 422, { error: { code: 'data_rejected', message: error.message, issues: error.issues } });
      else if (error instanceof ConfigError) send(res, 400, { error: { code: 'invalid', message: error.message } });
      else send(res, 500, { error: { code: 'internal_error', message: causeMessage(error) } });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULT_CONSOLE_PORT, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = listeningPort(server.address());
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}/`,
    port,
    close: async () => {
      imports.discard();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
