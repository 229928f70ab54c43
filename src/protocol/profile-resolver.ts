/**
 * Business side of discovery (R-G2, R-P3): turn the Platform profile URL a
 * request carries into a validated platform profile.
 *
 * Order: pre-approved (trusted) profiles from configuration → the fetcher's
 * cache → a safe fetch; then `validateProfile(json, 'platform')`. The caching,
 * TTL floor, LRU bound, global discovery budget, per-origin back-off and
 * concurrency bound all live in `SafeFetcher`, configured here.
 *
 * Failures become `UcpNegotiationError`s with the UCP code of the fetch failure
 * and a message meant for the remote caller: it may repeat the URL the caller
 * sent, but never what we resolved it to (no internal addresses leak).
 */
import { ConfigError, RateLimitedError, UcpNegotiationError } from '../errors.js';
import { MAX_JSON_DEPTH } from './json-depth.js';
import { validateProfile, type ProfileIssue, type ProfileValidation, type RejectedEntity } from './profile.js';
import {
  SafeFetchError,
  SafeFetcher,
  documentKey,
  type DocumentSource,
  type FetchContext,
  type FetchedDocument,
  type SafeFetcherOptions,
} from './safe-fetch.js';
import type { UcpProfile } from './types.js';

/**
 * Longest platform profile URL accepted, in UTF-8 bytes. Real profile URLs are a few dozen
 * bytes; 2 KiB is the common practical limit of URLs on the web. Checked before anything keyed
 * by the URL (rate budgets, caches, logs) sees it.
 */
export const MAX_PROFILE_URL_BYTES = 2048;

/** Throws `invalid_profile_url` when the URL is longer than `MAX_PROFILE_URL_BYTES`. */
export function checkProfileUrlSize(profileUrl: string): void {
  const bytes = Buffer.byteLength(profileUrl, 'utf8');
  if (bytes <= MAX_PROFILE_URL_BYTES) return;
  throw new UcpNegotiationError(
    'invalid_profile_url',
    `The platform profile URL is ${bytes} bytes long; the limit is ${MAX_PROFILE_URL_BYTES} bytes. Publish the profile at a shorter https URL (it begins ${shown(profileUrl.slice(0, 80))}).`,
  );
}

export interface PlatformProfileResolverOptions {
  /** The fetcher to use; by default one is built from `fetcherOptions` and `allowLoopback`. */
  fetcher?: SafeFetcher;
  /** Options for the default fetcher (cache backend, rate-limit backend, limits, clock…). */
  fetcherOptions?: Omit<SafeFetcherOptions, 'allowLoopback'>;
  /**
   * Pre-approved platforms: profile URL → profile, trusted through an
   * out-of-band relationship. Never fetched, exempt from the discovery budget;
   * still validated once, at construction (a bad one is a configuration error).
   */
  trusted?: Readonly<Record<string, UcpProfile>>;
  /** Local development: allow loopback profile hosts and plain http to them. */
  allowLoopback?: boolean;
}

export interface ResolvedPlatformProfile {
  /** The profile with every rejected registry entry removed (R-D4, R-N2). */
  profile: UcpProfile;
  /** Entries dropped from the profile, for logs. */
  rejected: readonly RejectedEntity[];
  source: DocumentSource | 'trusted';
}

export class PlatformProfileResolver {
  readonly #fetcher: SafeFetcher;
  readonly #trusted = new Map<string, ResolvedPlatformProfile>();
  readonly #allowLoopback: boolean;
  /**
   * Validation results per fetched document object. The in-memory cache hands
   * out the same object until the document changes, so a profile is validated
   * once per fetch, not once per request; entries vanish with the document.
   */
  readonly #validated = new WeakMap<object, ProfileValidation>();

  constructor(options: PlatformProfileResolverOptions = {}) {
    this.#allowLoopback = options.allowLoopback === true;
    this.#fetcher = options.fetcher ?? new SafeFetcher({ ...options.fetcherOptions, allowLoopback: this.#allowLoopback });
    for (const [raw, document] of Object.entries(options.trusted ?? {})) {
      let key: string;
      try {
        key = documentKey(raw);
      } catch (error) {
        throw new ConfigError(`Trusted platform profile key is not an absolute URL: ${JSON.stringify(raw)}`, { cause: error });
      }
      const result = this.#validate(document);
      if (!result.ok) {
        throw new ConfigError(`Trusted platform profile ${key} is not a valid platform profile: ${summarise(result.errors)}`);
      }
      this.#trusted.set(key, { profile: result.profile, rejected: result.rejected, source: 'trusted' });
    }
  }

  /** The validated platform profile at `profileUrl` (R-G2), or a `UcpNegotiationError`. */
  async resolve(profileUrl: string, context: FetchContext = {}): Promise<UcpProfile> {
    return (await this.resolveWithReport(profileUrl, context)).profile;
  }

