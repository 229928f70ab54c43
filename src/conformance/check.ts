/**
 * What a check is and what it may read. Checks are small functions over a shared `RunContext`
 * that the runner builds once (profile fetched, bindings opened, samples gathered lazily); each
 * returns a `Verdict`. Probing checks send requests; audit checks (`audit: true`) run last and
 * judge every call the probes made.
 */
import type { UcpLocationClient } from '../client/index.js';
import type { Location } from '../domain/location.js';
import type { FetchedResponse } from '../protocol/safe-fetch.js';
import type { ProfileValidation } from '../protocol/profile.js';
import type { UcpProfile } from '../protocol/types.js';
import type { McpPeer, RpcExchange } from './mcp-peer.js';
import type { Call, Operation, OperationClient } from './operation-client.js';
import type { Pacer } from './pacing.js';
import type { RunSigner } from './request-signing.js';
import type { AliasHint, Area, BindingName, CheckStatus, Evidence } from './types.js';

export interface Verdict {
  status: CheckStatus;
  detail?: string;
  evidence: Evidence[];
}

export const pass = (detail?: string): Verdict => ({ status: 'pass', evidence: [], ...(detail === undefined ? {} : { detail }) });
export const skip = (detail: string): Verdict => ({ status: 'skip', detail, evidence: [] });
export const fail = (detail: string, evidence: readonly Evidence[] = []): Verdict => ({ status: 'fail', detail, evidence: [...evidence] });

/** Lets probe helpers return either what they found or the skip that explains its absence. */
export function isVerdict(value: unknown): value is Verdict {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Verdict).status === 'string' &&
    Array.isArray((value as Verdict).evidence)
  );
}

/** Evidence lists are capped so one systematic failure does not drown the report. */
export const MAX_EVIDENCE = 5;

/** pass when `problems` is empty, else fail with the first few as evidence. */
export function verdictOf(problems: readonly Evidence[], passDetail?: string): Verdict {
  if (problems.length === 0) return pass(passDetail);
  const more = problems.length > MAX_EVIDENCE ? ` (showing ${MAX_EVIDENCE} of ${problems.length})` : '';
  return fail(`${problems[0]?.observed ?? problems[0]?.expected ?? 'violated'}${more}`, problems.slice(0, MAX_EVIDENCE));
}

/** Preconditions the runner checks before running a check; an unmet one is a skip with a reason. */
export type Need =
  'profile' | 'search' | 'lookup' | 'private-ids' | 'aliases' | 'served-profile' | 'version-profile' | 'fetch-count' | 'rate-limit-probe';

interface CheckBase {
  /** Stable id, `<area>.<slug>`. */
  id: string;
  /** SPEC rule judged. */
  rule: string;
  area: Area;
  title: string;
  needs?: readonly Need[];
  /** Runs after every probing check, over the call log. */
  audit?: boolean;
  /** Runs last, after the audits: it may leave the Business refusing this client for a while. */
  final?: boolean;
}

/** Runs once, over the run's shared state (discovery, the call log): it has no binding of its own. */
export interface RunCheck extends CheckBase {
  scope: 'run';
  run(ctx: RunContext): Promise<Verdict>;
}

/** `binding`: once per exercised binding; `mcp` / `rest`: once, over that binding only — always with that binding's client. */
export interface BindingCheck extends CheckBase {
  scope: 'binding' | 'mcp' | 'rest';
  run(ctx: RunContext, client: OperationClient): Promise<Verdict>;
}

/** A check; its scope says whether `run` gets a client, so a binding check never has to assume one. */
export type Check = RunCheck | BindingCheck;

/** The raw MCP peer an `mcp`-scoped check talks through: the runner opens one whenever it runs such a check. */
export function mcpPeerOf(ctx: RunContext, checkId: string): McpPeer {
  if (ctx.mcp === undefined) throw new Error(`${checkId} talks raw JSON-RPC and the run has no MCP peer`);
  return ctx.mcp;
}

