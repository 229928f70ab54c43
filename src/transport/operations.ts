/**
 * One UCP Location operation, transport-neutral: the MCP tool handler and the REST route both call
 * `executeOperation`, so the two bindings return byte-for-byte the same payload for the same query.
 *
 * Order, cheapest refusal first: the client address's budget (charged by the HTTP server before
 * the body is even read) → validate the domain request (local, R-M3; done by each binding,
 * because each has its own envelope and pointer base) → charge the profile and item-search
 * budgets (R-P2; before any discovery fetch, so a flood cannot amplify into profile fetches) →
 * negotiate with the Platform profile (R-G1…R-G4) → run the use case → wrap in the `ucp` envelope
 * holding only this operation's capability (R-G6).
 */
import { withoutMembers, type UnknownMembers } from '../domain/request-members.js';
import type { LookupRequest, LookupResult, PresentationOptions, SearchRequest, SearchResult } from '../domain/requests.js';
import { LOOKUP_CAPABILITY, SEARCH_CAPABILITY } from '../protocol/types.js';
import { checkProfileUrlSize } from '../protocol/profile-resolver.js';
import { isRecord } from '../protocol/guards.js';
import type { LocationCapability } from './business-profile.js';
import type { ErrorResponse } from './error-response.js';
import type { RequestNegotiator } from './negotiate-request.js';
import type { RequestLimiter } from './rate-limits.js';
import { budgetProfileKey, type CallerIdentity, type RequestVerifier } from './request-signatures.js';

export type Operation = 'search' | 'lookup';

export const CAPABILITY_OF: Readonly<Record<Operation, LocationCapability>> = {
  search: SEARCH_CAPABILITY,
  lookup: LOOKUP_CAPABILITY,
};

/** The use cases (src/service.ts `LocationService` satisfies this). */
export interface LocationOperations {
  search(request: SearchRequest, presentation?: PresentationOptions): Promise<SearchResult>;
  lookup(request: LookupRequest, presentation?: PresentationOptions): Promise<LookupResult>;
}

/** Schema validation (R-M3); each throws UcpRequestError with a JSON pointer. */
export interface RequestValidators {
  /** The bare search request (REST body); pointers relative to it (`/distance/max`). */
  search(value: unknown): SearchRequest;
  /** The bare lookup request (REST body); pointers relative to it (`/ids`). */
  lookup(value: unknown): LookupRequest;
  /**
   * MCP tool arguments `{meta, location}` against the binding's schemas (meta included);
   * pointers relative to `arguments` (`/meta/ucp-agent/profile`, `/location/ids`).
   */
  toolArguments(tool: 'search_locations' | 'lookup_locations', args: unknown): { location: SearchRequest | LookupRequest };
  /**
   * Warnings (`unknown_field`) for members of the validated request that neither the operation's
   * schema nor a negotiated extension declares: the schemas are open, so without them such a
   * member would be ignored silently. `ignored` names them all: they are kept out of the request
   * the use case sees, so a cursor never binds them (R-J2). Absent: nothing is reported.
   */
  unknownMembers?(operation: Operation, request: SearchRequest | LookupRequest, activeExtensions: readonly string[]): UnknownMembers;
}

/** What became of one binding request for an operation, for metrics (never holds the request). */
export interface OperationEvent {
  binding: 'mcp' | 'rest';
  /** `undefined` when the call named no known operation (an unknown MCP tool). */
  operation: Operation | undefined;
  outcome: 'success' | 'capabilities_incompatible' | 'error';
  /** The error's code (`invalid_cursor`, `not_found`, `rate_limited`…) when the outcome is `error`. */
  code?: string;
  /** Codes of the warnings the answer carried. */
  warnings: readonly string[];
  durationMs: number;
}

export type OperationObserver = (event: OperationEvent) => void;

/** The codes of the `warning` messages of a payload. */
export function warningCodes(payload: unknown): string[] {
  const messages: unknown = isRecord(payload) ? payload['messages'] : undefined;
  if (!Array.isArray(messages)) return [];
  return messages.flatMap((m: unknown) => (isRecord(m) && m['type'] === 'warning' && typeof m['code'] === 'string' ? [m['code']] : []));
}

