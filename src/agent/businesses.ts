/**
 * The businesses the bridge talks to, each discovered lazily through the Platform SDK (profiles,
 * authority binding, version, capabilities, transport) on the first call that needs it.
 *
 * Caching follows the overview's rules for profiles: a negotiated business is reused while its
 * profile is fresh (its Cache-Control lifetime, never less than 60 s — the shared SafeFetcher's
 * policy); once stale, the profile is refreshed with its validator — the fetcher serves the stale
 * copy meanwhile (stale-while-revalidate) — and the business is renegotiated when a look at the
 * profile finds a different document. A business that fails discovery is reported with
 * the reason and tried again on a later call (the fetcher's per-origin back-off keeps a dead host
 * from being hammered); it never stops the others.
 */
import { readFileSync } from 'node:fs';
import { canonicalJson } from '../domain/cursor.js';
import type { Location } from '../domain/location.js';
import { SafeFetcher, type Resolver } from '../protocol/safe-fetch.js';
import { UcpLocationClient, type SigningKey } from '../client/index.js';
import type { AgentBusiness } from './config.js';
import { describeFailure, type BusinessFailure } from './errors.js';

export interface DirectoryOptions {
  /** The Platform profile URL businesses fetch (R-G1). */
  platformProfileUrl: string;
  /** The document at that URL, when the bridge serves it itself (then it is not fetched back). */
  platformProfile?: unknown;
  /** Local development: loopback businesses and profiles, plain http to them. */
  allowLoopback: boolean;
  /** DNS resolver for discovery and endpoints (tests, split-horizon DNS). */
  resolve?: Resolver;
  /** PEM CA certificate(s) to trust instead of the system roots. */
  ca?: string | Buffer;
  now?: () => number;
  /** The bridge's signing key: every request to every business is signed (its public part is in the platform profile's keys[]). */
  signingKey?: SigningKey;
  /** Refuse unsigned answers of businesses that publish keys (and businesses that publish none). */
  requireBusinessSignatures?: boolean;
}

export type BusinessStatus = 'ok' | 'unreachable' | 'incompatible' | 'not_contacted';

export interface BusinessReport {
  name: string;
  url: string;
  status: BusinessStatus;
  reason?: string;
  /** Negotiated UCP release. */
  version?: string;
  /** Active capabilities, by UCP name. */
  capabilities: string[];
  /** `mcp` or `rest`: the binding in use. */
  transport?: string;
  /** Amenity ids seen in this business's answers so far, with their descriptions. */
  amenities_seen: { id: string; description: string }[];
}

/** Recheck a business whose profile cannot be revalidated no sooner than this, ms (the overview's TTL floor). */
const MIN_FRESH_MS = 60_000;

/** How the language of descriptions asked without `language` is keyed. */
export const DEFAULT_LANGUAGE_KEY = '';

export class BusinessHandle {
  /** Amenity id → description per language asked (DEFAULT_LANGUAGE_KEY: none asked), as seen in answers. */
  readonly amenities = new Map<string, Map<string, string>>();
  client: UcpLocationClient | undefined;
  /** The profile the client was negotiated from, canonical JSON: a change means renegotiation. */
  profile: string | undefined;
  freshUntil = 0;
  pending: Promise<UcpLocationClient> | undefined;
  failure: BusinessFailure | undefined;

  constructor(readonly config: AgentBusiness) {}

  get name(): string {
    return this.config.name;
  }
}

export class BusinessDirectory {
  readonly #handles: BusinessHandle[];
  readonly #fetcher: SafeFetcher;
  readonly #options: DirectoryOptions;
  readonly #now: () => number;
  readonly #userAgent: string;
  /** Clients replaced after a profile change, closed on shutdown (calls may still be running on them). */
  readonly #retired: UcpLocationClient[] = [];