/** Runs `check` over `client` (undefined for a run-scoped check). */
export async function runCheckOn(check: Check, ctx: RunContext, client: OperationClient | undefined): Promise<Verdict> {
  if (check.scope === 'run') return check.run(ctx);
  if (client === undefined) throw new Error(`${check.id} runs over a binding and was given none`);
  return check.run(ctx, client);
}

/** The profile as fetched and judged during setup. */
export interface DiscoveryState {
  /** URL of the business profile (`<origin>/.well-known/ucp`). */
  profileUrl: string;
  /** The raw answer (headers for R-D5); absent when the fetch failed. */
  response?: FetchedResponse;
  /** Why the profile could not be fetched or parsed. */
  fetchError?: { reason: string; message: string; status?: number };
  /** The profile at `profileUrl` judged as a business profile. */
  validation?: ProfileValidation;
  /**
   * The profile in force for 2026-08-25: the fetched one, or the leaf reached through
   * `supported_versions` (R-D6). Entries that failed validation are removed.
   */
  profile?: UcpProfile;
  /** R-D6: how the 2026-08-25 leaf was reached, when it was. */
  leaf?: { url: string; problems: string[] };
  /** Endpoints of the bindings the run exercises. */
  endpoints: { mcp?: string; rest?: string };
}

export interface PlatformState {
  /** Sent with every call; null only when none could be set up. */
  url: string | null;
  /** The platform profile document, when known (served by the checker or fetched), for R-G6 expectations. */
  profile: UcpProfile | undefined;
  /** A served profile lacking lookup, for the capabilities_incompatible probe (R-G5); only with --serve-profile. */
  searchOnlyUrl: string | undefined;
  /** A served profile declaring a release no Business supports, for the version_unsupported probe (R-G3); only with --serve-profile. */
  unsupportedVersionUrl: string | undefined;
  /** The run's profile served again with `max-age=0` (R-G2's TTL floor); only with --serve-profile. */
  maxAgeZeroUrl: string | undefined;
  /** Fetches of a served profile URL by the Business so far (R-G2); only with --serve-profile. */
  profileFetches: ((url: string) => number) | undefined;
}

export interface Samples {
  /**
   * Public Locations seen in search/lookup answers, by id, first occurrence kept; never one named
   * by `--private-id` (a leaked private Location is reported by R-S11, not probed with).
   */
  locations: Location[];
  /** How they were gathered, for skip messages. */
  note: string;
}

export interface RunContext {
  readonly allowLoopback: boolean;
  /** Calls per binding the opt-in rate-limit probe may send (`--probe-rate-limit`); undefined when off. */
  readonly rateLimitProbe: number | undefined;
  /** Spacing and 429 retries of every call; the R-G7 probe turns them off around itself. */
  readonly pacer: Pacer;
  readonly now: () => number;
  readonly privateIds: readonly string[];
  readonly aliases: readonly AliasHint[];
  readonly discovery: DiscoveryState;
  readonly platform: PlatformState;
  /** The run's signing key and the profile that lists it; undefined when the run does not sign (R-SIG2 probes skip). */
  readonly signer: RunSigner | undefined;
  /** Capabilities the (validated) profile advertises. */
  readonly advertised: ReadonlySet<Operation>;
  readonly clients: readonly OperationClient[];
  readonly mcp: McpPeer | undefined;
  /** Every operation call made so far (probes append; audits read). */
  readonly calls: Call[];
  /** Raw JSON-RPC exchanges (R-M1 probes, tools/list), for the JSON-RPC envelope audit. */
  readonly rawRpc: RpcExchange[];
  /** Public Locations to probe with, gathered once on first use (private ids excluded). */
  samples(): Promise<Samples>;
  /** R-G6: capability names a response to `operation` must carry, or null when not computable. */
  expectedCapabilities(operation: Operation): string[] | null;
  /** The Platform SDK discovering this Business over `binding`, with the run's profile and network options. */
  discoverWithSdk(binding: BindingName): Promise<UcpLocationClient>;
}
