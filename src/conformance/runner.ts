/**
 * Runs the conformance suite against one Business: setup (profile, Platform profile, bindings),
 * then every selected probing check (per binding where it applies), then the audits over all
 * calls made, and returns the report. The only I/O driver of the checker; checks stay small.
 */
import { causeMessage, ConfigError } from '../errors.js';
import { negotiateCapabilities, responseCapabilities } from '../protocol/negotiation.js';
import { validateProfile } from '../protocol/profile.js';
import { summarizeIssues } from '../protocol/schemas.js';
import { SafeFetcher } from '../protocol/safe-fetch.js';
import { COMMON_SERVICE, LOOKUP_CAPABILITY, SEARCH_CAPABILITY, UCP_VERSION, type UcpProfile } from '../protocol/types.js';
import { UcpLocationClient } from '../client/index.js';
import { UcpClientError } from '../client/index.js';
import { parseRulePrefixes, selectChecks } from './catalogue.js';
import { runCheckOn, type Check, type DiscoveryState, type Need, type PlatformState, type RunContext, type Samples } from './check.js';
import { discoverBusiness } from './discover.js';
import { HttpPeer } from './exchange.js';
import { McpPeer, type RpcExchange } from './mcp-peer.js';
import { Pacer, throttledReason } from './pacing.js';
import { McpOperationClient, RestOperationClient, type Call, type Operation, type OperationClient } from './operation-client.js';
import { serveProfiles, type ServedProfiles } from './platform-profile.js';
import { gatherSamples } from './samples.js';
import { runSigner, type RunSigner } from './request-signing.js';
import { generateSigningJwk, readSigningKeySet, type PublicJwk } from '../protocol/signatures/index.js';
import type { BindingName, CheckResult, ConformanceOptions, ConformanceReport, TransportChoice } from './types.js';

const DEFAULT_TIMEOUT_MS = 10_000;
const ROOT_OF: Readonly<Record<Operation, string>> = { search: SEARCH_CAPABILITY, lookup: LOOKUP_CAPABILITY };

/** Checks that only read the profile: they need no Platform profile and no binding. */
const PROFILE_ONLY_AREAS = new Set(['discovery', 'naming']);

interface Resources {
  served?: ServedProfiles;
  peers: { close(): Promise<void> }[];
}