  /** As `resolve`, also telling which entries were dropped and where the profile came from. */
  /** @param context who asks: each client spends only its share of the discovery budget. */
  async resolveWithReport(profileUrl: string, context: FetchContext = {}): Promise<ResolvedPlatformProfile> {
    if (typeof profileUrl !== 'string' || profileUrl.trim() === '') {
      throw new UcpNegotiationError(
        'invalid_profile_url',
        'The platform profile URL is missing; send it in meta["ucp-agent"].profile (MCP) or the UCP-Agent header (REST).',
      );
    }
    checkProfileUrlSize(profileUrl);
    let key: string | undefined;
    try {
      key = documentKey(profileUrl);
    } catch {
      key = undefined; // reported by the fetcher's URL check below, with the precise reason
    }
    const trusted = key === undefined ? undefined : this.#trusted.get(key);
    if (trusted) return trusted;
    if (key !== undefined && isReservedInvalidHost(key)) {
      // `.invalid` never resolves (RFC 6761 §6.4): answer at once instead of asking DNS. Such a URL
      // is typically a mistyped local trusted-profile URL (trusted-profiles.ts derives them there).
      throw toNegotiationError(
        profileUrl,
        new SafeFetchError('unresolvable', `${key}: .invalid is a reserved top-level domain that never resolves`),
      );
    }

    let document: FetchedDocument;
    try {
      document = await this.#fetcher.get(profileUrl, context);
    } catch (error) {
      if (error instanceof SafeFetchError) throw discoveryFailure(profileUrl, error);
      throw error;
    }
    const result = this.#validate(document.body);
    if (!result.ok) {
      throw new UcpNegotiationError(
        'profile_malformed',
        `The document at ${shown(profileUrl)} is not a valid UCP platform profile: ${summarise(result.errors)}`,
      );
    }
    return { profile: result.profile, rejected: result.rejected, source: document.source };
  }

  #validate(body: unknown): ProfileValidation {
    const memoisable = typeof body === 'object' && body !== null;
    const known = memoisable ? this.#validated.get(body) : undefined;
    if (known) return known;
    const result = validateProfile(body, 'platform', { allowLoopbackHttp: this.#allowLoopback });
    if (memoisable) this.#validated.set(body, result);
    return result;
  }
}

/**
 * The wire error for a failed fetch: same UCP code, a message for the remote
 * caller built from the reason only (the fetch error's own message may name
 * resolved addresses and is kept as `cause`, for our logs).
 *
 * A host that does not resolve and one that resolves to a non-public address get one and the
 * same message: a difference would let a caller map which names exist inside the Business's
 * network (and their kind of address) by asking for profiles there.
 */
export function toNegotiationError(profileUrl: string, error: SafeFetchError): UcpNegotiationError {
  const url = shown(profileUrl);
  const seconds = Math.max(1, Math.ceil((error.retryAfterMs ?? 1000) / 1000));
  const notPublic = `The platform profile URL ${url} does not lead to a public address (its host does not resolve, or resolves to a private, loopback or other non-public address); publish the profile at a publicly reachable https URL and check its spelling.`;
  const messages: Record<SafeFetchError['reason'], string> = {
    invalid_url: `The platform profile URL ${url} is not a valid absolute URL; expected https://host/path.`,
    unsupported_scheme: `The platform profile URL ${url} must use https.`,
    insecure_http: `The platform profile URL ${url} must use https.`,
    userinfo: 'The platform profile URL must not contain credentials (user:password@).',
    refused_address: notPublic,
    unresolvable: notPublic,
    dns_failure: `The host of the platform profile URL ${url} could not be resolved right now; retry later.`,
    connect_failed: `Could not connect to the platform profile host for ${url}; retry later.`,
    tls_failed: `The TLS connection for ${url} failed (certificate not valid for that host name, or not trusted).`,
    timeout: `The platform profile at ${url} did not arrive in time; retry later.`,
    redirect: `The platform profile URL ${url} answered with a redirect (HTTP ${error.status ?? '3xx'}); serve the profile directly at that URL, redirects are not followed.`,
    http_status: `The platform profile URL ${url} answered HTTP ${error.status ?? 'error'}; it must answer 200 with the profile JSON.`,
    too_large: `The platform profile at ${url} exceeds the size limit for profiles.`,
    unexpected_not_modified: `The platform profile URL ${url} answered 304 Not Modified to an unconditional request.`,
    rate_limited: `Platform profile discovery is temporarily rate-limited; retry in ${seconds} s.`,
    client_rate_limited: `This client has asked for too many platform profiles on new hosts recently; retry in ${seconds} s (profiles already fetched keep working).`,
    backing_off: `Fetching the platform profile at ${url} failed recently; retry in ${seconds} s.`,
    busy: 'Platform profile discovery is busy; retry shortly.',
    content_type: `The platform profile at ${url} is not served as application/json.`,
    not_json: `The platform profile at ${url} is not valid JSON.`,
    too_deep: `The platform profile at ${url} nests arrays/objects more than ${MAX_JSON_DEPTH} levels deep; no profile needs that many.`,
  };
  return new UcpNegotiationError(error.ucpCode, messages[error.reason], { cause: error });
}

/**
 * A spent discovery budget (global or the caller's share) is a rate limit like any other budget
 * (R-G7): 429 with Retry-After, so a Platform waits and retries instead of giving up on a profile
 * it believes unreachable. Every other fetch failure is a discovery error (R-G5, -32001).
 */
export function discoveryFailure(profileUrl: string, error: SafeFetchError): UcpNegotiationError | RateLimitedError {
  const negotiation = toNegotiationError(profileUrl, error);
  if (error.reason !== 'rate_limited' && error.reason !== 'client_rate_limited') return negotiation;
  return new RateLimitedError(Math.max(1, Math.ceil((error.retryAfterMs ?? 1000) / 1000)), negotiation.message);
}

function isReservedInvalidHost(url: string): boolean {
  const host = new URL(url).hostname.toLowerCase().replace(/\.$/, '');
  return host === 'invalid' || host.endsWith('.invalid');
}

/** The caller's own URL, quoted and shortened: safe to echo back. */
function shown(url: string): string {
  return JSON.stringify(url.length > 200 ? `${url.slice(0, 200)}…` : url);
}

function summarise(errors: readonly ProfileIssue[]): string {
  const listed = errors.slice(0, 3).map((e) => `${e.pointer || '/'}: ${e.message}`);
  const more = errors.length > 3 ? ` (and ${errors.length - 3} more)` : '';
  return `${listed.join('; ')}${more}`;
}
