/**
 * The one table mapping failures to REST responses (R-G5, R-G7; draft rest.md). Every error body is
 * a UCP `error_response` — `{ucp: {version, status: "error"}, messages: [...], continue_url?}` —
 * so a Platform parses one shape for every status.
 *
 * | failure                              | HTTP | message code                    | severity     |
 * |--------------------------------------|------|---------------------------------|--------------|
 * | body not JSON                        | 400  | invalid_json                    | recoverable  |
 * | body nests deeper than MAX_JSON_DEPTH| 400  | nesting_too_deep                | recoverable  |
 * | schema failure / cannot honour       | 400  | the UcpRequestError code        | recoverable  |
 * | UCP-Agent missing or unparsable      | 400  | invalid_profile_url             | unrecoverable|
 * | invalid_profile_url                  | 400  | invalid_profile_url             | unrecoverable|
 * | profile_unreachable                  | 424  | profile_unreachable             | unrecoverable|
 * | profile_malformed                    | 422  | profile_malformed               | unrecoverable|
 * | version_unsupported                  | 422  | version_unsupported             | unrecoverable|
 * | forbidden (Host/Origin)              | 403  | forbidden                       | unrecoverable|
 * | signature missing / invalid / key    | 401  | the SignatureError code         | unrecoverable|
 * | digest mismatch / algorithm          | 400  | the SignatureError code         | unrecoverable|
 * | unknown route                        | 404  | not_found                       | unrecoverable|
 * | wrong method                         | 405  | method_not_allowed (+ Allow)    | unrecoverable|
 * | body too large                       | 413  | payload_too_large               | recoverable  |
 * | wrong Content-Type                   | 415  | unsupported_media_type          | recoverable  |
 * | rate limited                         | 429  | rate_limited (+ Retry-After)    | recoverable  |
 * | store or dependency down             | 503  | service_unavailable (+ Retry-After) | recoverable |
 * | anything else                        | 500  | internal_error                  | unrecoverable|
 *
 * `capabilities_incompatible` is not here: it is a business outcome, HTTP 200 (R-G5).
 *
 * Which status and which text a failure gets is the HTTP kit's table (http-kit/failures.ts), shared
 * with the console and the agent bridge; this module renders its rows as UCP error bodies, adding
 * what only REST carries (one message per failed pointer, `continue_url`).
 */
import { UcpNegotiationError, UcpRequestError } from '../../errors.js';
import type { NegotiationErrorCode, RequestErrorCode } from '../../errors.js';
import { failureOf } from '../../http-kit/failures.js';
import type { BodyFailureReason } from '../../http-kit/body.js';
import { errorMessage, errorResponse } from '../error-response.js';
import type { ErrorResponse } from '../error-response.js';
import { SignatureError, type SignatureErrorCode } from '../../protocol/signatures/index.js';
import { pointerToJsonPath } from '../json-path.js';

export { NEGOTIATION_STATUS } from '../../http-kit/failures.js';

/** The `code` of the message in a REST error body: the table above, one union so a typo does not compile. */
export type RestErrorCode =
  | RequestErrorCode
  | NegotiationErrorCode
  | BodyFailureReason
  /** 401/400: the request's RFC 9421 signature is missing or does not verify (docs/signatures.md says what each means). */
  | SignatureErrorCode
  /** 404: no resource at this path (or the capability is not offered): use the endpoints the business profile lists. */
  | 'not_found'
  /** 405: the route exists but not for this method: use a method from the Allow header. */
  | 'method_not_allowed'
  /** 403: the Host or Origin header is not allowed: call the Business through one of its configured hosts / origins. */
  | 'forbidden'
  /** 429: over a rate limit: wait the Retry-After seconds, then retry. */
  | 'rate_limited'
  /** 503: the store or another dependency is down: retry after the Retry-After seconds. */
  | 'service_unavailable'
  /** 500: a fault in the Business: not the caller's to fix; report it with the Request-Id the message names. */
  | 'internal_error';

export interface MappedRestError {
  status: number;
  body: ErrorResponse;
  retryAfterSeconds?: number;
  /** Unexpected failures are logged with their stack. */
  unexpected: boolean;
}

export function restError(
  status: number,
  code: RestErrorCode,
  content: string,
  severity: 'recoverable' | 'unrecoverable',
): MappedRestError {
  return { status, body: errorResponse([errorMessage(code, content, severity)]), unexpected: false };
}

export function toRestError(err: unknown, requestId: string): MappedRestError {
  const failure = failureOf(err, requestId);
  if (err instanceof UcpRequestError) {
    const details = err.details.length > 0 ? err.details : [{ pointer: err.pointer, message: err.message }];
    const [first, ...rest] = details.map((d) => errorMessage(err.code, d.message, 'recoverable', pointerToJsonPath(d.pointer)));
    return {
      status: failure.status,
      body: errorResponse([first ?? errorMessage(err.code, err.message, 'recoverable'), ...rest]),
      unexpected: false,
    };
  }
  if (err instanceof UcpNegotiationError) {
    return {
      status: failure.status,
      body: errorResponse([errorMessage(err.code, err.message, 'unrecoverable')], err.continueUrl),
      unexpected: false,
    };
  }
  if (err instanceof SignatureError) return restError(err.httpStatus, err.code, err.message, 'unrecoverable');
  const severity = failure.status === 429 || failure.status === 503 ? 'recoverable' : 'unrecoverable';
  return {
    status: failure.status,
    body: errorResponse([errorMessage(failure.code, failure.message, severity)]),
    unexpected: failure.unexpected,
    ...(failure.retryAfterSeconds !== undefined ? { retryAfterSeconds: failure.retryAfterSeconds } : {}),
  };
}
