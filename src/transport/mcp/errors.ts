/**
 * The one table mapping failures to JSON-RPC errors for the MCP binding (R-M1, R-G5, R-G7).
 *
 * | failure                               | JSON-RPC | HTTP (Streamable HTTP) | data                         |
 * |---------------------------------------|----------|------------------------|------------------------------|
 * | body is not JSON                      | -32700   | 400                    | —                            |
 * | not a JSON-RPC 2.0 request            | -32600   | 400                    | —                            |
 * | unknown method                        | -32601   | 200                    | —                            |
 * | unknown tool, any schema failure,     | -32602   | 200                    | {code, pointer, details}     |
 * |   request the Business cannot honour  |          |                        |                              |
 * | discovery / version failure (R-G5)    | -32001   | 200                    | {code, content, continue_url}|
 * | forbidden                             | -32000   | 403                    | —                            |
 * | rate limited (R-P2)                   | -32000   | 429 + Retry-After      | {retry_after}                |
 * | store or dependency down              | -32000   | 503 + Retry-After      | {retry_after}                |
 * | anything else                         | -32603   | 500                    | — (details only in the log)  |
 *
 * JSON-RPC errors for a well-formed request travel with HTTP 200 (the request was received and
 * answered); only the protocol errors of R-G7 change the HTTP status, which Streamable HTTP clients
 * treat as the primary signal. Pointers in `data` are JSON pointers into `params.arguments`
 * (`/meta`, `/location/distance/max`).
 */
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { UcpNegotiationError, UcpRequestError, type RequestErrorCode } from '../../errors.js';
import { failureOf } from '../../http-kit/failures.js';
import { SignatureError } from '../../protocol/signatures/index.js';

/** JSON-RPC code the UCP overview assigns to discovery and version failures. */
export const UCP_DISCOVERY_ERROR = -32001;
/** JSON-RPC "server error" code used by UCP for 401/403/429/503. */
export const UCP_PROTOCOL_ERROR = -32000;

/**
 * An McpError whose wire `message` is exactly the text given. The SDK's McpError prefixes
 * "MCP error <code>: " to its message, and its Protocol sends `error.message` verbatim, so SDK
 * clients (which add the same prefix when they rebuild the error) would show it twice.
 */
export class RpcError extends McpError {
  constructor(code: number, message: string, data?: unknown) {
    super(code, message, data);
    this.message = message;
  }
}

export interface MappedMcpError {
  /** What becomes `error` in the JSON-RPC response. */
  error: McpError;
  /** HTTP status to send over Streamable HTTP. */
  httpStatus: number;
  /** For a Retry-After header. */
  retryAfterSeconds?: number;
  /** Unexpected failures are logged with their stack; expected ones are not. */
  unexpected: boolean;
}

export interface PointerDetail {
  pointer: string;
  message: string;
}

/** `data.code` of a -32602: a UcpRequestError's code, or one of the MCP-level failures. */
export type InvalidParamsCode =
  | RequestErrorCode
  /** tools/call params are malformed (no tool name, arguments not an object): fix the call as the message says. */
  | 'invalid_params'
  /** The tool name is not one this server lists: call tools/list and use a listed name. */
  | 'unknown_tool';

/** A -32602 with the shape every schema failure uses. */
export function invalidParams(
  message: string,
  pointer: string,
  extra: { code?: InvalidParamsCode; details?: readonly PointerDetail[] } = {},
): McpError {
  return new RpcError(ErrorCode.InvalidParams, message, {
    code: extra.code ?? 'invalid_params',
    pointer,
    details: extra.details ?? [{ pointer, message }],
  });
}

/**
 * @param pointerBase prepended to the pointers of a UcpRequestError to make them relative to
 *   `params.arguments`: `/location` for errors raised on the bare request, '' for errors from
 *   validating the arguments themselves.
 */
export function toMcpError(err: unknown, pointerBase: string): MappedMcpError {
  if (err instanceof McpError) return { error: err, httpStatus: 200, unexpected: false };
  if (err instanceof UcpRequestError) {
    const pointer = pointerBase + err.pointer;
    const details = err.details.map((d) => ({ pointer: pointerBase + d.pointer, message: d.message }));
    return { error: invalidParams(err.message, pointer, { code: err.code, details }), httpStatus: 200, unexpected: false };
  }
  if (err instanceof UcpNegotiationError) {
    const data: Record<string, unknown> = { code: err.code, content: err.message };
    if (err.continueUrl !== undefined) data['continue_url'] = err.continueUrl;
    const summary = err.code === 'version_unsupported' ? 'UCP version unsupported' : 'UCP discovery failed';
    return { error: new RpcError(UCP_DISCOVERY_ERROR, `${summary}: ${err.message}`, data), httpStatus: 200, unexpected: false };
  }
  // The rest follows the HTTP kit's table (its status, its caller-safe text). The reference is
  // not known here: the log line of an unexpected failure carries the request id instead.
  const failure = failureOf(err, 'this request');
  if (failure.retryAfterSeconds !== undefined) {
    return {
      ...retryLater(failure.status === 429 ? 429 : 503, failure.message, failure.retryAfterSeconds),
      unexpected: failure.unexpected,
    };
  }
  if (err instanceof SignatureError) {
    const data = { code: err.code, content: err.message };
    return { error: new RpcError(err.jsonRpcCode, signatureSummary(err), data), httpStatus: err.httpStatus, unexpected: false };
  }
  // A refusal written for the caller (403 Forbidden among them) travels as -32000 with its status.
  if (!failure.unexpected)
    return { error: new RpcError(UCP_PROTOCOL_ERROR, failure.message), httpStatus: failure.status, unexpected: false };
  // Never leak internals: the message is generic, the log has the stack (with the request id).
  return { error: new RpcError(ErrorCode.InternalError, 'Internal error'), httpStatus: 500, unexpected: true };
}

/** The JSON-RPC `message` of a signature failure: a short summary; `data.content` has the detail. */
export function signatureSummary(err: SignatureError): string {
  return err.code === 'digest_mismatch' || err.code === 'algorithm_unsupported'
    ? `Signature check failed (${err.code}): ${err.message}`
    : `Signature verification failed (${err.code}): ${err.message}`;
}

function retryLater(status: 429 | 503, message: string, seconds: number): MappedMcpError {
  return {
    error: new RpcError(UCP_PROTOCOL_ERROR, message, { retry_after: seconds }),
    httpStatus: status,
    retryAfterSeconds: seconds,
    unexpected: false,
  };
}
