/**
 * What the bridge tells a model when a call cannot be answered as asked. Every failure becomes a
 * tool result with `isError: true` and sentences saying what to change (MCP SEP-1303: hosts show
 * input problems to the model only as tool results, never as JSON-RPC errors). JSON-RPC errors
 * are left for protocol faults (an unknown tool, a malformed envelope, a bug in the bridge).
 *
 * `describeFailure` turns an SDK error (discovery, negotiation, a business's refusal, a response
 * that fails its schema) into one sentence naming the business, plus a coarse class the structured
 * output carries, so a program can branch without parsing prose.
 */
import {
  AnswerSignatureError,
  BusinessError,
  CapabilitiesIncompatibleError,
  DiscoveryError,
  ProfileError,
  RequestValidationError,
  ResponseValidationError,
  TransportUnavailableError,
  UcpClientError,
  VersionUnsupportedError,
} from '../client/index.js';
import { UCP_VERSION } from '../protocol/types.js';
import { plain } from './plain.js';

/** An argument the model can fix; `argument` is the top-level argument name when one is to blame. */
export class ToolInputError extends Error {
  constructor(
    message: string,
    readonly argument?: string,
  ) {
    super(message);
    this.name = 'ToolInputError';
  }
}

/** A failure of one business, or of the only business asked; the message is for the model. */
export class BusinessCallError extends Error {
  constructor(readonly failure: BusinessFailure) {
    super(failure.reason);
    this.name = 'BusinessCallError';
  }
}

/**
 * `unreachable`: discovery or transport failed · `incompatible`: the business cannot serve this
 * bridge (version, capabilities, transport, profile) · `refused`: it rejected the request ·
 * `rate_limited`: retry later · `invalid_response`: its answer failed the UCP schema ·
 * `timeout`: no answer within its time budget.
 */
export type FailureKind = 'unreachable' | 'incompatible' | 'refused' | 'rate_limited' | 'invalid_response' | 'timeout';

export interface BusinessFailure {
  business: string;
  kind: FailureKind;
  /** One or two sentences: what happened and what to change. */
  reason: string;
  /** The UCP or SDK code behind it, e.g. `radius_too_large`, `version_unsupported`, `unreachable`. */
  code: string;
  retry_after_seconds?: number;
  /** The tool argument the business objected to, when it named one. */
  argument?: string;
  /** `radius_too_large`: the largest radius the business honours, meters, when its message states it. */
  max_radius_meters?: number;
}

/** How the SDK words a deadline that passed (undici's timeouts, the MCP SDK's request timeout). */
const TIMEOUT = /UND_ERR_(?:HEADERS|BODY|CONNECT)_TIMEOUT|did not answer .*within \d+ ms|timed out/;

/** Request members (JSON pointer prefixes of the UCP request) → the bridge's argument names. */
const POINTER_ARGUMENTS: readonly [string, string][] = [
  ['/distance/max', 'radius'],
  ['/distance/center', 'near'],
  ['/distance', 'near'],
  ['/filters/hours', 'open_at'],
  ['/filters/amenities', 'amenities'],
  ['/filters/items', 'items'],
  ['/query', 'query'],
  ['/pagination/limit', 'limit'],
  ['/pagination/cursor', 'cursor'],
  ['/ids', 'ids'],
];

/** The bridge argument a UCP request pointer refers to (MCP pointers start with /location). */
export function argumentOfPointer(pointer: string | undefined): string | undefined {
  if (pointer === undefined) return undefined;
  const bare = pointer.startsWith('/location/') ? pointer.slice('/location'.length) : pointer;
  return POINTER_ARGUMENTS.find(([prefix]) => bare === prefix || bare.startsWith(`${prefix}/`))?.[1];
}

/** What the operation is called in sentences. */
export type Activity = 'search' | 'lookup' | 'discovery';

