/**
 * `SafeFetcher`: the only code in the protocol layer that performs network I/O
 * (with pinned-agent.ts, its resolve-check-pin step, which the client shares).
 * It fetches JSON discovery documents (platform profiles, schemas) from URLs
 * that strangers supply, so it is built to be unexploitable first and fast second
 * (R-N3, R-N4, R-G2, R-P3):
 *
 *  - https only; plain http solely for local development (`allowLoopback`) and
 *    only when the target resolves to loopback; no userinfo; redirects refused;
 *  - the hostname is resolved once, *every* resolved address is checked
 *    (address-guard.ts), and the connection is pinned to the checked address
 *    with a custom undici connector (pinned-agent.ts), so DNS cannot answer
 *    differently between check and connect (rebinding). TLS still verifies the
 *    certificate against the hostname (SNI = hostname);
 *  - connect timeout, total deadline, streamed body cap, JSON and content-type checks;
 *  - an HTTP cache (fetch-cache.ts) with a 60 s floor, conditional revalidation,
 *    stale-while-revalidate and request collapsing;
 *  - a global token bucket for origins not seen recently (new-origin-budget.ts:
 *    shares per client network, fairness when it runs low), which the DNS lookup
 *    spends too (only an IP literal refused on its address spends nothing);
 *    per-origin exponential back-off after failures; bounded concurrency overall,
 *    per origin and per client network, DNS lookups included (slow origins or a
 *    silent name server cannot hold every slot); and a pre-approved registry that
 *    bypasses the network entirely;
 *  - host names resolved over the network (network-resolver.ts), not on libuv's
 *    thread pool, so stalled lookups cannot starve the store's own.
 *
 * Every failure is a `SafeFetchError` carrying the UCP negotiation code to answer
 * with (`ucpCode`) and a precise `reason` for logs and the CLI.
 */
import { request, type Agent } from 'undici';
import {
  DEFAULT_FRESHNESS,
  MemoryCacheBackend,
  cacheEntry,
  parseCacheControl,
  type CacheBackend,
  type CachedDocument,
  type FreshnessPolicy,
} from './fetch-cache.js';
import { readCappedBody } from './capped-body.js';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from './json-depth.js';
import { LruMap } from './lru.js';
import { isIpLiteral } from './address-guard.js';
import { NewOriginBudget, clientNetwork } from './new-origin-budget.js';
import { networkResolver, withSystemFallback } from './network-resolver.js';
import { pickPinnedAddress, pinnedAgent, type ConnectAttempt, type PinRefusals, type PinnedTarget, type Resolver } from './pinned-agent.js';
import { FailureBackoff, type BackoffOptions, type RateLimitBackend, type TokenBucketRule } from './rate-limit.js';
import { causeMessage, ConfigError, type NegotiationErrorCode } from '../errors.js';
import { errorCodeOf } from './error-code.js';

/** The UCP negotiation codes a fetch failure maps to: every one but `version_unsupported`. */
export type SafeFetchErrorCode = Exclude<NegotiationErrorCode, 'version_unsupported'>;

/** Precise cause, for logs, metrics and the CLI (`CODE_OF` gives the wire code of each). */
export type SafeFetchReason =
  // invalid_profile_url: the URL itself is unacceptable — the URL's owner must change it
  /** Not an absolute URL: pass the full https:// URL. */
  | 'invalid_url'
  /** A scheme other than https (or http): use https. */
  | 'unsupported_scheme'
  /** The URL carries a user name or password: remove them; discovery never sends credentials. */
  | 'userinfo'
  /** Plain http: use https (http is allowed only for loopback during local development). */
  | 'insecure_http'
  /** The host resolves to a private, loopback or other special-use address: publish the document on a public address. */
  | 'refused_address'
  /** The host name does not resolve or has no address: correct the host name or its DNS records. */
  | 'unresolvable'
  // profile_unreachable: a fetch was (or would be) attempted and failed — retry later or fix the server
  /** DNS resolution failed for another reason than "no such name": retry later. */
  | 'dns_failure'
  /** No TCP connection could be made (refused, reset, unreachable): check the server is up, retry later. */
  | 'connect_failed'
  /** The TLS handshake or certificate check failed: fix the server's certificate. */
  | 'tls_failed'
  /** Connecting or reading took longer than the limit: make the server answer faster, retry later. */
  | 'timeout'
  /** The server answered with a redirect, which is never followed: serve the document at the advertised URL. */
  | 'redirect'
  /** The server answered with a status other than 200: make the URL serve the document. */
  | 'http_status'
  /** The body is over the size limit: serve a smaller document. */
  | 'too_large'
  /** 304 to a request that carried no validator (a server bug): fix the server's caching. */
  | 'unexpected_not_modified'
  /** Self-imposed: this fetcher's budget for origins it has not seen recently is spent: retry after `retryAfterMs`. */
  | 'rate_limited'
  /** Self-imposed: this client's share of the new-origin budget is spent: retry after `retryAfterMs`. */
  | 'client_rate_limited'
  /** Self-imposed: the origin failed recently and is left alone for a while: retry after `retryAfterMs`. */
  | 'backing_off'
  /** Self-imposed: too many fetches running and waiting: retry shortly. */
  | 'busy'
  // profile_malformed: the body is not a JSON document — the document's owner must fix it
  /** The Content-Type is not JSON: serve it as application/json. */
  | 'content_type'
  /** The body does not parse as JSON: fix the document. */
  | 'not_json'
  /** Arrays/objects nest deeper than MAX_JSON_DEPTH (checked before parsing): serve a flatter document. */
  | 'too_deep';

