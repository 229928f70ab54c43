/**
 * The UCP `error_response` body (types/error_response.json): `{ucp: {version, status: 'error'},
 * messages: [≥1 message], continue_url?}`. Used for the `capabilities_incompatible` business
 * outcome on both bindings (R-G5) and for every REST error body.
 */
import type { Message } from '../domain/requests.js';
import { UCP_VERSION } from '../protocol/types.js';

/** Retry-After for a transient store failure: the HTTP kit's value, so every server backs off alike. */
export { TRANSIENT_RETRY_AFTER_SECONDS } from '../http-kit/failures.js';

export interface ErrorResponse {
  ucp: { version: string; status: 'error' };
  messages: [Message, ...Message[]];
  continue_url?: string;
}

export function errorResponse(messages: [Message, ...Message[]], continueUrl?: string, version: string = UCP_VERSION): ErrorResponse {
  const body: ErrorResponse = { ucp: { version, status: 'error' }, messages };
  if (continueUrl !== undefined) body.continue_url = continueUrl;
  return body;
}

/** One error message; `severity` is required for type `error` (message_error.json). */
export function errorMessage(code: string, content: string, severity: NonNullable<Message['severity']>, path?: string): Message {
  const message: Message = { type: 'error', code, content, severity };
  if (path !== undefined) message.path = path;
  return message;
}