export interface OperationDeps {
  service: LocationOperations;
  validate: RequestValidators;
  negotiator: RequestNegotiator;
  limiter: RequestLimiter;
  /** Pre-approved profile URLs named to callers in discovery errors (see profile-trust.ts). */
  announcedProfileUrls?: readonly string[];
  /** The Business's `continue_url` (config `continueUrl`) for negotiation failures (R-C5). */
  continueUrl?: string;
  /** Told of every binding request once it is answered (metrics); default nobody. */
  observe?: OperationObserver;
  /** Checks request signatures on the HTTP bindings (request-signatures.ts); absent: every caller is taken at its word. */
  verifier?: RequestVerifier;
}

export interface OperationCall {
  operation: Operation;
  /** Platform profile URL from `meta["ucp-agent"].profile` or the `UCP-Agent` header. */
  profileUrl: string;
  /** The domain request, already validated by the binding (`validateRequest` or `toolArguments`). */
  request: SearchRequest | LookupRequest;
  clientIp: string | undefined;
  /** What the binding's headers ask of the answer's form (REST `Accept-Language`). */
  presentation?: PresentationOptions;
  /** Who the request's signature says is calling (R-SIG4); absent (stdio): taken at its word. */
  caller?: CallerIdentity;
}

export type OperationResult =
  | {
      outcome: 'success';
      payload: Record<string, unknown>;
      resultCount: number;
      /** Languages of the answer's strings (R-C3), for REST `Content-Language`; never in the payload. */
      contentLanguage?: string[];
    }
  | { outcome: 'capabilities_incompatible'; payload: ErrorResponse; resultCount: 0 };

/** The bare request validated for `operation`; throws UcpRequestError (pointer relative to it). */
export function validateRequest(deps: OperationDeps, operation: Operation, value: unknown): SearchRequest | LookupRequest {
  return operation === 'search' ? deps.validate.search(value) : deps.validate.lookup(value);
}

/** Runs a validated request: rate budgets, negotiation, use case, `ucp` envelope. */
export async function executeOperation(deps: OperationDeps, call: OperationCall): Promise<OperationResult> {
  const request = call.request;
  const itemSearch = call.operation === 'search' && ((request as SearchRequest).filters?.items?.length ?? 0) > 0;
  // Before the budgets: they key counters by the URL, which must not be whatever size a caller sent.
  checkProfileUrlSize(call.profileUrl);
  // An unverified caller spends a budget of its own, never that of the profile it names (R-SIG4).
  await deps.limiter.admit({ clientIp: call.clientIp, profileUrl: budgetProfileKey(call.profileUrl, call.caller), itemSearch });

  const capability = CAPABILITY_OF[call.operation];
  const negotiated = await deps.negotiator.negotiate(call.profileUrl, capability, call.clientIp);
  if (!negotiated.compatible) {
    const payload = deps.continueUrl === undefined ? negotiated.response : { ...negotiated.response, continue_url: deps.continueUrl };
    return { outcome: 'capabilities_incompatible', payload, resultCount: 0 };
  }

  // Judged after negotiation: a member a negotiated extension declares is not unknown. Ignored
  // members shape nothing, so the use case (and the cursor it binds, R-J2) never sees them.
  const extensions = Object.keys(negotiated.ucp.capabilities ?? {}).filter((name) => name !== capability);
  const unknown = deps.validate.unknownMembers?.(call.operation, request, extensions);
  const warnings = unknown?.warnings ?? [];
  const shaped = unknown === undefined ? request : withoutMembers(request, unknown.ignored);
  const presentation = call.presentation ?? {};
  const { contentLanguage, ...result } =
    call.operation === 'search'
      ? await deps.service.search(shaped, presentation)
      : await deps.service.lookup(shaped as LookupRequest, presentation);
  // Warnings about the request itself come first: they may explain everything after them.
  const messages = warnings.length === 0 ? result.messages : [...warnings, ...(result.messages ?? [])];
  // `ucp` first: it is what a reader (and a streaming parser) wants to see before the data.
  const payload = { ucp: negotiated.ucp, ...result, ...(messages === undefined ? {} : { messages }) };
  return {
    outcome: 'success',
    payload,
    resultCount: result.locations.length,
    ...(contentLanguage === undefined ? {} : { contentLanguage }),
  };
}