const CODE_OF: Record<SafeFetchReason, SafeFetchErrorCode> = {
  invalid_url: 'invalid_profile_url',
  unsupported_scheme: 'invalid_profile_url',
  userinfo: 'invalid_profile_url',
  insecure_http: 'invalid_profile_url',
  refused_address: 'invalid_profile_url',
  unresolvable: 'invalid_profile_url',
  dns_failure: 'profile_unreachable',
  connect_failed: 'profile_unreachable',
  tls_failed: 'profile_unreachable',
  timeout: 'profile_unreachable',
  redirect: 'profile_unreachable',
  http_status: 'profile_unreachable',
  too_large: 'profile_unreachable',
  unexpected_not_modified: 'profile_unreachable',
  rate_limited: 'profile_unreachable',
  client_rate_limited: 'profile_unreachable',
  backing_off: 'profile_unreachable',
  busy: 'profile_unreachable',
  content_type: 'profile_malformed',
  not_json: 'profile_malformed',
  too_deep: 'profile_malformed',
};

/** Reasons that say nothing about the origin's health (self-imposed limits): no back-off for them. */
const SELF_IMPOSED: ReadonlySet<SafeFetchReason> = new Set(['rate_limited', 'client_rate_limited', 'backing_off', 'busy']);

/**
 * A refused or failed fetch. `message` is written for the operator and may name
 * the resolved address; wire errors must be built from `ucpCode`/`reason`, never
 * from `message` (see profile-resolver.ts).
 */
export class SafeFetchError extends Error {
  readonly ucpCode: SafeFetchErrorCode;
  /** HTTP status, for `http_status`, `redirect` and `unexpected_not_modified`. */
  readonly status: number | undefined;
  /** For `rate_limited` / `backing_off`: ms until a retry could be admitted. */
  readonly retryAfterMs: number | undefined;