export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const started = Date.now();
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
    throw new ConfigError(`--timeout must be a positive number of milliseconds, got ${String(options.timeoutMs)}`);
  const transport: TransportChoice = options.transport ?? 'both';
  if (!['mcp', 'rest', 'both'].includes(transport))
    throw new ConfigError(`--transport must be mcp, rest or both, got ${JSON.stringify(transport)}`);
  let only: string[];
  try {
    only = parseRulePrefixes(options.only ?? []);
  } catch (error) {
    throw new ConfigError(causeMessage(error));
  }
  const pacer = new Pacer(pacingOptions(options));
  const checks = selectChecks(only);
  const needsBindings = checks.some((c) => !PROFILE_ONLY_AREAS.has(c.area));
  if (needsBindings && options.platformProfileUrl === undefined && options.serveProfile !== true) {
    throw new ConfigError(
      'Calls to the Business need a Platform profile URL it can fetch: pass --platform-profile <url>, or --serve-profile to serve one from this machine (local development; the Business must accept loopback profiles).',
    );
  }
  const allowLoopback = options.allowLoopback === true;
  const network = {
    allowLoopback,
    totalTimeoutMs: timeoutMs,
    ...(options.resolve === undefined ? {} : { resolve: options.resolve }),
    ...(options.ca === undefined ? {} : { ca: options.ca }),
  };

  let discovery: DiscoveryState;
  try {
    discovery = await discoverBusiness(options.businessUrl, transport, network);
  } catch (error) {
    throw new ConfigError(causeMessage(error), { cause: error });
  }

  // With --serve-profile and no key of its own, the checker signs with a key made for the run, so
  // a Business that requires signatures can be checked at all (R-SIG2).
  const keys =
    options.signingKey ?? (options.serveProfile === true ? readSigningKeySet(generateSigningJwk(), 'the checker’s run key') : undefined);
  const resources: Resources = { peers: [] };
  const calls: Call[] = [];
  const rawRpc: RpcExchange[] = [];
  const setupResults: CheckResult[] = [];
  try {
    const platform = needsBindings
      ? await platformState(options, resources, network, keys?.published ?? [])
      : {
          url: null,
          profile: undefined,
          searchOnlyUrl: undefined,
          unsupportedVersionUrl: undefined,
          maxAgeZeroUrl: undefined,
          profileFetches: undefined,
        };
    const advertised = advertisedOperations(discovery.profile);
    // Bindings the Business offers but the given Platform profile does not: skipped with the reason.
    const unoffered = new Map<BindingName, string>();
    const signer = keys === undefined || platform.url === null ? undefined : runSigner(keys.signing, platform.url);
    const { clients, mcp } =
      needsBindings && discovery.profile !== undefined
        ? await openBindings(discovery, platform, calls, rawRpc, resources, timeoutMs, network, setupResults, unoffered, pacer, signer)
        : { clients: [], mcp: undefined };

    let samples: Promise<Samples> | undefined;
    const firstUsable = clients.find((c) => c.binding === 'mcp') ?? clients[0];
    const ctx: RunContext = {
      allowLoopback,
      rateLimitProbe: options.rateLimitProbe,
      pacer,
      now: options.now ?? Date.now,
      privateIds: [...(options.privateIds ?? [])],
      aliases: [...(options.aliases ?? [])],
      discovery,
      platform,
      signer,
      advertised,
      clients,
      mcp,
      calls,
      rawRpc,
      samples: () => (samples ??= gatherSamples(firstUsable, advertised, options.aliases ?? [], options.privateIds ?? [])),
      expectedCapabilities: (operation) => expectedCapabilities(discovery.profile, platform.profile, operation),
      discoverWithSdk: (binding) =>
        UcpLocationClient.discover(options.businessUrl, {
          platformProfileUrl: platform.url ?? '',
          ...(platform.profile === undefined ? {} : { platformProfile: platform.profile }),
          fetch: network,
          transport: binding,
          callTimeoutMs: timeoutMs,
          ...(keys === undefined ? {} : { signingKey: keys.signing }),
        }),
    };

    const results: CheckResult[] = [...setupResults];
    // Probes, then audits over their call log, then the checks that may leave this client throttled.
    const phaseOf = (c: Check): number => (c.final === true ? 2 : c.audit === true ? 1 : 0);
    for (const phase of [0, 1, 2]) {
      for (const check of checks.filter((c) => phaseOf(c) === phase)) {
        const givenUp = pacer.givenUp;
        const checked = await runCheck(check, ctx, transport, unoffered);
        // A refusal the budget could not wait out says nothing about this check's rule.
        const throttled = pacer.givenUp > givenUp;
        results.push(...(throttled ? checked.map((r) => notEvaluated(r, throttledReason(pacer.summary()))) : checked));
      }
    }
    const summary = {
      pass: results.filter((r) => r.status === 'pass').length,
      fail: results.filter((r) => r.status === 'fail').length,
      skip: results.filter((r) => r.status === 'skip').length,
    };
    return {
      target: options.businessUrl,
      profileUrl: discovery.profileUrl,
      platformProfileUrl: platform.url,
      ucpVersion: UCP_VERSION,
      bindings: clients.map((c) => c.binding),
      startedAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
      results,
      summary,
      throttling: pacer.summary(),
      ok: summary.fail === 0,
    };
  } finally {
    await Promise.all(resources.peers.map((p) => p.close()));
    await resources.served?.close();
  }
}

async function platformState(
  options: ConformanceOptions,
  resources: Resources,
  network: ConstructorParameters<typeof SafeFetcher>[0],
  publishedKeys: readonly PublicJwk[],
): Promise<PlatformState> {
  if (options.serveProfile === true) {
    resources.served = await serveProfiles(publishedKeys);
    const served = resources.served;
    const { url, profile, searchOnlyUrl, unsupportedVersionUrl, maxAgeZeroUrl } = served;
    return { url, profile, searchOnlyUrl, unsupportedVersionUrl, maxAgeZeroUrl, profileFetches: (u) => served.fetches(u) };
  }
  const url = options.platformProfileUrl as string;
  // The checker needs the profile it was given (the R-G6 expectation, the bindings it offers), and
  // the Business fetches the same URL on every call. When the checker cannot have it, every call
  // would fail for a reason that is the run's setup, not the Business: stop with a setup error.
  const setupError = (problem: string, cause?: unknown): ConfigError =>
    new ConfigError(
      `The checker cannot use the Platform profile it was given (${url}): ${problem}. This is a problem of the checker's setup, not a finding about the Business: fix the URL or the profile (https on a public host; a loopback URL needs --allow-loopback), or let the checker serve one (--serve-profile).`,
      cause === undefined ? {} : { cause },
    );
  let body: unknown;
  try {
    body = (await new SafeFetcher(network).fetchDocument(url)).body;
  } catch (error) {
    throw setupError(`fetching it failed: ${causeMessage(error)}`, error);
  }
  const judged = validateProfile(body, 'platform', { allowLoopbackHttp: options.allowLoopback === true });
  if (!judged.ok) throw setupError(`it is not a valid Platform profile: ${summarizeIssues(judged.errors)}`);
  return {
    url,
    profile: judged.profile,
    searchOnlyUrl: undefined,
    unsupportedVersionUrl: undefined,
    maxAgeZeroUrl: undefined,
    profileFetches: undefined,
  };
}

