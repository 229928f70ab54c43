/**
 * Two error families (docs/architecture.md):
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
 * Why a request was refused (`UcpRequestError.code`). Travels as `data.code` of a JSON-RPC -32602
 * (MCP) or as the message `code` of a 400 (REST); a Platform branches on it.
 */
export type RequestErrorCode =
  /** The request breaks the schema or a rule of the operation (wrong type, empty ids, bad instant): fix the value at `pointer` and resend. */
  | 'invalid_request'
  /** `distance.max` is above the largest radius this Business honours (the message names it): resend with a smaller radius. */
  | 'radius_too_large'
  /** `pagination.cursor` was not issued for this exact request (altered, from another query, or sealed with a retired key): resend without a cursor to start again. */
  | 'invalid_cursor'
  /** A `serves` target this Business cannot evaluate (un-negotiated extension, no country, no coverage data for that country): use `serves.point` or drop the field named by `pointer`. */
  | 'serves_target_unsupported'
  /** A `filters` member this Business does not support (ignoring it would widen the answer): remove it; the message lists the supported ones. */
  | 'unsupported_filter';

/**
 * The request itself is wrong or asks for something the Business cannot honour
 * (schema failure, radius over the cap, un-evaluable serves target, bad cursor).
 * MCP: JSON-RPC -32602 with `data.pointer`; REST: 400.
 */
export class UcpRequestError extends UcpWireError {
  readonly kind = 'request' as const;
  constructor(
    readonly code: RequestErrorCode,
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

/**
 * Why discovery or version negotiation failed (R-G5): the UCP codes a Business answers with before
 * it can look at the request. MCP: -32001 with `data.code`; REST: the status in NEGOTIATION_STATUS.
 */
export type NegotiationErrorCode =
  /** The Platform's profile URL (UCP-Agent / `meta`) is missing, not https, or names a refused address: send a valid public https profile URL. */
  | 'invalid_profile_url'
  /** The Platform's profile could not be fetched (DNS, connect, TLS, timeout, HTTP status, size): make it reachable, then retry. */
  | 'profile_unreachable'
  /** The Platform's profile is not JSON or breaks the profile schema: fix the profile document. */
  | 'profile_malformed'
  /** No release both sides speak (`continue_url` may say where to go instead): upgrade, or use a release the Business lists. */
  | 'version_unsupported';

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

/** Why a store operation failed (`StoreError.code`). Local: the transports map only `unavailable` (to 503). */
export type StoreErrorCode =
  /** The database cannot be reached right now (refused, restarting, connection lost): transient, retry later; nothing was changed. */
  | 'unavailable'
  /** The store could not be opened (bad path or URL, permissions, credentials, not a store file, options that cannot work together): fix that and open again. */
  | 'open_failed'
  /** The store's schema is older than this release needs: run `ucp-location migrate` (PostgreSQL) or open it once writable (SQLite). */
  | 'schema_outdated'
  /** The store was written by a newer release of ucp-location: upgrade this instance (or import into a new store). */
  | 'schema_too_new'
  /** A migration failed and was rolled back (e.g. an extension could not be created): fix the cause the message names, then migrate again. */
  | 'migration_failed'
  /** A write on a store opened read-only: open it without `readonly` to import or update inventory. */
  | 'read_only'
  /** The store was used after `close()`: a programming error; open a new store. */
  | 'closed'
  /** A read failed for another reason (a damaged file, an unexpected database error): report it with the cause. */
  | 'query_failed'
  /** An import or inventory update failed and was rolled back; the previous data is unchanged: fix the cause and run it again. */
  | 'write_failed';

/** Local: the store failed (I/O, constraint, connection). */
export class StoreError extends Error {
  constructor(
    readonly code: StoreErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'StoreError';
  }

  /** Worth retrying as is (the transports answer 503 with Retry-After). */
  get transient(): boolean {
    return this.code === 'unavailable';
  }
}

/** The text of a caught value for an error message: `message` of an Error, else the value as a string. */
export function causeMessage(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}

/** One problem found in an import or inventory file. */
export interface DataIssue {
  file: string;
  /** 1-based line (NDJSON/CSV), feature index + 1 (GeoJSON) or node number (JSON-LD); 0 when not line-bound. */
  line: number;
  /** Dotted field path inside the record, e.g. `hours[2].closes`; '' for the whole record. */
  field: string;
  message: string;
  /**
   * What `line` counts: physical lines (default), GeoJSON features (then `line` = index + 1) or
   * JSON-LD nodes (the objects of the document's top level, arrays and `@graph`, from 1).
   */
  unit?: 'line' | 'feature' | 'node';
}

/** `file:line field: message`, or `file feature N field: message` (GeoJSON), `file node N …` (JSON-LD). */
export function formatDataIssue(i: DataIssue): string {
  const where = i.unit === 'feature' || i.unit === 'node' ? `${i.file} ${i.unit} ${i.line}` : `${i.file}:${i.line}`;
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