  constructor(
    readonly reason: SafeFetchReason,
    message: string,
    options: { cause?: unknown; status?: number; retryAfterMs?: number } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SafeFetchError';
    this.ucpCode = CODE_OF[reason];
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** Response headers as undici delivers them: lower-case names. */
export type ResponseHeaders = Readonly<Record<string, string | string[] | undefined>>;

// Defined beside the pinning they describe; re-exported because callers know them from here.
export type { ConnectAttempt, Resolver } from './pinned-agent.js';

export interface SafeFetcherOptions {
  /** Local development only: allow loopback targets, and plain http to them. */
  allowLoopback?: boolean;
  /**
   * DNS resolver; default DNS queries over the network (network-resolver.ts), never libuv's
   * thread pool, so stalled lookups cannot starve the rest of the process (with `allowLoopback`,
   * a name DNS does not know is also looked up in /etc/hosts, for development host names).
   */
  resolve?: Resolver;
  /** DNS servers for the default resolver (`"127.0.0.1:5353"`…); default the system's. */
  dnsServers?: readonly string[];
  /** Trusted CA certificate(s) in PEM, replacing the system roots (tests, private PKI). */
  ca?: string | Buffer | readonly (string | Buffer)[];
  /** TCP + TLS handshake bound, ms. Default 2000. */
  connectTimeoutMs?: number;
  /** Whole-fetch deadline (DNS, connect, headers, body), ms. Default 5000. */
  totalTimeoutMs?: number;
  /** Largest body accepted, bytes. Default 256 KiB (R-N4 requires ≥ 128 KiB). */
  maxBodyBytes?: number;
  /** Clock for cache, rate limit and back-off, ms since the epoch. */
  now?: () => number;
  /** Document cache; default an in-process LRU of `cacheEntries` entries. */
  cache?: CacheBackend;
  /** Size of the default cache. Default 1000. */
  cacheEntries?: number;
  /** Byte bound of the default cache (estimated size of the parsed documents). Default 32 MiB. */
  cacheBytes?: number;
  freshness?: Partial<FreshnessPolicy>;
  /** Pre-approved documents by URL: served without any fetch. */
  registry?: ReadonlyMap<string, unknown> | Readonly<Record<string, unknown>>;
  /** Global budget for fetching origins not seen recently. Default 20 burst, 2/s; `null`: no budget. */
  newOriginRate?: TokenBucketRule | null;
  /**
   * Fraction (0–1] of the new-origin budget (burst and refill) one client network may spend, so
   * one client cannot lock every new Platform out (see new-origin-budget.ts). Default 0.25; 0
   * turns the per-client share off.
   */
  newOriginClientShare?: number;
  rateLimitBackend?: RateLimitBackend;
  /** An origin counts as "seen recently" this long after a successful fetch, ms. Default 15 min. */
  recentOriginMs?: number;
  /** Per-origin back-off after failures. Default 1 s doubling up to 5 min. */
  backoff?: Omit<BackoffOptions, 'now'>;
  /** Network fetches running at once. Default 8. */
  maxConcurrent?: number;
  /** Network fetches running at once to one origin; the others wait without holding a slot. Default 2. */
  maxConcurrentPerOrigin?: number;
  /**
   * Network fetches (DNS lookups included) running at once for one client network; the others
   * wait without holding a slot. Default a quarter of `maxConcurrent`, at least 1.
   */
  maxConcurrentPerClient?: number;
  /** Fetches one client network may have waiting; beyond that, refused as `busy`. Default 8. */
  maxQueuedPerClient?: number;
  /** Fetches allowed to wait for a slot; beyond that, refused as `busy`. Default 64. */
  maxQueued?: number;
  /** Called just before each connection; throwing aborts it (observability, test seatbelts). */
  onConnect?: (attempt: ConnectAttempt) => void;
  /** Failures of background (stale-while-revalidate) refreshes, which no caller awaits. */
  onBackgroundError?: (error: SafeFetchError, url: string) => void;
  userAgent?: string;
}

export type DocumentSource = 'registry' | 'cache' | 'stale' | 'network' | 'revalidated';

export interface FetchedDocument {
  /** Normalised URL (WHATWG serialisation, fragment removed): the cache key. */
  url: string;
  /** Parsed JSON. Shared with the cache: treat as read-only. */
  body: unknown;
  source: DocumentSource;
  /** Fresh until, ms; absent for registry documents. */
  expiresAt?: number;
}

/** One uncached network response, as `fetchDocument` returns it. */
export interface FetchedResponse {
  url: string;
  /** 200–299, or 304 when a conditional request was answered "not modified". */
  status: number;
  headers: ResponseHeaders;
  /** Parsed JSON; undefined for 304. */
  body: unknown;
}

/** Who a fetch is for, so each client spends only its share of the discovery budget. */
export interface FetchContext {
  /** The caller's identity (its address); absent for background work. */
  client?: string | undefined;
}

export interface Validators {
  etag?: string;
  lastModified?: string;
}

const MAX_URL_LENGTH = 2048;

/** 20 new origins at once, then 2 per second. */
const DEFAULT_NEW_ORIGIN_RATE: TokenBucketRule = { kind: 'token-bucket', capacity: 20, refillPerSecond: 2 };

export class SafeFetcher {
  readonly #allowLoopback: boolean;
  readonly #resolve: Resolver;
  readonly #ca: string | Buffer | (string | Buffer)[] | undefined;
  readonly #connectTimeoutMs: number;
  readonly #totalTimeoutMs: number;
  readonly #maxBodyBytes: number;
  readonly #now: () => number;
  readonly #cache: CacheBackend;
  readonly #freshness: FreshnessPolicy;
  readonly #registry: ReadonlyMap<string, unknown>;
  readonly #newOrigins: NewOriginBudget | undefined;
  readonly #recentOriginMs: number;
  readonly #recentOrigins = new LruMap<string, number>(10_000);
  readonly #backoff: FailureBackoff;
  readonly #gate: Gate;
  readonly #inFlight = new Map<string, Promise<FetchedDocument>>();
  readonly #onConnect: ((attempt: ConnectAttempt) => void) | undefined;
  readonly #onBackgroundError: ((error: SafeFetchError, url: string) => void) | undefined;
  readonly #userAgent: string;

  constructor(options: SafeFetcherOptions = {}) {
    this.#allowLoopback = options.allowLoopback === true;
    const network = networkResolver(options.dnsServers === undefined ? {} : { servers: options.dnsServers });
    this.#resolve = options.resolve ?? (this.#allowLoopback ? withSystemFallback(network) : network);
    this.#ca =
      options.ca === undefined ? undefined : typeof options.ca === 'string' || Buffer.isBuffer(options.ca) ? options.ca : [...options.ca];
    this.#connectTimeoutMs = positive(options.connectTimeoutMs ?? 2_000, 'connectTimeoutMs');
    this.#totalTimeoutMs = positive(options.totalTimeoutMs ?? 5_000, 'totalTimeoutMs');
    this.#maxBodyBytes = positive(options.maxBodyBytes ?? 256 * 1024, 'maxBodyBytes');
    this.#now = options.now ?? Date.now;
    this.#cache =
      options.cache ??
      new MemoryCacheBackend({
        maxEntries: options.cacheEntries ?? 1_000,
        ...(options.cacheBytes === undefined ? {} : { maxBytes: options.cacheBytes }),
      });
    this.#freshness = { ...DEFAULT_FRESHNESS, ...options.freshness };
    this.#registry = normaliseRegistry(options.registry);
    const rule = options.newOriginRate === undefined ? DEFAULT_NEW_ORIGIN_RATE : options.newOriginRate;
    const share = options.newOriginClientShare ?? 0.25;
    if (!(share >= 0 && share <= 1)) throw new ConfigError(`newOriginClientShare must be between 0 and 1, got ${String(share)}`);
    this.#newOrigins =
      rule === null ? undefined : new NewOriginBudget({ rule, clientShare: share, backend: options.rateLimitBackend, now: this.#now });
    this.#recentOriginMs = options.recentOriginMs ?? 15 * 60_000;
    this.#backoff = new FailureBackoff({ ...options.backoff, now: this.#now });
    const maxConcurrent = positive(options.maxConcurrent ?? 8, 'maxConcurrent');
    this.#gate = new Gate({
      maxConcurrent,
      maxPerOrigin: positive(options.maxConcurrentPerOrigin ?? 2, 'maxConcurrentPerOrigin'),
      maxPerClient: positive(options.maxConcurrentPerClient ?? Math.max(1, Math.floor(maxConcurrent / 4)), 'maxConcurrentPerClient'),
      maxQueued: options.maxQueued ?? 64,
      maxQueuedPerClient: options.maxQueuedPerClient ?? 8,
    });
    this.#onConnect = options.onConnect;
    this.#onBackgroundError = options.onBackgroundError;
    this.#userAgent = options.userAgent ?? 'ucp-location (UCP discovery)';
  }

  /**
   * A discovery document by URL: registry → fresh cache → stale cache (with one
   * background refresh) → network (collapsed with concurrent callers, gated by
   * back-off, the new-origin budget and the concurrency bound).
   */
  async get(input: string, context: FetchContext = {}): Promise<FetchedDocument> {
    const url = parseFetchUrl(input, this.#allowLoopback);
    const key = url.href;
    if (this.#registry.has(key)) return { url: key, body: this.#registry.get(key), source: 'registry' };

    const cached = await this.#cache.get(key);
    const now = this.#now();
    if (cached && now < cached.expiresAt) return fromCache(key, cached, 'cache');
    if (cached && now < cached.staleUntil) {
      // One background refresh per URL: later stale hits join it silently (no duplicate reports).
      if (!this.#inFlight.has(key)) {
        this.#collapsed(key, url, cached).catch((error: unknown) => {
          if (error instanceof SafeFetchError && !SELF_IMPOSED.has(error.reason)) this.#onBackgroundError?.(error, key);
        });
      }
      return fromCache(key, cached, 'stale');
    }
    return this.#collapsed(key, url, cached, context.client);
  }

  /** Settles once no fetch is in flight (tests, graceful shutdown). */
  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight.values()]);
  }

  /**
   * One guarded network fetch, with no cache, registry, rate limit or back-off
   * (for conformance checks, which also need the response headers). All URL,
   * address, timeout, size and JSON rules apply.
   */
  async fetchDocument(input: string, validators: Validators = {}): Promise<FetchedResponse> {
    return this.#fetchNetwork(parseFetchUrl(input, this.#allowLoopback), validators);
  }

  #collapsed(key: string, url: URL, cached: CachedDocument | undefined, client?: string): Promise<FetchedDocument> {
    const running = this.#inFlight.get(key);
    if (running) return running;
    const promise = this.#refresh(key, url, cached, client).finally(() => this.#inFlight.delete(key));
    this.#inFlight.set(key, promise);
    return promise;
  }

  async #refresh(key: string, url: URL, cached: CachedDocument | undefined, client?: string): Promise<FetchedDocument> {
    const origin = url.origin;
    try {
      const waitMs = this.#backoff.waitMs(origin);
      if (waitMs > 0) {
        throw new SafeFetchError(
          'backing_off',
          `Not fetching ${key}: ${origin} failed recently; retrying is allowed in ${Math.ceil(waitMs / 1000)} s`,
          {
            retryAfterMs: waitMs,
          },
        );
      }
      // An IP literal is checked at once: refused on its address, it costs nothing. A host name
      // costs a lookup, which is outbound traffic a stranger chose: it spends the new-origin
      // budget and runs inside a fetch slot, under the fetch's deadline (see network-resolver.ts).
      if (isIpLiteral(url.hostname)) await this.#pickAddress(url);
      if (!this.#seenRecently(origin)) await this.#spendNewOriginBudget(key, client);
      const network = client === undefined ? undefined : clientNetwork(client);
      const response = await this.#gate.run(origin, network, () => this.#fetchNetwork(url, validatorsOf(cached)));
      const now = this.#now();
      // A 304 (only possible when we sent validators, hence had an entry) renews the stored
      // document; RFC 9111 §4.3.4: the 304's own headers update the stored ones.
      const renewed = response.status === 304 ? cached : undefined;
      const entry = cacheEntry(
        renewed ? renewed.body : response.body,
        {
          cacheControl: parseCacheControl(response.headers['cache-control']),
          etag: header(response.headers, 'etag') ?? renewed?.etag,
          lastModified: header(response.headers, 'last-modified') ?? renewed?.lastModified,
        },
        now,
        this.#freshness,
      );
      await this.#cache.set(key, entry);
      this.#backoff.recordSuccess(origin);
      this.#recentOrigins.set(origin, now);
      return fromCache(key, entry, renewed ? 'revalidated' : 'network');
    } catch (error) {
      // Only the origin's own failures count; a refused URL or our own limits say nothing about it,
      // and other errors (e.g. a cache backend down) are ours, rethrown as they are.
      if (error instanceof SafeFetchError && error.ucpCode !== 'invalid_profile_url' && !SELF_IMPOSED.has(error.reason)) {
        this.#backoff.recordFailure(origin);
      }
      throw error;
    }
  }

  /** The client network's share first (so one client's flood stops there), then the global budget. */
  async #spendNewOriginBudget(key: string, client: string | undefined): Promise<void> {
    const refusal = await this.#newOrigins?.spend(client);
    if (refusal === undefined) return;
    const seconds = Math.ceil(refusal.retryAfterMs / 1000);
    throw refusal.reason === 'client_rate_limited'
      ? new SafeFetchError(
          'client_rate_limited',
          `Not fetching ${key}: client ${String(client)} (network ${refusal.network}) spent its share of the discovery budget for new origins; retry in ${seconds} s`,
          { retryAfterMs: refusal.retryAfterMs },
        )
      : new SafeFetchError('rate_limited', `Not fetching ${key}: the discovery budget for new origins is spent; retry in ${seconds} s`, {
          retryAfterMs: refusal.retryAfterMs,
        });
  }

  #seenRecently(origin: string): boolean {
    const at = this.#recentOrigins.get(origin);
    return at !== undefined && this.#now() - at <= this.#recentOriginMs;
  }

  /** Resolves, checks and fetches, all under one deadline (the lookup is cancelled with it). */
  async #fetchNetwork(url: URL, validators: Validators): Promise<FetchedResponse> {
    const shown = url.href;
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), this.#totalTimeoutMs);
    let agent: Agent | undefined;
    try {
      const target = await withDeadline(this.#pickAddress(url, deadline.signal), deadline.signal, () => this.#timeoutError(shown));
      // Connections are never reused across fetches, so one connection without pipelining suffices.
      agent = pinnedAgent(target, {
        connectTimeoutMs: this.#connectTimeoutMs,
        ca: this.#ca,
        onConnect: this.#onConnect,
        singleConnection: true,
      });
      const headers: Record<string, string> = {
        accept: 'application/json',
        'accept-encoding': 'identity',
        'user-agent': this.#userAgent,
      };
      if (validators.etag !== undefined) headers['if-none-match'] = validators.etag;
      if (validators.lastModified !== undefined) headers['if-modified-since'] = validators.lastModified;

      let response: Awaited<ReturnType<typeof request>>;
      try {
        response = await request(url, {
          method: 'GET',
          dispatcher: agent,
          headers,
          signal: deadline.signal,
          headersTimeout: this.#totalTimeoutMs,
          bodyTimeout: this.#totalTimeoutMs,
        });
      } catch (error) {
        throw deadline.signal.aborted ? this.#timeoutError(shown, error) : classifyTransportError(shown, error);
      }

      const { statusCode: status, headers: responseHeaders, body } = response;
      // Bodies we abandon are destroyed, which emits an abort error nobody else awaits.
      body.on('error', () => undefined);
      if (status === 304) {
        body.destroy();
        if (validators.etag === undefined && validators.lastModified === undefined) {
          throw new SafeFetchError('unexpected_not_modified', `${shown} answered 304 to an unconditional request`, { status });
        }
        return { url: shown, status, headers: responseHeaders, body: undefined };
      }
      if (status >= 300 && status < 400) {
        body.destroy();
        throw new SafeFetchError(
          'redirect',
          `${shown} answered ${status} (a redirect); discovery documents must be served directly, redirects are never followed`,
          { status },
        );
      }
      if (status < 200 || status >= 300) {
        body.destroy();
        throw new SafeFetchError('http_status', `${shown} answered HTTP ${status}; expected 200`, { status });
      }
      checkContentType(shown, header(responseHeaders, 'content-type'), body);
      const announced = Number(header(responseHeaders, 'content-length'));
      if (Number.isFinite(announced) && announced > this.#maxBodyBytes) {
        body.destroy();
        throw new SafeFetchError('too_large', `${shown} announces ${announced} bytes; the limit is ${this.#maxBodyBytes}`);
      }

      const bytes = await readCappedBody(body, this.#maxBodyBytes, {
        tooLarge: () => new SafeFetchError('too_large', `${shown} sent more than ${this.#maxBodyBytes} bytes; the transfer was aborted`),
        failed: (error) => (deadline.signal.aborted ? this.#timeoutError(shown, error) : classifyTransportError(shown, error)),
      });
      return { url: shown, status, headers: responseHeaders, body: parseJson(shown, bytes) };
    } finally {
      clearTimeout(timer);
      // Connections are never reused across fetches: each is pinned to one checked address.
      if (agent) void agent.destroy().catch(() => undefined);
    }
  }

  /** Resolves once, checks every address, returns the one to pin to. */
  #pickAddress(url: URL, signal?: AbortSignal): Promise<PinnedTarget> {
    const refusals: PinRefusals = {
      lookupFailed: (hostname, error) => {
        const code = errorCodeOf(error);
        // "Unresolvable" is an invalid URL (overview error table); a lookup that merely failed is unreachable.
        if (code === 'ENOTFOUND' || code === 'ENODATA') {
          return new SafeFetchError('unresolvable', `${url.href}: the host name ${hostname} does not resolve`, { cause: error });
        }
        return new SafeFetchError(
          'dns_failure',
          `${url.href}: resolving ${hostname} failed (${code === '' ? causeMessage(error) : code})`,
          { cause: error },
        );
      },
      noAddress: (hostname) => new SafeFetchError('unresolvable', `${url.href}: the host name ${hostname} has no address`),
      refused: (hostname, verdict) => {
        const via = verdict.via ? ` via ${verdict.via}` : '';
        return new SafeFetchError(
          'refused_address',
          `${url.href}: ${hostname} resolves to ${verdict.address} (${verdict.range}${via}), a special-use address; discovery URLs must resolve only to public addresses`,
        );
      },
      plainHttp: () =>
        new SafeFetchError('insecure_http', `${url.href}: plain http is allowed only for loopback development targets; use https`),
    };
    return pickPinnedAddress(url, { allowLoopback: this.#allowLoopback, resolve: this.#resolve, signal }, refusals);
  }

  #timeoutError(url: string, cause?: unknown): SafeFetchError {
    return new SafeFetchError('timeout', `${url} did not answer within ${this.#totalTimeoutMs} ms`, cause === undefined ? {} : { cause });
  }
}

