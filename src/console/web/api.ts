/** Calls to the console's JSON API (src/console/server.ts); every call carries the API header. */
import type { Explanation } from '../explain.js';
import type { WeekHours } from '../hours-week.js';
import type { PreviewReport } from '../import-preview.js';
import type { LocalInstant } from '../local-instant.js';
import type { LastImport, Overview } from '../overview.js';
import type { LocationCard, ResultRow } from '../location-card.js';
import type { GroupedIssues, IssueGroup } from '../issue-groups.js';
import type { LastImportRecord } from '../../store/store.js';
import type { SearchRequest, SearchResult } from '../../domain/requests.js';
import type { EngineLimits } from '../../domain/engine-limits.js';

export type {
  Explanation,
  GroupedIssues,
  IssueGroup,
  LastImport,
  LastImportRecord,
  LocalInstant,
  LocationCard,
  Overview,
  PreviewReport,
  ResultRow,
  SearchRequest,
  SearchResult,
  WeekHours,
};

export interface ConsoleConfig {
  tileUrl: string | null;
  limits: EngineLimits;
  amenities: string[];
  /** Amenity id → the description the dataset gives it. */
  amenityText: Record<string, string>;
  timezones: string[];
  /** The zone most Locations are in: the playground's time picker starts there. */
  defaultZone: string;
}

export type Ring = [number, number][];

export interface MapLocation {
  id: string;
  name: string;
  geo: { latitude: number; longitude: number } | null;
  radius: Ring | null;
  areas: ({ type: 'Polygon'; coordinates: Ring[] } | { type: 'MultiPolygon'; coordinates: Ring[][] })[];
}

export interface SearchAnswer {
  request: SearchRequest;
  response: SearchResult;
  circle: Ring | null;
  /** Per result, in order: distance from the request's centre and the open state, in words. */
  rows: ResultRow[];
}

export interface HoursAnswer extends WeekHours {
  id: string;
  name: string;
}

export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly pointer?: string,
  ) {
    super(message);
  }
}

export async function api<T>(path: string, init: { method?: string; body?: BodyInit; json?: unknown } = {}): Promise<T> {
  const headers: Record<string, string> = { 'x-ucp-console': '1' };
  let body = init.body;
  if (init.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.json);
  }
  const res = await fetch(path, {
    method: init.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    ...(body !== undefined ? { body } : {}),
  });
  const value = (await res.json()) as T & { error?: { message: string; code: string; pointer?: string } };
  if (!res.ok || value.error !== undefined) {
    const e = value.error ?? { message: `HTTP ${res.status}`, code: 'http' };
    throw new ApiError(e.message, e.code, e.pointer);
  }
  return value;
}
