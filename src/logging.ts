/**
 * Structured logs (pino) for the business server.
 *
 * Privacy (R-P1): buyer coordinates must never reach a log at full precision. Rather than trusting
 * every call site, the logger's `formatters.log` hook walks each log object and truncates to 2
 * decimals (≈1.1 km at the equator) *every* number with a fraction, and every decimal number
 * written in a string or a member name, whatever the key it sits under: a coordinate can arrive
 * as `Latitude`, `x`/`y`, `coords[0]` or `"40.7128,-74.0060"`, and no list of names catches them
 * all. Nothing else a log needs is hurt by it (durations to 1/100 ms, integers, IP addresses and
 * versions untouched). Values under coordinate names that are not numbers at all are dropped.
 * Call sites should still log request *summaries* (see `summarizeRequest`), never a body.
 * The hook runs before a line is serialised, so both output formats below get redacted values.
 *
 * Format: JSON lines for machines (files, pipes, log collectors), or one readable line per entry
 * (pino-pretty) for a person at a terminal. `--log-format` / `UCP_LOG_FORMAT` force either.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createRequire } from 'node:module';
import { pino } from 'pino';
import type { Logger, LevelWithSilent } from 'pino';
import type PinoPretty from 'pino-pretty';
import { ConfigError } from './errors.js';

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

/** A copy of `value` in which every fractional number is truncated (see module comment). */
export function redactCoordinates<T>(value: T): T {
  return walk(value, 0) as T;
}