/** Validates a discovery URL's syntax before any I/O; returns it without fragment. */
export function parseFetchUrl(input: string, allowLoopback = false): URL {
  if (typeof input !== 'string') throw new SafeFetchError('invalid_url', `Expected a URL string, got ${typeof input}`);
  const shown = input.length > 120 ? `${input.slice(0, 120)}…` : input;
  if (input.length === 0 || input.length > MAX_URL_LENGTH) {
    throw new SafeFetchError(
      'invalid_url',
      `Not a usable URL (empty or longer than ${MAX_URL_LENGTH} characters): ${JSON.stringify(shown)}`,
    );
  }
  let url: URL;
  try {
    url = new URL(input);
  } catch (error) {
    throw new SafeFetchError('invalid_url', `Not an absolute URL: ${JSON.stringify(shown)}; expected https://host/path`, { cause: error });
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowLoopback)) {
    const reason = url.protocol === 'http:' ? 'insecure_http' : 'unsupported_scheme';
    throw new SafeFetchError(reason, `${JSON.stringify(shown)} uses ${url.protocol.slice(0, -1)}; discovery URLs must use https`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new SafeFetchError('userinfo', `${JSON.stringify(shown)} contains credentials (user@host); discovery URLs must not`);
  }
  url.hash = '';
  return url;
}

