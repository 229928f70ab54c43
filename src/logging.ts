/**
 * Structured logs (pino) for the business server.
 *
 * Privacy (R-P1): buyer coordinates must never reach a log at full precision. Rather than trusting
 * every call site, the logger's `formatters.log` hook walks each log object and truncates any
 * `latitude`/`longitude` (and the common `lat`/`lon`/`lng` spellings) to 2 decimals (≈1.1 km at the
 * equator). Call sites should still log request *summaries* (see `summarizeRequest`), never a body.
 */
import { pino } from 'pino';
import type { Logger, LevelWithSilent } from 'pino';

export type { Logger };
export type LogLevel = LevelWithSilent;

export const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

const COORDINATE_KEYS = new Set(['latitude', 'longitude', 'lat', 'lon', 'lng']);
/** Deep objects in logs are a smell; stop walking there rather than risk a cycle or a slow log call. */
const MAX_DEPTH = 8;

/**
 * Truncates toward zero to 2 decimal places. The value is first rounded at 6 decimals so that
 * binary noise (0.29 * 100 = 28.999…) does not lose a digit that the input really had.
 */
export function truncateCoordinate(value: number): number {
  if (!Number.isFinite(value)) return value;
  const truncated = Math.trunc(Math.round(value * 1e6) / 1e4) / 100;
  return truncated === 0 ? 0 : truncated; // no "-0" in logs
}

/** A copy of `value` in which every coordinate-named number is truncated (see module comment). */
export function redactCoordinates<T>(value: T): T {
  return walk(value, 0) as T;
}

function walk(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[truncated]';
  if (value instanceof Error) return value; // pino's err serializer handles these
  if (Array.isArray(value)) return value.map((v) => walk(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = COORDINATE_KEYS.has(key) && typeof v === 'number' ? truncateCoordinate(v) : walk(v, depth + 1);
  }
  return out;
}

export interface LoggerOptions {
  level?: LogLevel;
  /** `stdout` for the HTTP server; `stderr` for `--stdio`, where stdout carries the protocol. */
  destination?: 'stdout' | 'stderr' | NodeJS.WritableStream;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const dest = options.destination ?? 'stdout';
  const stream =
    dest === 'stdout' ? pino.destination({ fd: 1, sync: false }) : dest === 'stderr' ? pino.destination({ fd: 2, sync: true }) : dest;
  return pino(
    {
      level: options.level ?? 'info',
      base: { service: 'ucp-location' },
      formatters: { log: (obj) => redactCoordinates(obj) },
    },
    stream,
  );
}

/**
 * A log-safe description of a search/lookup request: which operands were used and their coarse
 * values, never free text or the full body. Coordinates are truncated here already.
 */
export function summarizeRequest(request: unknown): Record<string, unknown> {
  if (request === null || typeof request !== 'object' || Array.isArray(request)) return {};
  const r = request as Record<string, unknown>;
  const summary: Record<string, unknown> = {};
  if (typeof r['query'] === 'string') summary['query_chars'] = r['query'].length;
  if (Array.isArray(r['ids'])) summary['ids'] = r['ids'].length;
  const distance = r['distance'];
  if (isRecord(distance)) {
    summary['distance'] = redactCoordinates({ center: distance['center'], max: distance['max'] });
  }
  const serves = r['serves'];
  if (isRecord(serves)) summary['serves'] = Object.keys(serves);
  const filters = r['filters'];
  if (isRecord(filters)) {
    summary['filters'] = Object.keys(filters);
    if (Array.isArray(filters['items'])) summary['items'] = filters['items'].length;
  }
  const pagination = r['pagination'];
  if (isRecord(pagination)) {
    if (typeof pagination['limit'] === 'number') summary['limit'] = pagination['limit'];
    if (pagination['cursor'] !== undefined) summary['cursor'] = true;
  }
  return summary;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
