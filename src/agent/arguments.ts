/**
 * Checking the arguments a model sends. The tools' JSON Schemas (tools.ts) tell a model what to
 * send; this module decides what is accepted and, when something is not, says in one sentence per
 * problem what to send instead — with the argument's name, what was received and an example.
 *
 * Nothing is silently ignored: an unknown argument, a place name where coordinates belong, a
 * radius without a unit or without `near` are all refused, because a model that is not told keeps
 * believing its filter was applied.
 */
import { DateTime } from 'luxon';
import { parseInstant } from '../domain/hours.js';
import type { Geo } from '../domain/location.js';
import { ToolInputError } from './errors.js';
import { editDistance } from '../protocol/edit-distance.js';

export type DistanceUnit = 'm' | 'km' | 'mi';

export interface Radius {
  meters: number;
  /** The unit distances are shown in: the one the model wrote (metres for a bare number). */
  unit: DistanceUnit;
}

/** What `near` without `radius` means. */
export const DEFAULT_RADIUS: Radius = { meters: 5_000, unit: 'km' };
export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 50;
/** Most ids one get_locations call takes (the SDK splits them into the business's batches). */
export const MAX_IDS = 50;
/** Most amenity or item ids in one filter. */
const MAX_FILTER_IDS = 20;
const MAX_QUERY_CHARS = 500;
/** Longest cursor accepted; the bridge never issues a longer one (find.ts keeps to it). */
export const MAX_CURSOR_CHARS = 32_768;
/** Longest single amenity or item id, and `business` value, in characters. */
const MAX_ID_CHARS = 256;

export const FIND_ARGUMENTS = [
  'business',
  'query',
  'near',
  'radius',
  'open_now',
  'open_at',
  'amenities',
  'items',
  'language',
  'limit',
  'cursor',
] as const;
export const GET_ARGUMENTS = ['business', 'ids', 'language'] as const;

/** The arguments that define a merged list (everything but `cursor` and `limit`), normalised. */
export interface ListDefinition {
  /** The configured name asked for, or undefined for every business. */
  business?: string;
  query?: string;
  near?: Geo;
  radius?: Radius;
  /** True when `near` came without `radius` and the default was applied. */
  radiusDefaulted?: boolean;
  /** `open_now: true`: the instant of the (first) call. */
  openNow?: boolean;
  /** `open_at` as given (RFC 3339 with an offset). */
  openAt?: string;
  /**
   * `open_at` without an offset, `YYYY-MM-DDTHH:MM`: that wall time in each Location's own zone,
   * evaluated by the bridge (never sent to a business, which would refuse it).
   */
  openAtLocal?: string;
  /** Amenity ids (reverse-domain): exact filters sent to every business. */
  amenities?: string[];
  /** Amenity labels ("wheelchair accessible"): resolved per business by the bridge. */
  amenityLabels?: string[];
  items?: string[];
  /** BCP 47 tag forwarded as `context.language`. */
  language?: string;
}

export interface FindArguments {
  list: ListDefinition;
  limit: number;
  cursor?: string;
  /** True when an argument other than cursor/limit was given (checked against the cursor's list). */
  definesList: boolean;
}

export interface GetArguments {
  business?: string;
  ids: string[];
  language?: string;
}