const JSON_TYPE = /^application\/(?:[a-z0-9!#$&^_.+-]+\+)?json$/;

function checkContentType(url: string, contentType: string | undefined, body: { destroy(): unknown }): void {
  // Missing type (and any charset parameter) are tolerated: the body must still parse as JSON.
  if (contentType === undefined || contentType.trim() === '') return;
  const mediaType = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  if (JSON_TYPE.test(mediaType)) return;
  body.destroy();
  throw new SafeFetchError('content_type', `${url} is served as ${mediaType}; expected application/json`);
}

function parseJson(url: string, bytes: Buffer): unknown {
  // Checked on the bytes before parsing: a deeply nested profile under the size cap would
  // otherwise overflow the recursive validators that read it next (on every call naming it).
  if (exceedsJsonDepth(bytes)) {
    throw new SafeFetchError(
      'too_deep',
      `${url} nests arrays/objects more than ${MAX_JSON_DEPTH} levels deep; no UCP profile needs that many`,
    );
  }
  let text = bytes.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SafeFetchError('not_json', `${url} did not return valid JSON (${causeMessage(error)})`, { cause: error });
  }
}

const TLS_CODES = /CERT|SSL|TLS|SELF_SIGNED|ALTNAME|UNABLE_TO_(?:GET|VERIFY)/;

function classifyTransportError(url: string, error: unknown): SafeFetchError {
  if (error instanceof SafeFetchError) return error;
  const code = errorCodeOf(error);
  const text = `${code} ${error instanceof Error ? error.message : String(error)}`;
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new SafeFetchError('timeout', `${url} timed out (${code})`, { cause: error });
  }
  if (TLS_CODES.test(code)) return new SafeFetchError('tls_failed', `${url}: TLS failed (${text.trim()})`, { cause: error });
  return new SafeFetchError('connect_failed', `${url}: connection failed (${text.trim()})`, { cause: error });
}

