/**
 * The HTTP kit every server of the package is built on (the Business's HTTP server, the operator
 * console, the agent bridge): what counts as loopback, the Host/Origin guard against DNS
 * rebinding, the bounded body reader that keeps the raw bytes, the one table from a failure to an
 * answer, and JSON-RPC refusals that echo a readable id.
 */
export { closeAfterAnswer, isJsonMediaType, parseJsonBytes, readBody, readJsonBody } from './body.js';
export type { BodyFailure, BodyFailureReason, BodyRead, JsonBody, ParsedJson } from './body.js';
export {
  failureOf,
  HttpError,
  internalErrorMessage,
  NEGOTIATION_STATUS,
  TRANSIENT_MESSAGE,
  TRANSIENT_RETRY_AFTER_SECONDS,
} from './failures.js';
export type { Failure } from './failures.js';
export { HostGuard, loopbackHosts, loopbackOrigins } from './host-guard.js';
export type { GuardedHeaders, HostGuardOptions } from './host-guard.js';
export {
  readBodyPrefix,
  refuseJsonRpc,
  RPC_INTERNAL_ERROR,
  RPC_INVALID_REQUEST,
  RPC_PARSE_ERROR,
  RPC_SERVER_ERROR,
  scanIds,
  writeJsonRpcError,
} from './json-rpc.js';
export type { PrefixIds, RpcErrorObject, RpcId } from './json-rpc.js';
export { hostForUrl, isLoopbackHost, splitAuthority, withoutBrackets } from './loopback.js';
export type { Authority } from './loopback.js';
export { writeJson } from './respond.js';
