/**
 * Two error families (ARCHITECTURE habit 4):
 *  - wire errors (`UcpWireError` subclasses) carry what a transport needs to answer the caller;
 *    each transport maps them with one table (MCP → JSON-RPC codes, REST → HTTP status);
 *  - local errors (config, store, import, fetch internals) never reach the wire unmapped.
 * `cause` is always kept.
 */

export abstract class UcpWireError extends Error {
  abstract readonly kind: 'request' | 'negotiation' | 'rate_limited' | 'unavailable' | 'forbidden';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * The request itself is wrong or asks for something the Business cannot honour
 * (schema failure, radius over the cap, un-evaluable serves target, bad cursor).
 * MCP: JSON-RPC -32602 with `data.pointer`; REST: 400.
 */
export class UcpRequestError extends UcpWireError {
  readonly kind = 'request' as const;
  constructor(
    /** Machine-readable reason, e.g. `invalid_request`, `radius_too_large`, `invalid_cursor`. */
    readonly code: string,
    message: string,
    /** JSON pointer into the domain request (`/distance/max`), '' for the whole request. */
    readonly pointer: string = '',
    options?: { cause?: unknown; details?: readonly { pointer: string; message: string }[] },
  ) {
    super(message, options);
    this.details = options?.details ?? [{ pointer, message }];
  }
  readonly details: readonly { pointer: string; message: string }[];
}

export type NegotiationErrorCode = 'invalid_profile_url' | 'profile_unreachable' | 'profile_malformed' | 'version_unsupported';

/** Discovery / version failure (R-G5). MCP: -32001 with data.code; REST: 400/424/422/422. */
export class UcpNegotiationError extends UcpWireError {
  readonly kind = 'negotiation' as const;
  constructor(
    readonly code: NegotiationErrorCode,
    message: string,
    options?: { cause?: unknown; continueUrl?: string },
  ) {
    super(message, options);
    this.continueUrl = options?.continueUrl;
  }
  readonly continueUrl: string | undefined;
}

/** 429 (R-G7, R-P2). MCP: -32000 with data.retry_after. */
export class RateLimitedError extends UcpWireError {
  readonly kind = 'rate_limited' as const;
  constructor(
    readonly retryAfterSeconds: number,
    message = 'Rate limit exceeded',
  ) {
    super(message);
  }
}

/** 503: a dependency (e.g. the database) is down; retry later. MCP: -32000 with data.retry_after. */
export class ServiceUnavailableError extends UcpWireError {
  readonly kind = 'unavailable' as const;
  constructor(
    readonly retryAfterSeconds: number,
    message = 'Service temporarily unavailable',
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** 403 (e.g. Host/Origin validation). MCP: -32000. */
export class ForbiddenError extends UcpWireError {
  readonly kind = 'forbidden' as const;
}

/** `isOpenAt` / `nextChange` got an instant that is not RFC 3339 with `Z` or a numeric offset. */
export class InvalidInstantError extends TypeError {
  readonly code = 'invalid_instant' as const;
  constructor(
    readonly input: string,
    message?: string,
  ) {
    super(
      message ??
        `Invalid instant ${JSON.stringify(input)}: expected RFC 3339 date-time with 'Z' or a numeric offset, e.g. 2026-11-30T10:00:00-08:00`,
    );
    this.name = 'InvalidInstantError';
  }
}

/** Local: bad configuration or command-line input. */
export class ConfigError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ConfigError';
  }
}

/** Local: the store failed (I/O, constraint, connection). */
export class StoreError extends Error {
  constructor(
    message: string,
    readonly transient = false,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'StoreError';
  }
}

/** One problem found in an import or inventory file. */
export interface DataIssue {
  file: string;
  /** 1-based line (NDJSON/CSV) or feature index + 1 (GeoJSON); 0 when not line-bound. */
  line: number;
  /** Dotted field path inside the record, e.g. `hours[2].closes`; '' for the whole record. */
  field: string;
  message: string;
  /** What `line` counts: physical lines (default) or GeoJSON features (then `line` = index + 1). */
  unit?: 'line' | 'feature';
}

/** `file:line field: message`, or `file feature N field: message` for GeoJSON features. */
export function formatDataIssue(i: DataIssue): string {
  const where = i.unit === 'feature' ? `${i.file} feature ${i.line}` : `${i.file}:${i.line}`;
  return `${where}${i.field ? ` ${i.field}` : ''}: ${i.message}`;
}

/** Local: an import or inventory batch was rejected; nothing was written. */
export class DataValidationError extends Error {
  constructor(
    readonly issues: readonly DataIssue[],
    message?: string,
  ) {
    super(message ?? formatIssues(issues));
    this.name = 'DataValidationError';
  }
}

function formatIssues(issues: readonly DataIssue[]): string {
  const shown = issues.slice(0, 20).map(formatDataIssue);
  const more = issues.length > 20 ? `\n… and ${issues.length - 20} more` : '';
  return `${issues.length} problem(s) found; nothing was written:\n${shown.join('\n')}${more}`;
}