export function parseFindArguments(raw: Record<string, unknown> | undefined): FindArguments {
  const args = raw ?? {};
  const problems: string[] = [];
  rejectUnknown(args, FIND_ARGUMENTS, 'find_locations', problems);
  const list: ListDefinition = {};
  const attempt = (fn: () => void): void => {
    try {
      fn();
    } catch (error) {
      if (error instanceof ToolInputError) problems.push(error.message);
      else throw error;
    }
  };
  attempt(() => {
    const business = optionalString(args, 'business', 'a configured business name from list_businesses, e.g. "acme", or its URL');
    if (business !== undefined) list.business = business;
  });
  attempt(() => {
    const query = optionalString(args, 'query', 'a few words such as "grocery" or "pharmacy open late"');
    if (query !== undefined) {
      if (query.length > MAX_QUERY_CHARS)
        throw new ToolInputError(
          `"query" is ${query.length} characters long; keep it under ${MAX_QUERY_CHARS} (a few words work best).`,
          'query',
        );
      list.query = query;
    }
  });
  attempt(() => {
    if (args['near'] !== undefined) list.near = parseNear(args['near']);
  });
  attempt(() => {
    if (args['radius'] === undefined) return;
    const radius = parseRadius(args['radius']);
    if (args['near'] === undefined) {
      throw new ToolInputError(
        '"radius" needs "near": give the centre as "near": {"latitude": …, "longitude": …} (or "lat,lng") together with the radius, or leave "radius" out.',
        'radius',
      );
    }
    list.radius = radius;
  });
  if (list.near !== undefined && list.radius === undefined && args['radius'] === undefined) {
    list.radius = DEFAULT_RADIUS;
    list.radiusDefaulted = true;
  }
  attempt(() => {
    const openNow = args['open_now'];
    if (openNow === undefined) return;
    if (typeof openNow !== 'boolean') {
      throw new ToolInputError(
        `"open_now" got ${describe(openNow)}; it must be true (only Locations open at this moment) or false (no hours filter).`,
        'open_now',
      );
    }
    if (openNow) list.openNow = true;
  });
  attempt(() => {
    const openAt = args['open_at'];
    if (openAt === undefined) return;
    if (list.openNow === true) {
      throw new ToolInputError(
        '"open_now" and "open_at" both set an instant; give one of them (open_at for a future time, open_now for now).',
        'open_at',
      );
    }
    const parsed = parseOpenAt(openAt);
    if (parsed.local) list.openAtLocal = parsed.value;
    else list.openAt = parsed.value;
  });
  attempt(() => {
    const amenities = optionalIdList(
      args,
      'amenities',
      'amenity ids such as "dev.ucp.amenity.parking" or labels such as "wheelchair accessible"',
    );
    if (amenities === undefined) return;
    const ids = amenities.filter(isAmenityId);
    const labels = amenities.filter((a) => !isAmenityId(a));
    if (ids.length > 0) list.amenities = ids;
    if (labels.length > 0) list.amenityLabels = labels;
  });
  attempt(() => {
    const language = parseLanguage(args['language']);
    if (language !== undefined) list.language = language;
  });
  attempt(() => {
    const items = optionalIdList(args, 'items', 'item ids (SKUs) the business uses, e.g. ["sku-123"]');
    if (items !== undefined) list.items = items;
  });
  let limit = DEFAULT_LIMIT;
  attempt(() => {
    const value = args['limit'];
    if (value === undefined) return;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_LIMIT) {
      throw new ToolInputError(
        `"limit" got ${describe(value)}; it must be a whole number from 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT}).`,
        'limit',
      );
    }
    limit = value;
  });
  let cursor: string | undefined;
  attempt(() => {
    const value = args['cursor'];
    if (value === undefined) return;
    if (typeof value !== 'string' || value === '' || value.length > MAX_CURSOR_CHARS) {
      throw new ToolInputError(
        `"cursor" got ${describe(value)}; pass the "next_cursor" string of a previous find_locations answer unchanged, or leave it out.`,
        'cursor',
      );
    }
    cursor = value;
  });
  if (problems.length > 0) throw new ToolInputError(problems.join(' '));
  const definesList = FIND_ARGUMENTS.some((name) => name !== 'cursor' && name !== 'limit' && args[name] !== undefined);
  return { list, limit, definesList, ...(cursor !== undefined ? { cursor } : {}) };
}

export function parseGetArguments(raw: Record<string, unknown> | undefined): GetArguments {
  const args = raw ?? {};
  const problems: string[] = [];
  rejectUnknown(args, GET_ARGUMENTS, 'get_locations', problems);
  let business: string | undefined;
  let language: string | undefined;
  let ids: string[] = [];
  try {
    business = optionalString(args, 'business', 'a configured business name from list_businesses, e.g. "acme"');
  } catch (error) {
    if (!(error instanceof ToolInputError)) throw error;
    problems.push(error.message);
  }
  try {
    language = parseLanguage(args['language']);
  } catch (error) {
    if (!(error instanceof ToolInputError)) throw error;
    problems.push(error.message);
  }
  const value = args['ids'];
  if (value === undefined) {
    problems.push('"ids" is required: the Location ids (or aliases) to look up, e.g. ["loc_123", "downtown-store"].');
  } else if (!Array.isArray(value) || value.length === 0 || value.some((id) => typeof id !== 'string' || id.trim() === '')) {
    problems.push(`"ids" got ${describe(value)}; it must be a non-empty array of id strings, e.g. ["loc_123", "downtown-store"].`);
  } else if (value.length > MAX_IDS) {
    problems.push(`"ids" has ${value.length} entries; ask for at most ${MAX_IDS} per call.`);
  } else {
    ids = (value as string[]).map((id) => id.trim());
  }
  if (problems.length > 0) throw new ToolInputError(problems.join(' '));
  return { ids, ...(business !== undefined ? { business } : {}), ...(language !== undefined ? { language } : {}) };
}