function withDeadline<T>(work: Promise<T>, signal: AbortSignal, onTimeout: () => Error): Promise<T> {
  if (signal.aborted) return Promise.reject(onTimeout());
  return new Promise<T>((resolve, reject) => {
    const abort = (): void => reject(onTimeout());
    signal.addEventListener('abort', abort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(error);
      },
    );
  });
}

function header(headers: ResponseHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Conditional-request validators of a cached entry, if any. */
function validatorsOf(entry: CachedDocument | undefined): Validators {
  return {
    ...(entry?.etag !== undefined ? { etag: entry.etag } : {}),
    ...(entry?.lastModified !== undefined ? { lastModified: entry.lastModified } : {}),
  };
}

function fromCache(url: string, entry: CachedDocument, source: DocumentSource): FetchedDocument {
  return { url, body: entry.body, source, expiresAt: entry.expiresAt };
}

/**
 * The cache and registry key of a URL: its WHATWG serialisation without fragment,
 * so `HTTPS://Host:443/p#x` and `https://host/p` are one document. Throws a
 * `TypeError` when `raw` is not an absolute URL.
 */
export function documentKey(raw: string): string {
  const url = new URL(raw);
  url.hash = '';
  return url.href;
}

/** `instanceof Map` narrows a ReadonlyMap to Map<any, any>; this keeps the entries typed. */
export function isRegistryMap(registry: SafeFetcherOptions['registry']): registry is ReadonlyMap<string, unknown> {
  return registry instanceof Map;
}

function normaliseRegistry(registry: SafeFetcherOptions['registry']): ReadonlyMap<string, unknown> {
  const entries: [string, unknown][] = isRegistryMap(registry) ? [...registry.entries()] : Object.entries(registry ?? {});
  const out = new Map<string, unknown>();
  for (const [raw, body] of entries) {
    try {
      out.set(documentKey(raw), body);
    } catch (error) {
      throw new ConfigError(`Pre-approved registry key is not an absolute URL: ${JSON.stringify(raw)}`, { cause: error });
    }
  }
  return out;
}

function positive(value: number, name: string): number {
  if (!Number.isFinite(value) || value <= 0) throw new ConfigError(`${name} must be a positive number, got ${String(value)}`);
  return value;
}

/** Fetch slots beyond `maxConcurrent` that only a client with no fetch running may take. */
const RESERVED_FOR_NEWCOMERS = 2;

/**
 * Bounds concurrent network fetches (DNS lookup included), overall, per origin and per client
 * network. A fetch whose origin or client already has its share running waits without holding a
 * slot, so slow origins — or one client's many never-answering ones — hold at most their share
 * of the slots; two more slots are kept for clients with nothing running, and when a slot frees
 * the waiting client with the fewest fetches running goes first. Full wait queues
 * (overall, or the client's own) refuse instead of growing. Fetches without a client (background
 * refreshes) are bounded per origin only.
 */
class Gate {
  #running = 0;
  readonly #perOrigin = new Map<string, number>();
  readonly #perClient = new Map<string, number>();
  readonly #queuedPerClient = new Map<string, number>();
  readonly #waiting: { origin: string; client: string | undefined; start: () => void }[] = [];

  constructor(
    readonly limits: {
      maxConcurrent: number;
      maxPerOrigin: number;
      maxPerClient: number;
      maxQueued: number;
      maxQueuedPerClient: number;
    },
  ) {}

  async run<T>(origin: string, client: string | undefined, work: () => Promise<T>): Promise<T> {
    if (this.#canStart(origin, client)) {
      this.#take(origin, client);
    } else {
      const queued = client === undefined ? 0 : (this.#queuedPerClient.get(client) ?? 0);
      if (this.#waiting.length >= this.limits.maxQueued || queued >= this.limits.maxQueuedPerClient) {
        throw new SafeFetchError(
          'busy',
          `Too many discovery fetches in progress (${this.#running} running, ${this.#waiting.length} waiting${client === undefined ? '' : `, ${queued} of them for ${client}`}); retry shortly`,
        );
      }
      if (client !== undefined) bump(this.#queuedPerClient, client, 1);
      // The slot is taken on our behalf before `start` is called (see #release).
      await new Promise<void>((start) => this.#waiting.push({ origin, client, start }));
    }
    try {
      return await work();
    } finally {
      this.#release(origin, client);
    }
  }

  #canStart(origin: string, client: string | undefined): boolean {
    const mine = client === undefined ? 0 : (this.#perClient.get(client) ?? 0);
    // Two slots beyond the limit are kept for clients with nothing running: however many
    // addresses hold the others, a Platform new to us starts at once.
    const limit = client !== undefined && mine === 0 ? this.limits.maxConcurrent + RESERVED_FOR_NEWCOMERS : this.limits.maxConcurrent;
    return (
      this.#running < limit &&
      (this.#perOrigin.get(origin) ?? 0) < this.limits.maxPerOrigin &&
      (client === undefined || mine < this.limits.maxPerClient)
    );
  }

  #take(origin: string, client: string | undefined): void {
    this.#running += 1;
    bump(this.#perOrigin, origin, 1);
    if (client !== undefined) bump(this.#perClient, client, 1);
  }

  #release(origin: string, client: string | undefined): void {
    this.#running -= 1;
    bump(this.#perOrigin, origin, -1);
    if (client !== undefined) bump(this.#perClient, client, -1);
    // Among the waiters whose origin and client have room, the client with the fewest fetches
    // running goes first (then first come, first served): a Platform new to us does not queue
    // behind the many lookups of clients that already hold slots.
    while (this.#running < this.limits.maxConcurrent + RESERVED_FOR_NEWCOMERS) {
      let best = -1;
      let fewest = Number.POSITIVE_INFINITY;
      this.#waiting.forEach((waiter, i) => {
        const running = waiter.client === undefined ? 0 : (this.#perClient.get(waiter.client) ?? 0);
        if (running < fewest && this.#canStart(waiter.origin, waiter.client)) {
          best = i;
          fewest = running;
        }
      });
      const [waiter] = best === -1 ? [] : this.#waiting.splice(best, 1);
      if (waiter === undefined) break;
      if (waiter.client !== undefined) bump(this.#queuedPerClient, waiter.client, -1);
      this.#take(waiter.origin, waiter.client);
      waiter.start();
    }
  }
}

/** Adds `delta` to a counter, removing it at zero (the maps hold only live keys). */
function bump(counts: Map<string, number>, key: string, delta: number): void {
  const next = (counts.get(key) ?? 0) + delta;
  if (next <= 0) counts.delete(key);
  else counts.set(key, next);
}