/** `--pace` and `--retry-budget` checked and turned into the pacer's options. */
function pacingOptions(options: ConformanceOptions): ConstructorParameters<typeof Pacer>[0] {
  const { paceCallsPerSecond: pace, retryBudgetMs: budget } = options;
  if (pace !== undefined && !(Number.isFinite(pace) && pace > 0))
    throw new ConfigError(`--pace must be a positive number of calls per second, e.g. --pace 5; got ${String(pace)}`);
  if (budget !== undefined && !(Number.isFinite(budget) && budget >= 0))
    throw new ConfigError(`--retry-budget must be a number of seconds, 0 or more, e.g. --retry-budget 120; got ${String(budget / 1000)}`);
  return { ...(pace === undefined ? {} : { paceCallsPerSecond: pace }), ...(budget === undefined ? {} : { retryBudgetMs: budget }) };
}

/** A result whose check met a refusal it could not wait out: reported as a skip, never a failure. */
function notEvaluated(result: CheckResult, reason: string): CheckResult {
  if (result.status === 'skip') return result;
  return { ...result, status: 'skip', detail: reason, evidence: [] };
}

function advertisedOperations(profile: UcpProfile | undefined): Set<Operation> {
  const caps = profile?.ucp.capabilities ?? {};
  return new Set((['search', 'lookup'] as const).filter((op) => Object.hasOwn(caps, ROOT_OF[op])));
}

async function openBindings(
  discovery: DiscoveryState,
  platform: PlatformState,
  calls: Call[],
  rawRpc: RpcExchange[],
  resources: Resources,
  timeoutMs: number,
  network: { allowLoopback: boolean; resolve?: ConformanceOptions['resolve']; ca?: ConformanceOptions['ca'] },
  setupResults: CheckResult[],
  unoffered: Map<BindingName, string>,
  pacer: Pacer,
  signer: RunSigner | undefined,
): Promise<{ clients: OperationClient[]; mcp: McpPeer | undefined }> {
  const clients: OperationClient[] = [];
  let mcp: McpPeer | undefined;
  const agentOptions = {
    allowLoopback: network.allowLoopback,
    ...(network.resolve === undefined ? {} : { resolve: network.resolve }),
    ...(network.ca === undefined ? {} : { ca: network.ca }),
  };
  const offered = platformBindings(platform.profile);
  for (const binding of ['mcp', 'rest'] as const) {
    const endpoint = discovery.endpoints[binding];
    if (endpoint === undefined) continue;
    if (offered !== undefined && !offered.has(binding)) {
      unoffered.set(
        binding,
        `the Platform profile (${platform.url ?? ''}) offers no ${binding} binding of ${COMMON_SERVICE} ${UCP_VERSION}, so a Platform with it never calls this one`,
      );
      continue;
    }
    let http: HttpPeer;
    try {
      http = await HttpPeer.open(endpoint, timeoutMs, agentOptions, pacer, signer);
    } catch (error) {
      setupResults.push(endpointFailure(binding, endpoint, error));
      continue;
    }
    if (binding === 'mcp') {
      mcp = new McpPeer(http, endpoint);
      resources.peers.push(mcp);
      await mcp.open();
      // The initialize answer is JSON-RPC like any other; the envelope audit judges it too.
      if (mcp.initialize !== undefined) rawRpc.push(mcp.initialize);
      clients.push(new McpOperationClient(mcp, platform.url, calls));
    } else {
      resources.peers.push(http);
      clients.push(new RestOperationClient(http, endpoint, platform.url, calls));
    }
  }
  return { clients, mcp };
}

/** Transports of `dev.ucp.common` the Platform profile declares for the release; undefined when unknown. */
function platformBindings(profile: UcpProfile | undefined): Set<string> | undefined {
  if (profile === undefined) return undefined;
  const bindings = Object.hasOwn(profile.ucp.services, COMMON_SERVICE) ? (profile.ucp.services[COMMON_SERVICE] ?? []) : [];
  return new Set(bindings.filter((b) => b.version === UCP_VERSION).map((b) => b.transport));
}