  constructor(businesses: readonly AgentBusiness[], options: DirectoryOptions) {
    this.#handles = businesses.map((b) => new BusinessHandle(b));
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#userAgent = `ucp-location-agent/${packageVersion()} (UCP platform)`;
    // A business's timeoutMs includes its discovery (docs/agent.md), so the profile fetch may take
    // as long as the most patient business allows, not the fetcher's default 5 s; each business is
    // still cut off at its own timeout by the deadline around its discovery and calls.
    const longest = Math.max(0, ...businesses.map((b) => b.timeoutMs));
    this.#fetcher = new SafeFetcher({
      ...(longest > 0 ? { totalTimeoutMs: longest } : {}),
      allowLoopback: options.allowLoopback,
      userAgent: this.#userAgent,
      now: this.#now,
      ...(options.resolve !== undefined ? { resolve: options.resolve } : {}),
      ...(options.ca !== undefined ? { ca: options.ca } : {}),
      // Failed origins are retried after 1 s, doubling to at most a minute: a bridge is interactive.
      backoff: { baseMs: 1_000, maxMs: 60_000 },
    });
  }

  get all(): readonly BusinessHandle[] {
    return this.#handles;
  }

  /** A business by configured name (any case) or by a URL on its origin. */
  find(nameOrUrl: string): BusinessHandle | undefined {
    const wanted = nameOrUrl.trim();
    const byName = this.#handles.find((h) => h.name.toLowerCase() === wanted.toLowerCase());
    if (byName !== undefined) return byName;
    let origin: string;
    try {
      origin = new URL(wanted).origin;
    } catch {
      return undefined;
    }
    return this.#handles.find((h) => new URL(h.config.url).origin === origin);
  }

  /** "acme (https://…), beta (https://…)": what the model can pass as `business`. */
  describeNames(): string {
    return this.#handles.map((h) => `${h.name} (${h.config.url})`).join(', ');
  }

  /** A negotiated client for `handle`; throws the SDK's error when discovery fails. */
  async client(handle: BusinessHandle): Promise<UcpLocationClient> {
    const current = handle.client;
    if (current !== undefined && this.#now() < handle.freshUntil) return current;
    handle.pending ??= (current === undefined ? this.#discover(handle) : this.#revalidate(handle, current)).finally(() => {
      handle.pending = undefined;
    });
    return handle.pending;
  }

  /**
   * Remembers the amenities of Locations a business returned, per language asked: list_businesses
   * shows them, and an amenity label is matched against every description seen for an id. Bounded
   * in ids, languages per id and description length (a business chooses all three).
   */
  noteLocations(handle: BusinessHandle, locations: readonly Location[], language = DEFAULT_LANGUAGE_KEY): void {
    for (const location of locations) {
      for (const [id, amenity] of Object.entries(location.amenities ?? {})) {
        if (id.length > 256 || typeof amenity.description !== 'string') continue;
        let byLanguage = handle.amenities.get(id);
        if (byLanguage === undefined) {
          if (handle.amenities.size >= 500) return;
          byLanguage = new Map<string, string>();
          handle.amenities.set(id, byLanguage);
        }
        if (byLanguage.size >= 8 && !byLanguage.has(language)) continue;
        byLanguage.set(language, amenity.description.slice(0, 200));
      }
    }
  }

  /** Every description seen per amenity id, any language (for matching labels). */
  knownDescriptions(handle: BusinessHandle): Map<string, Set<string>> {
    return new Map([...handle.amenities].map(([id, byLanguage]) => [id, new Set(byLanguage.values())]));
  }

  /** The business's state; amenity descriptions in `language` where seen in it, else as first seen. */
  report(handle: BusinessHandle, language = DEFAULT_LANGUAGE_KEY): BusinessReport {
    const amenities_seen = [...handle.amenities]
      .map(([id, byLanguage]) => ({ id, description: byLanguage.get(language) ?? [...byLanguage.values()][0] ?? '' }))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const base = { name: handle.name, url: handle.config.url, amenities_seen };
    const client = handle.client;
    if (handle.failure !== undefined) {
      const status: BusinessStatus = handle.failure.kind === 'incompatible' ? 'incompatible' : 'unreachable';
      return { ...base, status, reason: handle.failure.reason, capabilities: [] };
    }
    if (client === undefined) return { ...base, status: 'not_contacted', capabilities: [] };
    const n = client.negotiated;
    return { ...base, status: 'ok', version: n.version, capabilities: Object.keys(n.capabilities), transport: n.transport };
  }

  /** Settles once no profile fetch is running (background refreshes included). */
  async idle(): Promise<void> {
    await this.#fetcher.idle();
  }

  async close(): Promise<void> {
    await this.idle();
    const clients = [...this.#handles.map((h) => h.client), ...this.#retired].filter((c): c is UcpLocationClient => c !== undefined);
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  }

  async #discover(handle: BusinessHandle): Promise<UcpLocationClient> {
    const options = this.#options;
    try {
      const client = await UcpLocationClient.discover(handle.config.url, {
        platformProfileUrl: options.platformProfileUrl,
        ...(options.platformProfile !== undefined ? { platformProfile: options.platformProfile } : {}),
        fetcher: this.#fetcher,
        fetch: {
          allowLoopback: options.allowLoopback,
          ...(options.resolve !== undefined ? { resolve: options.resolve } : {}),
          ...(options.ca !== undefined ? { ca: options.ca } : {}),
        },
        transport: handle.config.transport,
        // The bridge's own deadline (the business's timeout, per tool call) decides; the SDK's
        // per-call timeout is only a backstop, set later so the answer names the right limit.
        callTimeoutMs: handle.config.timeoutMs + 1_000,
        userAgent: this.#userAgent,
        ...(options.signingKey !== undefined ? { signingKey: options.signingKey } : {}),
        ...(options.requireBusinessSignatures === true ? { requireBusinessSignatures: true } : {}),
      });
      const previous = handle.client;
      if (previous !== undefined) this.#retired.push(previous);
      handle.client = client;
      handle.failure = undefined;
      await this.#recordProfile(handle, client.negotiated.businessProfileUrl);
      return client;
    } catch (error) {
      handle.failure = describeFailure(handle.name, error, 'discovery');
      throw error;
    }
  }

  /** The profile went stale: keep the client when the document is unchanged, renegotiate when not. */
  async #revalidate(handle: BusinessHandle, client: UcpLocationClient): Promise<UcpLocationClient> {
    let document: { body: unknown; expiresAt?: number };
    try {
      document = await this.#fetcher.get(client.negotiated.businessProfileUrl);
    } catch {
      // Cannot recheck now (the business may be briefly down): keep what works, look again later.
      handle.freshUntil = this.#now() + MIN_FRESH_MS;
      return client;
    }
    if (canonicalJson(document.body) === handle.profile) {
      handle.freshUntil = Math.max(document.expiresAt ?? 0, this.#now() + MIN_FRESH_MS);
      return client;
    }
    return this.#discover(handle);
  }

  async #recordProfile(handle: BusinessHandle, profileUrl: string): Promise<void> {
    try {
      const document = await this.#fetcher.get(profileUrl);
      handle.profile = canonicalJson(document.body);
      handle.freshUntil = Math.max(document.expiresAt ?? 0, this.#now() + MIN_FRESH_MS);
    } catch {
      handle.profile = undefined;
      handle.freshUntil = this.#now() + MIN_FRESH_MS;
    }
  }
}

/** Runs `work` with a deadline; past it, `onTimeout()` is thrown (the work is left to finish unobserved). */
export function withDeadline<T>(work: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
    timer.unref();
  });
  work.catch(() => undefined);
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** Runs `jobs` with at most `limit` in flight; results keep the jobs' order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, job: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await job(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}
