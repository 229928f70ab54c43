/**
 * Shapes of the conformance checker: what a check reports, how results are grouped, and the
 * options a run takes. A result always names the SPEC rule (R-…) it judges, so a failing run
 * tells a Business author exactly which rule to read.
 */
import type { Resolver } from '../protocol/safe-fetch.js';

/** What the run spent on the Business's rate limit; part of the report. */
export interface ThrottlingSummary {
  /** `--pace`: calls per second the checker kept to; null when unpaced. */
  paceCallsPerSecond: number | null;
  /** Calls the Business refused with 429 and the checker sent again (each counted once). */
  retriedCalls: number;
  /** Total time spent waiting out refusals, ms. */
  waitedMs: number;
  /** Total waiting the run allowed, ms (`--retry-budget`). */
  budgetMs: number;
  /** True once a refusal could not be waited out within the budget. */
  budgetExhausted: boolean;
}
import type { SigningKeySet } from '../protocol/signatures/index.js';

export type CheckStatus = 'pass' | 'fail' | 'skip';

export type BindingName = 'mcp' | 'rest';

/** Report sections, in the order they are printed. */
export const AREAS = [
  'discovery',
  'naming',
  'jsonrpc',
  'negotiation',
  'envelope',
  'search',
  'pagination',
  'lookup',
  'privacy',
  'signatures',
] as const;
export type Area = (typeof AREAS)[number];

export const AREA_TITLES: Readonly<Record<Area, string>> = {
  discovery: 'Discovery and profile hosting',
  naming: 'Namespace and authority binding',
  jsonrpc: 'MCP binding and JSON-RPC',
  negotiation: 'Negotiation',
  envelope: 'Response envelope and schemas',
  search: 'Search semantics',
  pagination: 'Pagination',
  lookup: 'Lookup semantics',
  privacy: 'Privacy',
  signatures: 'Message signatures',
};

/** What was sent, what came back, and what the rule wanted: enough to reproduce a failure. */
export interface Evidence {
  /** What the rule requires here, in one sentence. */
  expected: string;
  /** What the Business did instead (or, for passes, what it did). */
  observed?: string;
  /** The request, e.g. `POST https://b.example/ucp/mcp tools/call search_locations {…}` (excerpt). */
  request?: string;
  /** The answer, e.g. `HTTP 200 {"jsonrpc":"2.0",…}` (excerpt). */
  response?: string;
}

export interface CheckResult {
  /** SPEC rule id, e.g. `R-S4`. */
  rule: string;
  /** Stable check id within the catalogue, e.g. `search.radius-inclusive`. */
  check: string;
  area: Area;
  /** What is checked, for people. */
  title: string;
  /** The binding the check ran over; absent for binding-independent checks (profile, naming). */
  binding?: BindingName;
  status: CheckStatus;
  /** Why it was skipped, or a one-line summary of a failure. */
  detail?: string;
  /** For failures: every offending exchange (bounded); for passes and skips usually empty. */
  evidence: Evidence[];
}

export interface ConformanceSummary {
  pass: number;
  fail: number;
  skip: number;
}

export interface ConformanceReport {
  /** The Business URL as given. */
  target: string;
  /** The profile URL that was fetched. */
  profileUrl: string;
  /** Platform profile URL sent with every call. */
  platformProfileUrl: string | null;
  /** UCP release the checker implements. */
  ucpVersion: string;
  bindings: BindingName[];
  startedAt: string;
  durationMs: number;
  results: CheckResult[];
  summary: ConformanceSummary;
  /** What the Business's rate limit cost the run: calls sent again after a 429, time waited (pacing.ts). */
  throttling: ThrottlingSummary;
  /** True when no check failed. */
  ok: boolean;
}

export type TransportChoice = BindingName | 'both';

export interface AliasHint {
  alias: string;
  /** The canonical `Location.id` the alias must resolve to. */
  id: string;
}

export interface ConformanceOptions {
  /** Business origin (`https://business.example`) or its profile URL (`…/.well-known/ucp`). */
  businessUrl: string;
  /** Platform profile URL sent in `meta["ucp-agent"].profile` / `UCP-Agent`; the Business must be able to fetch it. */
  platformProfileUrl?: string;
  /**
   * Serve a Platform profile from the checker itself, on 127.0.0.1 (local development: the
   * Business must accept loopback profiles). Also enables the `capabilities_incompatible` probe.
   */
  serveProfile?: boolean;
  /** Local development: allow loopback Business URLs and plain http to them. */
  allowLoopback?: boolean;
  /** Which advertised bindings to exercise. Default `both` (each one the Business advertises). */
  transport?: TransportChoice;
  /** Per-request deadline, ms. Default 10 000. */
  timeoutMs?: number;
  /** Rule-id prefixes to run (`R-S`, `R-S4`, `R-D5`); default every rule. */
  only?: readonly string[];
  /** Ids (or aliases) of Locations the Business keeps private; never to be returned (R-S11). */
  privateIds?: readonly string[];
  /** Known aliases and their canonical ids, for the lookup alias probes (R-L1). */
  aliases?: readonly AliasHint[];
  /** Clock for choosing `open_at` instants (ms since the epoch). Default `Date.now`. */
  now?: () => number;
  /** DNS resolver override (split-horizon DNS, tests). */
  resolve?: Resolver;
  /** CA certificate(s), PEM, trusted instead of the system roots (private PKI, tests). */
  ca?: string | Buffer | readonly (string | Buffer)[];
  /**
   * Opt-in (R-G7, R-P2): after every other check, send up to this many cheap searches per binding
   * to provoke the Business's rate limit and judge the refusal. Leaves this client throttled for
   * the Business's window, so it is off unless asked for.
   */
  rateLimitProbe?: number;
  /** Space calls to at most this many per second (`--pace`); default unpaced. */
  paceCallsPerSecond?: number;
  /**
   * Total time the run may spend waiting out 429 refusals before resending, ms (`--retry-budget`,
   * in seconds there). Default 45 000; each wait is capped at 15 s; 0 never retries. A check whose
   * refusal could not be waited out is reported as skipped (not evaluated), not failed.
   */
  retryBudgetMs?: number;
  /**
   * The Platform's signing key (`--signing-key`): every request is signed with it (R-SIG2), and its
   * public part must be in the Platform profile's `keys[]`. With `serveProfile` and no key, the
   * checker makes one for the run and lists it in the profiles it serves.
   */
  signingKey?: SigningKeySet;
}
