/**
 * `UcpLocationClient`: the Platform side of UCP Location. `discover` does discovery and
 * negotiation once (profiles, authority binding, version, capability intersection, transport,
 * schema composition); `search`, `searchAll` and `lookup` then call the Business, validating
 * every request before it leaves and every response before it is returned.
 */
import { readFileSync } from 'node:fs';
import { parentsOf, type ActiveCapabilities, type DroppedCapability } from '../protocol/negotiation.js';
import { SafeFetcher, isRegistryMap, type SafeFetcherOptions } from '../protocol/safe-fetch.js';
import type { UcpProfile } from '../protocol/types.js';
import type { LookupRequest, LookupResponse, SearchRequest, SearchResponse } from '../domain/requests.js';
import type { BindingName, CallerOptions, Operation, OperationCaller } from './caller.js';
import { discover, type DiscoveryResult } from './discovery.js';
import { openEndpointAgent, type EndpointAgent } from './endpoint-agent.js';
import { TransportUnavailableError, UcpClientError } from './errors.js';
import { batchLimitMessage, distinctIds, mergeLookupResponses, processedCount } from './lookup-batches.js';
import { McpCaller } from './mcp-caller.js';
import { MessageSignatures } from './message-signatures.js';
import type { SigningKey } from '../protocol/signatures/index.js';
import {
  operationUnavailable,
  serviceBindingFailure,
  type EntityVerdict,
  type NegotiationDecision,
  type RejectedEntityReport,
  type TransportOffer,
} from './negotiate.js';
import { PayloadSchemas } from './payload-schemas.js';
import { RestCaller } from './rest-caller.js';

export type TransportPreference = 'auto' | BindingName;

export interface TrustOptions {
  /** Schema documents trusted out of band (URL → document): used instead of fetching them. */
  preApprovedSchemas?: Readonly<Record<string, object>>;
  /** Profiles trusted out of band (URL → document): used instead of fetching them. */
  preApprovedProfiles?: Readonly<Record<string, unknown>>;
}

export interface DiscoverOptions {
  /** URL of this Platform's profile; the Business fetches it on every request (R-G1, R-G2). */
  platformProfileUrl: string;
  /** The document published at `platformProfileUrl`, when at hand (otherwise it is fetched). */
  platformProfile?: unknown;
  /**
   * Fetch safety for profiles, schemas and endpoints: `allowLoopback` (local development only),
   * `resolve`, `ca`, timeouts, limits. Applies to every connection the client opens.
   */
  fetch?: SafeFetcherOptions;
  /** A fetcher to share (its own options apply to discovery documents). */
  fetcher?: SafeFetcher;
  trust?: TrustOptions;
  /** `auto` (default): MCP when both sides offer it, else REST; or force one. */
  transport?: TransportPreference;
  /** Deadline per call to the Business, ms. Default 30000. */
  callTimeoutMs?: number;
  /** The Business's lookup batch maximum, when known; otherwise learnt from `batch_limit_applied`. */
  lookupBatchLimit?: number;
  userAgent?: string;
  /**
   * This Platform's signing key (`loadSigningKeyFile(path).signing`): every request to the Business
   * is signed with it per RFC 9421 (R-SIG2). Its public part must be listed in the `keys[]` of the
   * Platform profile the Business fetches, or the Business answers `key_not_found`.
   */
  signingKey?: SigningKey;
  /**
   * Refuse a successful answer that carries no signature from a Business that publishes keys (and
   * refuse, at discovery, a Business that publishes none). Without it, unsigned answers are
   * accepted, since the draft makes answer signatures optional for read-only queries; a signature
   * that is present is always verified.
   */
  requireBusinessSignatures?: boolean;
  /** The clock for signatures, ms since the epoch (tests pin it). Default `Date.now`. */
  now?: () => number;
}

