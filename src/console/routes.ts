/**
 * The console's JSON API as a table: each `METHOD /path` with the function that answers it. The
 * host (server.ts) checks who is asking, finds the route, and writes what it returns as JSON, or
 * the HTTP kit's answer for what it throws. A route throws `HttpError` for a refusal of its own.
 */
import type { IncomingMessage } from 'node:http';
import { ConfigError, DataValidationError } from '../errors.js';
import { HttpError } from '../http-kit/failures.js';
import { parseJsonBytes, readBody } from '../http-kit/body.js';
import { isRecord } from '../protocol/guards.js';
import { planPredicates } from '../domain/predicates.js';
import { validateSearchRequest } from '../domain/request-validation.js';
import type { LocationService } from '../service.js';
import type { LocationStore } from '../store/store.js';
import { DATA_FORMATS } from '../data/sources.js';
import type { DatasetCache } from './dataset.js';
import { explainLocation } from './explain.js';
import { geodesicCircle } from './geodesic-shapes.js';
import { weekHours } from './hours-week.js';
import { type ImportPreviews, MAX_UPLOAD_BYTES, parseFormatChoice } from './import-preview.js';
import { locationCard, resultRows, zoneCounts } from './location-card.js';
import { localInstant } from './local-instant.js';
import { overview } from './overview.js';

/** Largest JSON body an API call may send. */
export const MAX_JSON_BYTES = 1 << 20;
/** Vertices of a coverage radius on the map overview (the playground's search circle has more). */
const COVERAGE_CIRCLE_STEPS = 64;
/** Above this many Locations the map shows coverage shapes for none (points and clusters only). */
const MAX_COVERAGE_SHAPES = 5_000;

/** What the routes work on: one per console. */
export interface ConsoleContext {
  store: LocationStore;
  service: LocationService;
  datasets: DatasetCache;
  imports: ImportPreviews;
  now: () => number;
  tileUrl: string | undefined;
}

/** One API call: the request (its body unread) and its URL; resolves to the JSON answer. */
export type ApiRoute = (req: IncomingMessage, url: URL) => Promise<unknown>;

/** The routes of the console API, keyed `METHOD /path` (docs/console.md lists them). */
export function consoleRoutes(ctx: ConsoleContext): Readonly<Record<string, ApiRoute>> {
  const { store, service, datasets, imports, now } = ctx;
  return {
    'GET /api/config': async () => {
      const dataset = await datasets.get();
      const zones = zoneCounts(dataset.locations);
      return {
        tileUrl: ctx.tileUrl ?? null,
        limits: service.limits,
        amenities: (await store.amenityIds?.(1000)) ?? [],
        amenityText: Object.fromEntries(dataset.amenityText),
        timezones: [...zones.keys()].sort(),
        // The playground's zone picker starts on the zone most Locations are in (UTC for an empty dataset).
        defaultZone: [...zones].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? 'UTC',
      };
    },
    'GET /api/overview': async () => overview(store, await datasets.get(), imports.lastImport),
    'GET /api/map': async () => {
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
    },
    'GET /api/locations': async () => {
      const { locations } = await datasets.get();
      return { locations: locations.map((l) => ({ id: l.id, name: l.name, timezone: l.timezone })) };
    },
    'POST /api/search': async (req) => {
      const body = await readJsonObject(req);
      const request = validateSearchRequest(body['request']);
      const plan = planPredicates(request, service.limits);
      const response = await service.search(request);
      return {
        request,
        response,
        circle: plan.distance === null ? null : geodesicCircle(plan.distance.center, plan.distance.max),
        rows: resultRows(response.locations, plan, now()),
      };
    },
    'POST /api/explain': async (req) => {
      const body = await readJsonObject(req);
      const id = body['id'];
      if (typeof id !== 'string' || id === '') throw new HttpError(400, 'Give the Location as "id": its id or one of its aliases.');
      return explainLocation(service, body['request'] ?? {}, id);
    },
    'GET /api/hours': async (_req, url) => {
      const id = url.searchParams.get('id') ?? '';
      const location = (await datasets.get()).byId.get(id);
      if (location === undefined) throw noLocation(id);
      return { id: location.id, name: location.name, ...weekHours(location.schedule, now(), location.timezone) };
    },
    'GET /api/location': async (_req, url) => {
      const id = url.searchParams.get('id') ?? '';
      const dataset = await datasets.get();
      const location = dataset.byId.get(id);
      if (location === undefined) throw noLocation(id);
      return locationCard(location, dataset.amenityText, now());
    },
    'GET /api/instant': async (_req, url) =>
      operatorInput(() => localInstant(url.searchParams.get('local') ?? '', url.searchParams.get('zone') ?? '')),
    'POST /api/import/preview': async (req, url) => {
      const name = url.searchParams.get('name') ?? '';
      if (name === '') {
        throw new HttpError(
          400,
          `Give the file name as ?name=…, and the format as &format=${DATA_FORMATS.join('|')} (default: from the name's extension).`,
        );
      }
      const format = await operatorInput(() => parseFormatChoice(url.searchParams.get('format') ?? ''));
      const bytes = await readBytes(req, MAX_UPLOAD_BYTES);
      return operatorInput(() => imports.preview(name, bytes, format));
    },
    'POST /api/import/commit': async (req) => {
      const body = await readJsonObject(req);
      const id = body['previewId'];
      if (typeof id !== 'string') throw new HttpError(400, 'Give "previewId" from the preview answer.');
      return operatorInput(() => imports.commit(id));
    },
  };
}

function noLocation(id: string): HttpError {
  return new HttpError(404, `No public Location has the id ${JSON.stringify(id)}.`);
}

/** The body, or the kit's 413 as an HttpError (the host closes the connection after it). */
async function readBytes(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const read = await readBody(req, maxBytes);
  if (!read.ok) throw new HttpError(read.status, read.message);
  return read.bytes;
}

/** A JSON object body: the console's web app sends one on every POST but the upload. */
async function readJsonObject(req: IncomingMessage): Promise<Record<string, unknown>> {
  const parsed = parseJsonBytes(await readBytes(req, MAX_JSON_BYTES));
  if (!parsed.ok && parsed.reason === 'nesting_too_deep') throw new HttpError(400, parsed.message);
  if (parsed.ok && isRecord(parsed.value)) return parsed.value;
  throw new HttpError(400, 'The body must be a JSON object.');
}

/**
 * Runs work on what the operator typed or uploaded (a date, a format, a data file): its
 * ConfigError or DataValidationError is about that input and written for them, so it becomes a
 * refusal they read (400 `invalid`, 422 `data_rejected` with the issues) rather than an internal
 * error. Elsewhere these local errors stay internal (the HTTP kit's table keeps their text out).
 */
async function operatorInput<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DataValidationError) {
      throw new HttpError(422, error.message, { code: 'data_rejected', details: { issues: error.issues }, cause: error });
    }
    if (error instanceof ConfigError) throw new HttpError(400, error.message, { code: 'invalid', cause: error });
    throw error;
  }
}