export function describeFailure(business: string, error: unknown, activity: Activity): BusinessFailure {
  if (error instanceof BusinessCallError) return error.failure;
  if (!(error instanceof UcpClientError)) {
    const message = error instanceof Error ? error.message : String(error);
    return { business, kind: 'unreachable', code: 'internal', reason: `${business} could not be used: ${sentence(message)}` };
  }
  if (error instanceof DiscoveryError) {
    if (TIMEOUT.test(error.message)) {
      return {
        business,
        kind: 'timeout',
        code: 'timeout',
        reason: `${business} did not answer in time (${clause(error.message)}); try again later, or use another business.`,
      };
    }
    return {
      business,
      kind: 'unreachable',
      code: error.code,
      reason: `${business} could not be reached (${clause(error.message)}). Try again later, or use another business.`,
    };
  }
  if (error instanceof VersionUnsupportedError) {
    const offers = error.businessVersions.length > 0 ? ` (it offers ${error.businessVersions.join(', ')})` : '';
    return {
      business,
      kind: 'incompatible',
      code: error.code,
      reason: `${business} does not speak UCP ${UCP_VERSION}${offers}, so this bridge cannot use it; use another business.`,
    };
  }
  if (error instanceof CapabilitiesIncompatibleError) {
    const what = activity === 'lookup' ? 'look up Locations by id' : 'search Locations';
    const other = activity === 'lookup' ? 'find_locations' : 'get_locations with known ids';
    return {
      business,
      kind: 'incompatible',
      code: error.code,
      reason: `${business} does not let this bridge ${what} (no compatible capability); use ${other}, or another business.`,
    };
  }
  if (error instanceof TransportUnavailableError || error instanceof ProfileError) {
    return {
      business,
      kind: 'incompatible',
      code: error.code,
      reason: `${business} cannot be used by this bridge: ${sentence(error.message)} Use another business.`,
    };
  }
  if (error instanceof ResponseValidationError) {
    const issue = error.issues[0];
    const where = issue === undefined ? '' : ` (${issue.pointer === '' ? 'the payload' : issue.pointer}: ${issue.message})`;
    return {
      business,
      kind: 'invalid_response',
      code: error.code,
      reason: `${business} sent an answer that does not follow the UCP schema${where}, so it was discarded; try again later or use another business.`,
    };
  }
  if (error instanceof RequestValidationError) {
    const issue = error.issues[0];
    const argument = argumentOfPointer(error.pointer);
    const what = argument === undefined ? 'the request' : `"${argument}"`;
    return {
      business,
      kind: 'refused',
      code: error.code,
      reason: `${business} does not accept ${what}${issue === undefined ? '' : ` (${issue.message})`}; change it and call again.`,
      ...(argument !== undefined ? { argument } : {}),
    };
  }
  if (error instanceof BusinessError) return businessRefusal(business, error, activity);
  if (error instanceof AnswerSignatureError) {
    return {
      business,
      kind: 'invalid_response',
      code: error.reason,
      reason:
        error.reason === 'signature_missing' || error.reason === 'key_not_found'
          ? `${business} does not sign its answers with a key its profile publishes (${error.reason}), and this bridge accepts only signed answers, so nothing from it was used; use another business.`
          : `${business} sent an answer whose signature does not verify (${error.reason}), so it may have been altered on the way and was discarded; try again later, or use another business.`,
    };
  }
  return { business, kind: 'unreachable', code: error.code, reason: `${business} could not be used: ${sentence(error.message)}` };
}

function businessRefusal(business: string, error: BusinessError, activity: Activity): BusinessFailure {
  const d = error.details;
  const said = quoted(businessText(error));
  if (d.retryAfterSeconds !== undefined || d.httpStatus === 429 || d.httpStatus === 503) {
    const seconds = d.retryAfterSeconds ?? 60;
    const why = d.httpStatus === 503 ? 'is temporarily unavailable' : 'is limiting how often this bridge may call it';
    return {
      business,
      kind: 'rate_limited',
      code: d.httpStatus === 503 ? 'unavailable' : 'rate_limited',
      retry_after_seconds: seconds,
      reason: `${business} ${why}; retry after ${seconds} s, or use another business meanwhile.`,
    };
  }
  const argument = argumentOfPointer(d.pointer);
  const code =
    d.ucpCode ?? (d.rpcCode !== undefined ? String(d.rpcCode) : d.httpStatus !== undefined ? `http_${d.httpStatus}` : 'business_error');
  switch (d.ucpCode) {
    case 'radius_too_large': {
      const max = statedLimitMeters(businessText(error));
      return {
        business,
        kind: 'refused',
        code,
        argument: 'radius',
        reason: `${business} refused the radius${said}; use a smaller "radius".`,
        ...(max !== undefined ? { max_radius_meters: max } : {}),
      };
    }
    case 'invalid_cursor':
      return {
        business,
        kind: 'refused',
        code,
        argument: 'cursor',
        reason: `${business} no longer accepts this continuation${said}; call find_locations again without "cursor".`,
      };
    case 'signature_missing':
    case 'key_not_found':
    case 'signature_invalid':
    case 'digest_mismatch':
    case 'algorithm_unsupported':
      return {
        business,
        kind: 'incompatible',
        code,
        reason: `${business} ${SIGNATURE_REFUSALS[d.ucpCode] ?? 'refused the signature of this bridge'}${said === '' ? '' : ` (it said${said})`}.`,
      };
    case 'invalid_profile_url':
    case 'profile_unreachable':
    case 'profile_malformed':
      return {
        business,
        kind: 'incompatible',
        code,
        reason: `${business} could not use this bridge's platform profile${said}; the bridge's operator must publish it where ${business} can fetch it (nothing to change in your arguments).`,
      };
    default:
      break;
  }
  if (d.rpcCode === -32602 || d.httpStatus === 400 || d.httpStatus === 422) {
    const target = argument === undefined ? 'the request' : `"${argument}"`;
    return {
      business,
      kind: 'refused',
      code,
      ...(argument !== undefined ? { argument } : {}),
      reason: `${business} refused ${target}${said}; change it and call again.`,
    };
  }
  const verb = activity === 'lookup' ? 'the lookup' : activity === 'search' ? 'the search' : 'the request';
  return {
    business,
    kind: 'unreachable',
    code,
    reason: `${business} failed ${verb}${said}; try again later, or use another business.`,
  };
}

