/**
 * Errors of the Platform SDK. Every failure a caller can meet while discovering, negotiating or
 * calling a Business is a `UcpClientError` with a distinct, stable `code`, so programs branch on
 * `code` and people read `message` (which always says what to do next). `cause` is kept.
 *
 * These are local errors of the Platform side: they never travel on the wire.
 */
import type { SchemaIssue } from '../protocol/schemas.js';
import type { SignatureErrorCode } from '../protocol/signatures/index.js';
import type { DroppedCapability } from '../protocol/negotiation.js';
import type { ProfileIssue, RejectedEntity } from '../protocol/profile.js';

export type ClientErrorCode =
  /** A URL we were given (business, platform profile, endpoint) is unusable: not absolute, not https, has credentials. */
  | 'invalid_url'
  /** A host resolves to a special-use address (private, loopback, link-local…), R-N4. */
  | 'address_refused'
  /** A profile, schema or endpoint answered with a redirect; redirects are never followed (R-N3). */
  | 'redirect_refused'
  /** DNS, connect, TLS, timeout, HTTP status or size limit: the document or endpoint could not be fetched. */
  | 'unreachable'
  /** A third-party extension schema could not be loaded or compiled. */
  | 'schema_unavailable'
  /** A profile is not JSON or violates the profile schema. */
  | 'profile_malformed'
  /** The capability needed was declared with a schema URL that fails authority binding (R-N2). */
  | 'binding_failed'
  /** A leaf profile reached through `supported_versions` is not the release it was listed under (R-D6). */
  | 'leaf_profile_invalid'
  /** No release both parties speak (R-D6, R-G3). */
  | 'version_unsupported'
  /** The capability intersection lacks what the operation needs (R-G4). */
  | 'capabilities_incompatible'
  /** The Business offers no binding the Platform can use (or not the one forced). */
  | 'transport_unavailable'
  /** The Business answered with an error (JSON-RPC error or REST error status). */
  | 'business_error'
  /** A request we were asked to send does not conform to the negotiated schema. */
  | 'request_invalid'
  /** The Business's response does not conform to the negotiated schema. */
  | 'response_invalid'
  /** The Business publishes signing keys and its answer's signature or digest does not verify (or is absent when required). */
  | 'answer_signature_failed';

/** Which document or peer an error is about. */
export type ErrorSubject = 'business_profile' | 'platform_profile' | 'leaf_profile' | 'schema' | 'endpoint';

export abstract class UcpClientError extends Error {
  abstract readonly code: ClientErrorCode;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

type FetchFailureCode = 'invalid_url' | 'address_refused' | 'redirect_refused' | 'unreachable' | 'schema_unavailable';

/** A document or endpoint could not be fetched or reached safely. */
export class DiscoveryError extends UcpClientError {
  constructor(
    readonly code: FetchFailureCode,
    readonly subject: ErrorSubject,
    message: string,
    options?: { cause?: unknown; url?: string },
  ) {
    super(message, options);
    this.url = options?.url;
  }
  /** The URL concerned, as given (never the address it resolved to). */
  readonly url: string | undefined;
}

/** A profile is unusable: malformed, the needed capability failed binding, or a bad leaf. */
export class ProfileError extends UcpClientError {
  constructor(
    readonly code: 'profile_malformed' | 'binding_failed' | 'leaf_profile_invalid',
    readonly subject: ErrorSubject,
    message: string,
    options?: { cause?: unknown; issues?: readonly ProfileIssue[]; rejected?: readonly RejectedEntity[] },
  ) {
    super(message, options);
    this.issues = options?.issues ?? [];
    this.rejected = options?.rejected ?? [];
  }
  /** Structural problems, each with a JSON pointer into the profile. */
  readonly issues: readonly ProfileIssue[];
  /** Entries dropped from the profile (binding failures among them). */
  readonly rejected: readonly RejectedEntity[];
}

export class VersionUnsupportedError extends UcpClientError {
  readonly code = 'version_unsupported' as const;
  constructor(
    message: string,
    /** Releases the Business offers, newest first (empty when the Business reported the error). */
    readonly businessVersions: readonly string[],
    /** The Platform's release. */
    readonly platformVersion: string | undefined,
    options?: { cause?: unknown; continueUrl?: string },
  ) {
    super(message, options);
    this.continueUrl = options?.continueUrl;
  }
  readonly continueUrl: string | undefined;
}

export class CapabilitiesIncompatibleError extends UcpClientError {
  readonly code = 'capabilities_incompatible' as const;
  constructor(
    message: string,
    /** Why each Business capability fell out of the intersection (local negotiation only). */
    readonly dropped: readonly DroppedCapability[],
    options?: { cause?: unknown; continueUrl?: string; messages?: readonly unknown[] },
  ) {
    super(message, options);
    this.continueUrl = options?.continueUrl;
    this.messages = options?.messages ?? [];
  }
  /** Where a buyer can continue, when the Business gave one. */
  readonly continueUrl: string | undefined;
  /** The Business's `messages` when it answered `capabilities_incompatible` itself. */
  readonly messages: readonly unknown[];
}

export class TransportUnavailableError extends UcpClientError {
  readonly code = 'transport_unavailable' as const;
  constructor(
    message: string,
    /** Transports the Business advertises for the negotiated release. */
    readonly offered: readonly string[],
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * The Business answered with an error. MCP: a JSON-RPC error (`rpcCode`, `data`); REST: an HTTP
 * error status with a UCP `error_response` body (`messages`). `ucpCode` is the UCP code when the
 * Business named one (`data.code`, or the first message's `code`).
 */
export class BusinessError extends UcpClientError {
  readonly code = 'business_error' as const;
  constructor(
    message: string,
    readonly details: {
      transport: 'mcp' | 'rest';
      rpcCode?: number;
      httpStatus?: number;
      ucpCode?: string;
      data?: unknown;
      messages?: readonly unknown[];
      retryAfterSeconds?: number;
      /** JSON pointer the Business blamed (into `arguments` for MCP, the body for REST), when given. */
      pointer?: string;
    },
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
  get ucpCode(): string | undefined {
    return this.details.ucpCode;
  }
}

/** A payload failed the negotiated (composed) schema. `pointer` is the first offending value. */
abstract class PayloadValidationError extends UcpClientError {
  constructor(
    message: string,
    readonly operation: 'search' | 'lookup',
    readonly issues: readonly SchemaIssue[],
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.pointer = issues[0]?.pointer ?? '';
  }
  /** RFC 6901 pointer into the payload ('' = the whole payload). */
  readonly pointer: string;
}

/** The request the caller built does not conform; nothing was sent. */
export class RequestValidationError extends PayloadValidationError {
  readonly code = 'request_invalid' as const;
}

/** The Business's response does not conform to the negotiated schema; it must not be used. */
export class ResponseValidationError extends PayloadValidationError {
  readonly code = 'response_invalid' as const;
}

/**
 * An answer of a Business that publishes keys (`keys[]`, `signing_keys[]`) failed its RFC 9421
 * signature or RFC 9530 digest check (R-SIG3), or came unsigned while the Platform requires
 * signed answers. The answer was discarded: it may have been altered on the way, or not come from
 * the Business at all.
 */
export class AnswerSignatureError extends UcpClientError {
  readonly code = 'answer_signature_failed' as const;
  constructor(
    message: string,
    /** The check that failed, in the draft's vocabulary (`signature_invalid`, `digest_mismatch`, …). */
    readonly reason: SignatureErrorCode,
    /** The Business, named by the profile URL its keys were read from. */
    readonly businessProfileUrl: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