/** list_businesses: an optional `language`. */
export function parseListArguments(raw: Record<string, unknown> | undefined): string | undefined {
  return parseLanguage(raw?.['language']);
}

/** `"5km"`, `"3 mi"`, `"800m"`, `"1.5 kilometers"`, or a number of metres. */
export function parseRadius(value: unknown): Radius {
  const example = 'e.g. "5km", "3 mi", "800m", or a number of meters such as 5000';
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value <= 0)
      throw new ToolInputError(`"radius" got ${describe(value)}; it must be a positive distance, ${example}.`, 'radius');
    return { meters: value, unit: value >= 1000 ? 'km' : 'm' };
  }
  if (typeof value !== 'string')
    throw new ToolInputError(`"radius" got ${describe(value)}; give a distance with its unit, ${example}.`, 'radius');
  const text = value.trim();
  if (/^\d+(?:\.\d+)?$/.test(text)) {
    throw new ToolInputError(
      `"radius" ${JSON.stringify(value)} has no unit; write "${text}km", "${text} mi" or "${text}m", or send the number ${text} (not a string) to mean meters.`,
      'radius',
    );
  }
  const m = /^(\d+(?:\.\d+)?)\s*(m|meters?|metres?|km|kilometers?|kilometres?|mi|miles?)$/i.exec(text);
  const amount = m?.[1];
  const word = m?.[2]?.toLowerCase();
  if (amount === undefined || word === undefined) {
    throw new ToolInputError(`"radius" ${JSON.stringify(value)} is not a distance this tool reads; ${example}.`, 'radius');
  }
  const unit: DistanceUnit = word.startsWith('k') ? 'km' : word.startsWith('mi') ? 'mi' : 'm';
  const meters = Number(amount) * (unit === 'km' ? 1000 : unit === 'mi' ? 1609.344 : 1);
  if (!(meters > 0) || !Number.isFinite(meters))
    throw new ToolInputError(`"radius" ${JSON.stringify(value)} must be greater than zero, ${example}.`, 'radius');
  return { meters, unit };
}

const NEAR_SHAPE =
  '{"latitude": <-90 to 90>, "longitude": <-180 to 180>} or "lat,lng" in decimal degrees, e.g. {"latitude": 34.05, "longitude": -118.25} or "34.05,-118.25"';

/** `{latitude, longitude}` or `"lat,lng"`; both coordinates are checked, every problem reported at once. */
function parseNear(value: unknown): Geo {
  let lat: unknown;
  let lon: unknown;
  if (typeof value === 'string') {
    const pair = /^\s*([+-]?\d+(?:\.\d+)?)\s*,\s*([+-]?\d+(?:\.\d+)?)\s*$/.exec(value);
    if (pair === null) {
      throw new ToolInputError(
        `"near" got the text ${JSON.stringify(truncate(value))}, but it must be coordinates ${NEAR_SHAPE}; this tool does not look up place names, so use coordinates you know for that place.`,
        'near',
      );
    }
    lat = Number(pair[1]);
    lon = Number(pair[2]);
  } else if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ToolInputError(`"near" got ${describe(value)}; it must be ${NEAR_SHAPE}.`, 'near');
  } else {
    const record = value as Record<string, unknown>;
    const extra = Object.keys(record).filter((k) => k !== 'latitude' && k !== 'longitude');
    if (extra.length > 0) {
      throw new ToolInputError(
        `"near" takes exactly "latitude" and "longitude" (got ${extra.map((k) => JSON.stringify(k)).join(', ')}); write it as ${NEAR_SHAPE}.`,
        'near',
      );
    }
    lat = record['latitude'];
    lon = record['longitude'];
  }
  const problems: string[] = [];
  if (typeof lat !== 'number' || !Number.isFinite(lat) || lat < -90 || lat > 90) {
    problems.push(`"near" latitude got ${describe(lat)}; it must be a number from -90 to 90 (latitude comes first).`);
  }
  if (typeof lon !== 'number' || !Number.isFinite(lon) || lon < -180 || lon > 180) {
    problems.push(`"near" longitude got ${describe(lon)}; it must be a number from -180 to 180.`);
  }
  if (problems.length > 0 || typeof lat !== 'number' || typeof lon !== 'number') {
    throw new ToolInputError(`${problems.join(' ')} Write "near" as ${NEAR_SHAPE}.`, 'near');
  }
  return { latitude: lat, longitude: lon };
}

/** A reverse-domain amenity id ("dev.ucp.amenity.parking"); anything else is a label. */
export function isAmenityId(value: string): boolean {
  return /^[a-z0-9][a-z0-9-]*(?:\.[a-z0-9_-]+){2,}$/i.test(value);
}