/** What discovery settled, for display and decisions. */
export interface NegotiatedState {
  /** The negotiated release. */
  version: string;
  /** Releases the Business offers, newest first. */
  businessVersions: readonly string[];
  businessProfileUrl: string;
  /** Set when an older release was reached through `supported_versions`. */
  leafProfileUrl: string | undefined;
  platformProfileUrl: string;
  /** Active capabilities: name → the Business's entry of the selected version. */
  capabilities: ActiveCapabilities;
  /** Business capabilities that did not survive the intersection, and why. */
  dropped: readonly DroppedCapability[];
  /** Entries removed from either profile (never activated), binding failures flagged. */
  rejected: readonly RejectedEntityReport[];
  /** Every declared entity of both profiles with its authority-binding verdict. */
  entities: readonly EntityVerdict[];
  /** Bindings both sides can use, MCP first. */
  transports: readonly TransportOffer[];
  /** The binding in use. */
  transport: BindingName;
  endpoint: string;
  /** Why the preferred binding was not used, when the client fell back. */
  transportNote: string | undefined;
}

export interface SearchOptions {
  cursor?: string;
  limit?: number;
}

/** Lookup refinements: everything of a lookup request but the ids. */
export type LookupRefinements = Omit<LookupRequest, 'ids'>;

const PACKAGE_VERSION = readPackageVersion();

export class UcpLocationClient {
  #lookupBatchLimit: number | undefined;

  private constructor(
    readonly negotiated: NegotiatedState,
    /** The Business profile as published at /.well-known/ucp (invalid entries removed). */
    readonly businessProfile: UcpProfile,
    /** This Platform's profile as negotiated. */
    readonly platformProfile: UcpProfile,
    private readonly discovery: DiscoveryResult,
    private readonly schemas: PayloadSchemas,
    private readonly caller: OperationCaller,
    private readonly agents: readonly EndpointAgent[],
    lookupBatchLimit: number | undefined,
  ) {
    this.#lookupBatchLimit = lookupBatchLimit;
  }

  /** The lookup batch maximum in use (configured, or learnt from the Business). */
  get lookupBatchLimit(): number | undefined {
    return this.#lookupBatchLimit;
  }

  /**
   * Discovers the Business at `businessUrl` (its origin's `/.well-known/ucp`) and negotiates with
   * it. Throws a `UcpClientError` subclass whose `code` names the failure.
   */
  static async discover(businessUrl: string, options: DiscoverOptions): Promise<UcpLocationClient> {
    const fetchOptions = options.fetch ?? {};
    const allowLoopback = fetchOptions.allowLoopback === true;
    if (options.lookupBatchLimit !== undefined && (!Number.isSafeInteger(options.lookupBatchLimit) || options.lookupBatchLimit < 1)) {
      throw new RangeError(`lookupBatchLimit must be a positive integer, got ${options.lookupBatchLimit}`);
    }
    const userAgent = options.userAgent ?? `ucp-location/${PACKAGE_VERSION} (UCP platform client)`;
    const fetcher =
      options.fetcher ??
      new SafeFetcher({
        userAgent,
        ...fetchOptions,
        registry: { ...registryRecord(fetchOptions.registry), ...(options.trust?.preApprovedProfiles ?? {}) },
      });
    const found = await discover({
      businessUrl,
      platformProfileUrl: options.platformProfileUrl,
      ...(options.platformProfile !== undefined ? { platformProfile: options.platformProfile } : {}),
      fetcher,
      allowLoopback,
    });
    // No transport because the service entries failed binding: say so before fetching any schema.
    const lostService = serviceBindingFailure(found.decision);
    if (lostService !== undefined) throw lostService;
    const composed = await PayloadSchemas.compose(found.decision, found.version, {
      fetcher,
      ...(options.trust?.preApprovedSchemas !== undefined ? { preApprovedSchemas: options.trust.preApprovedSchemas } : {}),
    });
    const schemas = composed.schemas;
    // An entity whose schema cannot be had is treated as absent (R-N3), with its reason shown.
    const discovery: DiscoveryResult = { ...found, decision: withoutEntities(found.decision, composed.dropped) };

    const callerOptions: CallerOptions = { timeoutMs: options.callTimeoutMs ?? 30_000, userAgent };
    // Answers are checked against the keys of the profile discovery read (R-SIG3).
    const signatures = new MessageSignatures(
      { profileUrl: discovery.businessProfileUrl, profile: discovery.businessProfile },
      { signingKey: options.signingKey, requireBusinessSignatures: options.requireBusinessSignatures, now: options.now },
    );
    const agentOptions = {
      allowLoopback,
      ...(fetchOptions.resolve !== undefined ? { resolve: fetchOptions.resolve } : {}),
      ...(fetchOptions.ca !== undefined ? { ca: fetchOptions.ca } : {}),
      ...(fetchOptions.connectTimeoutMs !== undefined ? { connectTimeoutMs: fetchOptions.connectTimeoutMs } : {}),
    };
    const picked = await connectTransport(
      discovery.decision.transports,
      options.transport ?? 'auto',
      options.platformProfileUrl,
      callerOptions,
      agentOptions,
      signatures,
    );

    const negotiated: NegotiatedState = {
      version: discovery.version,
      businessVersions: discovery.businessVersions,
      businessProfileUrl: discovery.businessProfileUrl,
      leafProfileUrl: discovery.leafProfileUrl,
      platformProfileUrl: options.platformProfileUrl,
      capabilities: discovery.decision.active,
      dropped: discovery.decision.dropped,
      rejected: discovery.decision.rejected,
      entities: discovery.decision.entities,
      transports: discovery.decision.transports,
      transport: picked.caller.transport,
      endpoint: picked.caller.endpoint,
      transportNote: picked.note,
    };
    return new UcpLocationClient(
      negotiated,
      discovery.businessProfile,
      discovery.platformProfile,
      discovery,
      schemas,
      picked.caller,
      picked.agents,
      options.lookupBatchLimit,
    );
  }