/**
 * A business's signature refusal (the draft's codes), as the rest of one sentence: what it means
 * and that nothing in the model's arguments can fix it — only the bridge's operator can.
 */
const SIGNATURE_REFUSALS: Readonly<Record<string, string>> = {
  signature_missing:
    'accepts only signed requests and this bridge does not sign (signature_missing); its operator must start it with --signing-key. Nothing in your arguments can change this: use another business',
  key_not_found:
    "does not find this bridge's signing key in the bridge's platform profile (key_not_found); its operator must publish the key in the profile's keys[]. Nothing in your arguments can change this: use another business",
  signature_invalid:
    "rejected this bridge's signature (signature_invalid); its operator must check the signing key against the published profile. Nothing in your arguments can change this: use another business",
  digest_mismatch:
    'received a request body that did not match its signed digest (digest_mismatch), so something on the way altered it; try again later, or use another business',
  algorithm_unsupported:
    "cannot verify this bridge's kind of signing key (algorithm_unsupported); its operator must sign with an ES256 key. Nothing in your arguments can change this: use another business",
};

/** The limit a radius refusal states: "(500000 m)" or "at most 500000" — meters, the unit of distance.max. */
function statedLimitMeters(text: string): number | undefined {
  const match = /\((\d+(?:\.\d+)?) ?m\)|at most (\d+(?:\.\d+)?)/.exec(text);
  const value = Number(match?.[1] ?? match?.[2]);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/** What the business itself said: its message, without our "The business answered …" preamble. */
function businessText(error: BusinessError): string {
  const data = error.details.data;
  if (typeof data === 'object' && data !== null && !Array.isArray(data)) {
    const content = (data as Record<string, unknown>)['content'];
    if (typeof content === 'string' && content !== '') return content;
  }
  const first = error.details.messages?.find((m) => typeof m === 'object' && m !== null);
  const content = first === undefined ? undefined : (first as Record<string, unknown>)['content'];
  if (typeof content === 'string' && content !== '') return content;
  const colon = error.message.indexOf(': ');
  return colon < 0 ? error.message : error.message.slice(colon + 2);
}

/** What a business may say through the bridge: it is an outsider's text, so it is bounded. */
const MAX_QUOTED = 600;
/** A clause is bounded too (it may quote a business), but loosely: `quoted` cuts between sentences. */
const MAX_CLAUSE = 2_000;

function quoted(text: string): string {
  const t = clause(text);
  return t === '' ? '' : `: "${clipAtSentence(t, MAX_QUOTED)}"`;
}

/**
 * `text` cut to at most `max` characters without ending mid-sentence: up to the last sentence
 * that fits whole (the model acts on a hint only when it reads all of it), else — one sentence
 * longer than `max` — up to the last whole word, marked with "…".
 */
export function clipAtSentence(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max);
  const end = Math.max(head.lastIndexOf('. '), head.lastIndexOf('; '), head.lastIndexOf('? '), head.lastIndexOf('! '));
  if (end > 0) return head.slice(0, end);
  const space = head.lastIndexOf(' ', max - 1);
  return `${head.slice(0, space > 0 ? space : max - 1)}…`;
}

/**
 * A message as a clause inside a sentence: first line only, trimmed, no trailing period — and,
 * since it may quote a business, one plain line of bounded length (#37 N10).
 */
function clause(message: string): string {
  return plain(message.split('\n')[0] ?? '', MAX_CLAUSE).replace(/[.\s]+$/, '');
}

/** A message as a sentence of its own. */
function sentence(message: string): string {
  const c = clause(message);
  return c === '' ? '' : `${c}.`;
}