function walk(value: unknown, depth: number): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? value : truncateCoordinate(value);
  if (typeof value === 'string') return truncateDecimalsIn(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[truncated]';
  if (value instanceof Error) return value; // pino's err serializer handles these
  if (Array.isArray(value)) return value.map((v) => walk(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[truncateDecimalsIn(key)] = COORDINATE_KEYS.has(key.toLowerCase()) ? redactCoordinate(v) : walk(v, depth + 1);
  }
  return out;
}

/**
 * A decimal number with 3 or more fractional digits, standing alone: not part of a dotted
 * address or version (`10.0.100.5`, `1.2.345`) nor the seconds of a time (`12:30:45.123`).
 */
const LONG_DECIMAL = /(?<![\d.])(?<!\d:)([-+]?\d+\.\d{2})\d+(?![\d.])/g;

/** `text` with every long decimal number cut to 2 fractional digits. */
export function truncateDecimalsIn(text: string): string {
  return text.replace(LONG_DECIMAL, '$1');
}

const NUMERIC = /^\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?\s*$/i;

/**
 * A coordinate-named member, whatever its type: a malformed request (`"latitude": "40.7123456"`,
 * `[40.7123456]`, `{"deg": …}`) carries the buyer's position as surely as a well-formed one. Numbers
 * and numeric strings are truncated; anything else is dropped, since it could hold digits in any form.
 */
function redactCoordinate(value: unknown): unknown {
  if (typeof value === 'number') return truncateCoordinate(value);
  if (typeof value === 'string' && NUMERIC.test(value)) return String(truncateCoordinate(Number(value)));
  if (value === null || value === undefined || typeof value === 'boolean') return value;
  return '[redacted]';
}

export type LogFormat = 'json' | 'pretty';
export const LOG_FORMATS: readonly LogFormat[] = ['json', 'pretty'];
/** Environment variable that forces a format when no `--log-format` flag does. */
export const LOG_FORMAT_ENV = 'UCP_LOG_FORMAT';

/**
 * A `--log-format` or `UCP_LOG_FORMAT` value, checked; undefined when absent or empty.
 * `source` names where the value came from, for the error message.
 */
export function parseLogFormat(value: string | undefined, source: string): LogFormat | undefined {
  if (value === undefined || value === '') return undefined;
  if ((LOG_FORMATS as readonly string[]).includes(value)) return value as LogFormat;
  throw new ConfigError(`${source} must be one of ${LOG_FORMATS.join(', ')}, got ${JSON.stringify(value)}`);
}

/**
 * The format to write: an explicit choice wins (the flag, then `UCP_LOG_FORMAT`); otherwise
 * readable lines when a person is watching (the destination is a terminal) and JSON for
 * everything else, so redirecting to a file or a collector never yields colour codes.
 */
export function chooseLogFormat(options: { format?: LogFormat | undefined; env?: string | undefined; isTTY: boolean }): LogFormat {
  return options.format ?? parseLogFormat(options.env, LOG_FORMAT_ENV) ?? (options.isTTY ? 'pretty' : 'json');
}

type Destination = 'stdout' | 'stderr' | NodeJS.WritableStream;

/** Whether `destination` is a terminal. */
export function isTerminal(destination: Destination): boolean {
  const stream = destination === 'stdout' ? process.stdout : destination === 'stderr' ? process.stderr : destination;
  return (stream as { isTTY?: boolean }).isTTY === true;
}

export interface LoggerOptions {
  level?: LogLevel;
  /** `stdout` for the HTTP server; `stderr` for `--stdio`, where stdout carries the protocol. */
  destination?: Destination;
  /** Forces a format; by default `UCP_LOG_FORMAT`, else pretty on a terminal and JSON otherwise. */
  format?: LogFormat | undefined;
}

/**
 * The request a piece of work belongs to. Call sites pass `requestId` where they have it, but a log
 * line written deep inside a request (the store noticing PostgreSQL is back, a readiness change, a
 * profile fetch) does not know its request; the logger's mixin reads it from here instead, so every
 * line a request causes carries its id.
 */
const requestScope = new AsyncLocalStorage<string>();

/** Runs `work` with `requestId` attached to every log line it writes, also after awaits. */
export function withRequestId<T>(requestId: string, work: () => T): T {
  return requestScope.run(requestId, work);
}

function requestIdMixin(_merge: object, _level: number, logger: Logger): Record<string, unknown> {
  const requestId = requestScope.getStore();
  // A fresh object each time: pino merges the line's fields into what the mixin returns.
  if (requestId === undefined) return {};
  // A child logger bound to the id already writes it (REST's is): a second copy would be a
  // duplicate key in the JSON line. Its bindings are kept serialised, so a substring test is cheap.
  const bound = (logger as unknown as Record<symbol, unknown>)[pino.symbols.chindingsSym];
  return typeof bound === 'string' && bound.includes('"requestId":') ? {} : { requestId };
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const dest = options.destination ?? 'stdout';
  const terminal = isTerminal(dest);
  const format = chooseLogFormat({ format: options.format, env: process.env[LOG_FORMAT_ENV], isTTY: terminal });
  const stream =
    format === 'pretty'
      ? prettyStream(dest, terminal)
      : dest === 'stdout'
        ? pino.destination({ fd: 1, sync: false })
        : dest === 'stderr'
          ? pino.destination({ fd: 2, sync: true })
          : dest;
  return pino(
    {
      level: options.level ?? 'info',
      base: { service: 'ucp-location' },
      // Fields a call site passes win over the mixin's (pino's default merge).
      mixin: requestIdMixin,
      formatters: { log: (obj) => redactCoordinates(obj) },
    },
    stream,
  );
}

/**
 * One line per entry: local time, level, message, then the entry's fields as compact JSON.
 * Colours only on a real terminal (and never with NO_COLOR), so a forced `--log-format pretty`
 * into a file stays plain text. Synchronous: a person reads these, and the last line before an
 * exit must not be lost. pino-pretty is loaded only here, so JSON logging never pays for it.
 */
function prettyStream(dest: Destination, terminal: boolean): PinoPretty.PrettyStream {
  const build = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
  const noColor = process.env['NO_COLOR'] !== undefined && process.env['NO_COLOR'] !== '';
  return build({
    destination: dest === 'stdout' ? 1 : dest === 'stderr' ? 2 : dest,
    sync: true,
    colorize: terminal && !noColor,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service',
  });
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
    // A center of the wrong shape (`[40.7123456, -73.9]`, a string) has no coordinate-named member
    // to truncate, so only a well-formed one is kept (truncated); any other is described by its type.
    const center = distance['center'];
    summary['distance'] = redactCoordinates({ center: isRecord(center) ? center : describeType(center), max: distance['max'] });
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

function describeType(v: unknown): string | undefined {
  if (v === undefined) return undefined;
  return `[${v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v}]`;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