  /** Whether the negotiation activated `operation` (search or lookup). */
  supports(operation: Operation): boolean {
    return operationUnavailable(this.discovery.decision, operation) === undefined;
  }

  /** One page of search results. `cursor`/`limit` go into `pagination` (R-S9). */
  async search(request: SearchRequest = {}, options: SearchOptions = {}): Promise<SearchResponse> {
    const pagination = { ...request.pagination };
    if (options.cursor !== undefined) pagination.cursor = options.cursor;
    if (options.limit !== undefined) pagination.limit = options.limit;
    const payload: SearchRequest = Object.keys(pagination).length > 0 ? { ...request, pagination } : { ...request };
    return (await this.#call('search', payload)) as SearchResponse;
  }

  /**
   * Every page of a search, following cursors until `has_next_page` is false. A Business that
   * hands back a cursor it already gave is answered with an error rather than an endless loop.
   */
  async *searchAll(
    request: SearchRequest = {},
    options: { limit?: number; maxPages?: number } = {},
  ): AsyncGenerator<SearchResponse, void, undefined> {
    const seen = new Set<string>();
    const maxPages = options.maxPages ?? 1_000;
    let cursor: string | undefined = request.pagination?.cursor;
    for (let pages = 0; pages < maxPages; pages++) {
      const page = await this.search(request, {
        ...(cursor !== undefined ? { cursor } : {}),
        ...(options.limit !== undefined ? { limit: options.limit } : {}),
      });
      yield page;
      if (page.pagination?.has_next_page !== true) return;
      const next = page.pagination.cursor;
      if (next === undefined || seen.has(next)) {
        throw new PaginationLoopError(
          `The business returned ${next === undefined ? 'no cursor' : 'a cursor it had already returned'} with has_next_page: true; stopping after ${pages + 1} page(s).`,
        );
      }
      seen.add(next);
      cursor = next;
    }
  }

  /**
   * Looks up `ids` (R-L1…R-L3), splitting them into batches within the Business's limit — the
   * configured one, or the one it states in `batch_limit_applied` — and merging the answers.
   */
  async lookup(ids: readonly string[], refinements: LookupRefinements = {}): Promise<LookupResponse> {
    const all = distinctIds(ids);
    if (all.length === 0) {
      // Let the schema say what is wrong (ids needs at least one entry).
      return (await this.#call('lookup', { ...refinements, ids: [] })) as LookupResponse;
    }
    const responses: LookupResponse[] = [];
    let rest = all;
    while (rest.length > 0) {
      const limit = this.#lookupBatchLimit ?? rest.length;
      const batch = rest.slice(0, limit);
      const response = (await this.#call('lookup', { ...refinements, ids: batch })) as LookupResponse;
      responses.push(response);
      const notice = batchLimitMessage(response);
      if (notice === undefined) {
        rest = rest.slice(batch.length);
        continue;
      }
      const reached = Math.max(0, ...response.locations.flatMap((l) => l.inputs.map((i) => batch.indexOf(i.id) + 1)));
      const processed = processedCount(notice.content, batch.length, reached);
      if (processed === undefined || processed >= batch.length) {
        // Cannot tell how far the Business got: keep its notice so the caller sees ids were skipped.
        return mergeLookupResponses(responses, false);
      }
      // Remaining ids go in batches of the now-known size.
      this.#lookupBatchLimit = processed;
      rest = rest.slice(processed);
    }
    return mergeLookupResponses(responses);
  }

  /** Closes connections to the Business. */
  async close(): Promise<void> {
    await this.caller.close();
    await Promise.all(this.agents.map((a) => a.close()));
  }

  async #call(operation: Operation, payload: unknown): Promise<unknown> {
    const unavailable = operationUnavailable(this.discovery.decision, operation);
    if (unavailable !== undefined) throw unavailable;
    this.schemas.checkRequest(operation, payload);
    const response = await this.caller.call(operation, payload);
    this.schemas.checkResponse(operation, response, this.caller.transport);
    return response;
  }
}

/** searchAll met a cursor loop or a missing cursor. */
export class PaginationLoopError extends UcpClientError {
  readonly code = 'response_invalid' as const;
}

async function connectTransport(
  offers: readonly TransportOffer[],
  preference: TransportPreference,
  profileUrl: string,
  callerOptions: CallerOptions,
  agentOptions: Parameters<typeof openEndpointAgent>[1],
  signatures: MessageSignatures,
): Promise<{ caller: OperationCaller; agents: EndpointAgent[]; note: string | undefined }> {
  const offered = offers.map((o) => o.transport);
  const candidates = preference === 'auto' ? offers : offers.filter((o) => o.transport === preference);
  if (candidates.length === 0) {
    const what =
      preference === 'auto' ? 'an MCP or REST binding of dev.ucp.common' : `a ${preference.toUpperCase()} binding of dev.ucp.common`;
    const has = offered.length > 0 ? ` (usable: ${offered.join(', ')})` : '';
    throw new TransportUnavailableError(
      `The business offers no ${what} for the negotiated release that this platform can use${has}.`,
      offered,
    );
  }
  let note: string | undefined;
  for (const [i, offer] of candidates.entries()) {
    const agent = await openEndpointAgent(offer.endpoint, agentOptions);
    try {
      const caller =
        offer.transport === 'mcp'
          ? await McpCaller.connect(agent, profileUrl, { ...callerOptions, clientVersion: PACKAGE_VERSION }, signatures)
          : new RestCaller(agent, profileUrl, callerOptions, signatures);
      return { caller, agents: [agent], note };
    } catch (error) {
      await agent.close();
      const fallback = candidates[i + 1];
      // Auto mode: an MCP endpoint that cannot even be initialised is worth one REST attempt.
      if (
        fallback === undefined ||
        !(error instanceof UcpClientError) ||
        error.code === 'business_error' ||
        error.code === 'answer_signature_failed'
      )
        throw error;
      note = `${offer.transport.toUpperCase()} at ${offer.endpoint} failed (${error.message}); using ${fallback.transport.toUpperCase()}.`;
    }
  }
  throw new TransportUnavailableError('No binding could be connected.', offered);
}

function registryRecord(registry: SafeFetcherOptions['registry']): Record<string, unknown> {
  if (registry === undefined) return {};
  return isRegistryMap(registry) ? Object.fromEntries(registry) : { ...registry };
}

function readPackageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/**
 * The decision without `dropped` entities and the extensions left orphaned by them (an extension
 * is active only while one of its parents is), each listed in `dropped` with its reason.
 */
function withoutEntities(decision: NegotiationDecision, dropped: readonly DroppedCapability[]): NegotiationDecision {
  if (dropped.length === 0) return decision;
  const active: ActiveCapabilities = { ...decision.active };
  const gone = [...dropped];
  for (const d of dropped) delete active[d.name];
  let pruned = true;
  while (pruned) {
    pruned = false;
    for (const [name, entity] of Object.entries(active)) {
      const parents = parentsOf(entity);
      if (parents.length > 0 && !parents.some((p) => Object.hasOwn(active, p))) {
        delete active[name];
        gone.push({ name, reason: 'orphaned_extension', detail: `every capability it extends was dropped (${parents.join(', ')})` });
        pruned = true;
      }
    }
  }
  return { ...decision, active, dropped: [...decision.dropped, ...gone] };
}