function endpointFailure(binding: BindingName, endpoint: string, error: unknown): CheckResult {
  const message = error instanceof UcpClientError || error instanceof Error ? error.message : String(error);
  return {
    rule: 'R-D2',
    check: 'discovery.endpoint-usable',
    area: 'discovery',
    title: `the ${binding} endpoint can be called safely (https, public address)`,
    binding,
    status: 'fail',
    detail: message,
    evidence: [{ expected: 'an https endpoint on a public address (R-N4)', observed: message, request: `POST ${endpoint}` }],
  };
}

/** R-G6: the capabilities negotiation leaves for `operation` (root plus its extensions). */
function expectedCapabilities(business: UcpProfile | undefined, platform: UcpProfile | undefined, operation: Operation): string[] | null {
  if (business === undefined || platform === undefined) return null;
  const { active } = negotiateCapabilities(business.ucp.capabilities ?? {}, platform.ucp.capabilities ?? {}, {
    protocolVersion: UCP_VERSION,
  });
  return Object.keys(responseCapabilities(active, ROOT_OF[operation]));
}

function unmetNeed(need: Need, ctx: RunContext): string | undefined {
  switch (need) {
    case 'profile':
      return ctx.discovery.profile === undefined ? 'the business profile is not usable (see R-D1)' : undefined;
    case 'search':
    case 'lookup':
      return ctx.advertised.has(need) ? undefined : `the Business does not advertise dev.ucp.common.location.${need}`;
    case 'private-ids':
      return ctx.privateIds.length === 0 ? 'no private ids given (--private-id <id>)' : undefined;
    case 'aliases':
      return ctx.aliases.length === 0 ? 'no aliases given (--alias <alias>=<id>)' : undefined;
    case 'served-profile':
      return ctx.platform.searchOnlyUrl === undefined ? 'needs a second Platform profile (--serve-profile)' : undefined;
    case 'rate-limit-probe':
      return ctx.rateLimitProbe === undefined
        ? 'opt-in: it provokes the rate limit and leaves this client throttled for a while (--probe-rate-limit)'
        : undefined;
    case 'fetch-count':
      return ctx.platform.profileFetches === undefined
        ? 'needs to see the Business fetch the Platform profile; the checker can count fetches only of profiles it serves itself (--serve-profile)'
        : undefined;
    case 'version-profile':
      return ctx.platform.unsupportedVersionUrl === undefined
        ? 'needs a Platform profile declaring a release the Business does not support; the checker can present one only when it serves its own profiles (--serve-profile)'
        : undefined;
  }
}

async function runCheck(
  check: Check,
  ctx: RunContext,
  transport: TransportChoice,
  unoffered: ReadonlyMap<BindingName, string>,
): Promise<CheckResult[]> {
  const base = { rule: check.rule, check: check.id, area: check.area, title: check.title };
  const targets: (OperationClient | undefined)[] =
    check.scope === 'run' ? [undefined] : ctx.clients.filter((c) => check.scope === 'binding' || c.binding === check.scope);
  const unmet = (check.needs ?? []).map((n) => unmetNeed(n, ctx)).find((r) => r !== undefined);
  const notOffered: CheckResult[] = [...unoffered]
    .filter(([binding]) => check.scope === 'binding' || check.scope === binding)
    .map(([binding, why]) => ({ ...base, binding, status: 'skip', detail: why, evidence: [] }));
  if (notOffered.length > 0 && targets.length === 0) return notOffered;
  if (targets.length === 0) {
    const binding = check.scope === 'binding' ? 'no binding' : `no ${check.scope.toUpperCase()} binding`;
    const why =
      transport !== 'both' && check.scope !== 'binding' && check.scope !== transport
        ? `--transport ${transport}`
        : 'none usable from the profile';
    return [{ ...base, status: 'skip', detail: unmet ?? `${binding} is exercised (${why})`, evidence: [] }];
  }
  const out: CheckResult[] = [];
  for (const client of targets) {
    const label = client === undefined ? {} : { binding: client.binding };
    if (unmet !== undefined) {
      out.push({ ...base, ...label, status: 'skip', detail: unmet, evidence: [] });
      continue;
    }
    try {
      const verdict = await runCheckOn(check, ctx, client);
      out.push({
        ...base,
        ...label,
        status: verdict.status,
        evidence: verdict.evidence,
        ...(verdict.detail === undefined ? {} : { detail: verdict.detail }),
      });
    } catch (error) {
      out.push({ ...base, ...label, status: 'fail', detail: `the check could not complete: ${causeMessage(error)}`, evidence: [] });
    }
  }
  return [...out, ...notOffered];
}
