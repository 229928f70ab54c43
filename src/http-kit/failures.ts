/**
 * The one table from a failure to an HTTP answer, for every server of the package. Each server
 * renders the row in its own format (a UCP error_response, a JSON-RPC error, the console's
 * `{error: {code, message}}`), but which status a failure gets, which code, and above all which
 * message may reach the caller, is decided here once.
 *
 * | failure                                   | status | code                         | message sent          |
 * |-------------------------------------------|--------|------------------------------|-----------------------|
 * | HttpError (thrown by a handler)           | its own| its own (default http_<status>) | its own            |
 * | UcpRequestError                           | 400    | its code                     | its own (+ pointer)   |
 * | UcpNegotiationError                       | 400/424/422 | its code                | its own               |
 * | ForbiddenError                            | 403    | forbidden                    | its own               |
 * | RateLimitedError                          | 429    | rate_limited (+ Retry-After) | its own               |
 * | ServiceUnavailableError                   | 503    | service_unavailable (+ Retry-After) | its own        |
 * | StoreError marked transient               | 503    | service_unavailable (+ Retry-After) | generic        |
 * | anything else                             | 500    | internal_error               | generic, names the reference it was logged under |
 *
 * Only the wire errors and HttpError carry text written for the caller. Everything else — a
 * store's SQL error, a bug's TypeError, a local ConfigError — may name files, hosts or internals,
 * so its message goes to the log only (`unexpected`), never to the client.
 */
import {
  ForbiddenError,
  RateLimitedError,
  ServiceUnavailableError,
  StoreError,
  UcpNegotiationError,
  UcpRequestError,
  type NegotiationErrorCode,
} from '../errors.js';

/**
 * A refusal a handler throws on purpose: the status, a code a client may branch on, a sentence for
 * the caller, and any further members the server's error body carries (e.g. `issues`).
 */
export class HttpError extends Error {
  readonly code: string;
  readonly details: Readonly<Record<string, unknown>>;
  constructor(
    readonly status: number,
    message: string,
    options: { code?: string; details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'HttpError';
    this.code = options.code ?? `http_${status}`;
    this.details = options.details ?? {};
  }
}

/** How one failure is answered. */
export interface Failure {
  status: number;
  code: string;
  /** Safe to send: written for the caller, or the generic text of the last rows. */
  message: string;
  /** Further members for the error body (the pointer of a request error, an HttpError's details). */
  details: Readonly<Record<string, unknown>>;
  /** For a Retry-After header. */
  retryAfterSeconds?: number;
  /** Not the caller's doing: log it with its stack (under `reference`); its own text was not sent. */
  unexpected: boolean;
}

/** HTTP status of each discovery/version failure (R-G5). */
export const NEGOTIATION_STATUS: Readonly<Record<NegotiationErrorCode, number>> = {
  invalid_profile_url: 400,
  profile_unreachable: 424,
  profile_malformed: 422,
  version_unsupported: 422,
};

/**
 * Retry-After, seconds, for a store or dependency that failed transiently without saying when to
 * come back. One value for every server, so clients back off alike.
 */
export const TRANSIENT_RETRY_AFTER_SECONDS = 5;

/** The message of a transient store failure: its own text may name the database host. */
export const TRANSIENT_MESSAGE = 'Service temporarily unavailable; retry later.';

/** The message of a 500: nothing of the error itself, only where the operator finds it. */
export function internalErrorMessage(reference: string): string {
  return `Internal server error; it was logged under Request-Id ${reference}.`;
}

/**
 * The row of the table for `err`. `reference` is the id the failure is logged under (the request
 * id), named in the 500 message so the operator can find the details.
 */
export function failureOf(err: unknown, reference: string): Failure {
  const none = {};
  if (err instanceof HttpError)
    return { status: err.status, code: err.code, message: err.message, details: err.details, unexpected: false };
  if (err instanceof UcpRequestError) {
    return { status: 400, code: err.code, message: err.message, details: { pointer: err.pointer }, unexpected: false };
  }
  if (err instanceof UcpNegotiationError) {
    return { status: NEGOTIATION_STATUS[err.code], code: err.code, message: err.message, details: none, unexpected: false };
  }
  if (err instanceof ForbiddenError) return { status: 403, code: 'forbidden', message: err.message, details: none, unexpected: false };
  if (err instanceof RateLimitedError) {
    return {
      status: 429,
      code: 'rate_limited',
      message: err.message,
      details: none,
      retryAfterSeconds: err.retryAfterSeconds,
      unexpected: false,
    };
  }
  if (err instanceof ServiceUnavailableError) {
    return {
      status: 503,
      code: 'service_unavailable',
      message: err.message,
      details: none,
      retryAfterSeconds: err.retryAfterSeconds,
      unexpected: false,
    };
  }
  if (err instanceof StoreError && err.transient) {
    return {
      status: 503,
      code: 'service_unavailable',
      message: TRANSIENT_MESSAGE,
      details: none,
      retryAfterSeconds: TRANSIENT_RETRY_AFTER_SECONDS,
      unexpected: true,
    };
  }
  return { status: 500, code: 'internal_error', message: internalErrorMessage(reference), details: none, unexpected: true };
}