const BCP47 = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8}){0,6}$/;

function parseLanguage(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !BCP47.test(value.trim())) {
    throw new ToolInputError(
      `"language" got ${describe(value)}; it must be a BCP 47 language tag such as "en", "de", "ja" or "pt-BR", or left out.`,
      'language',
    );
  }
  return value.trim();
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

const LOCAL_WALL_TIME = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2})(?::00)?$/;

/**
 * `open_at` with an offset (an instant, sent to the businesses) or without one
 * (`2026-12-06T10:00`: that wall time in each Location's own zone, evaluated by the bridge).
 */
function parseOpenAt(value: unknown): { value: string; local: boolean } {
  const example = 'e.g. "2026-11-30T18:30:00-05:00" (an instant) or "2026-12-06T10:00" (that local time in each store\'s own zone)';
  const text = typeof value === 'string' ? value.trim() : '';
  const local = LOCAL_WALL_TIME.exec(text);
  if (local !== null) {
    const wall = `${local[1] ?? ''}T${local[2] ?? ''}`;
    if (!DateTime.fromISO(wall, { zone: 'utc' }).isValid) {
      throw new ToolInputError(`"open_at" ${JSON.stringify(value)} is not a real date and time; ${example}.`, 'open_at');
    }
    return { value: wall, local: true };
  }
  if (typeof value !== 'string' || !RFC3339.test(text)) {
    throw new ToolInputError(
      `"open_at" got ${describe(value)}; it must be a date-time, ${example}; for the present moment use "open_now": true.`,
      'open_at',
    );
  }
  try {
    parseInstant(text);
  } catch {
    throw new ToolInputError(`"open_at" ${JSON.stringify(value)} is not a real instant; ${example}.`, 'open_at');
  }
  return { value: text, local: false };
}

function optionalString(args: Record<string, unknown>, name: string, what: string): string | undefined {
  const value = args[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_ID_CHARS * 8)
    throw new ToolInputError(`"${name}" got ${describe(value)}; it must be ${what}, or left out.`, name);
  return value.trim();
}

function optionalIdList(args: Record<string, unknown>, name: string, what: string): string[] | undefined {
  const value = args[name];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || v.trim() === '')) {
    throw new ToolInputError(`"${name}" got ${describe(value)}; it must be an array of ${what}.`, name);
  }
  if (value.length === 0) return undefined;
  if (value.length > MAX_FILTER_IDS) throw new ToolInputError(`"${name}" has ${value.length} ids; give at most ${MAX_FILTER_IDS}.`, name);
  const ids = value.filter((v): v is string => typeof v === 'string').map((v) => v.trim());
  const long = ids.find((id) => id.length > MAX_ID_CHARS);
  if (long !== undefined)
    throw new ToolInputError(`"${name}" has an entry of ${long.length} characters; each is at most ${MAX_ID_CHARS}.`, name);
  return [...new Set(ids)];
}

function rejectUnknown(args: Record<string, unknown>, known: readonly string[], tool: string, problems: string[]): void {
  const unknown = Object.keys(args).filter((k) => !known.includes(k));
  if (unknown.length === 0) return;
  const envelope = unknown.filter((k) => k === 'meta' || k === 'location');
  const hints = unknown
    .map((k) => [k, closest(k, known)] as const)
    .filter((pair): pair is readonly [string, string] => pair[1] !== undefined)
    .map(([k, s]) => `"${k}" → "${s}"?`);
  const list = unknown.map((k) => JSON.stringify(k)).join(', ');
  const why =
    envelope.length > 0
      ? ' Pass the arguments directly: this bridge adds the UCP envelope (meta, profile, location) itself.'
      : hints.length > 0
        ? ` Did you mean ${hints.join(', ')}`
        : '';
  problems.push(`Unknown argument${unknown.length > 1 ? 's' : ''} ${list}: ${tool} accepts only ${known.join(', ')}.${why}`);
}

/** A known name within edit distance 2 (typos, `lat`/`radius_km` style near-misses). */
function closest(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const d = candidate.startsWith(lower) || lower.startsWith(candidate) ? 1 : editDistance(lower, candidate);
    if (d <= 2 && (best === undefined || d < best.distance)) best = { name: candidate, distance: d };
  }
  return best?.name;
}

/** What was received, briefly: `"5" (a string)`, `42`, `an object`, `null`. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? 'an empty array' : 'an array';
  switch (typeof value) {
    case 'string':
      return `${JSON.stringify(truncate(value))} (a string)`;
    case 'number':
    case 'boolean':
      return String(value);
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

function truncate(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
