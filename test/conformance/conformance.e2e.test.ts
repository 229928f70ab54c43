/**
 * The conformance checker end to end, on loopback: it passes our own server (every probing check
 * actually runs, over MCP and REST) and fails each deliberately broken server under the rule that
 * server breaks — and only under rules that fault can explain.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  formatReport,
  runConformance,
  serveProfiles,
  type CheckResult,
  type ConformanceOptions,
  type ConformanceReport,
} from '../../src/conformance/index.js';
import { buildPlatformProfile } from '../../src/client/platform-profile.js';
import { serveProfilesOnLoopback } from '../../src/client/loopback-profile-server.js';
import {
  acceptsOffsetlessInstant,
  canonicalInputs,
  clampsRadius,
  contextAsServes,
  cursorBindsIgnoredMembers,
  discoveryBudgetAsUnreachable,
  exportingDirectory,
  hoursInUtc,
  ignoresPlatformVersion,
  leakyRecords,
  lenientServes,
  noProfileValidator,
  nullIdOn429,
  redirectsProfile,
  refetchesProfile,
  rateLimitWithoutRetryAfter,
  roomyRateLimit,
  refusesExtraMembers,
  refusesLongBatches,
  refusesUnknownItems,
  silentBatchLimit,
  sphericalDistance,
  stallingBrowse,
  startBrokenServer,
  tightRateLimit,
  tightRateLimitConfig,
  unknownToolAsMethod,
  type BrokenServerOptions,
  type Shim,
} from './broken-servers.js';
import { HINTS, startOurServer, type OurServer } from './support.js';

const failed = (r: ConformanceReport): CheckResult[] => r.results.filter((x) => x.status === 'fail');
const failedRules = (r: ConformanceReport): string[] => [...new Set(failed(r).map((x) => x.rule))].sort();
const failedChecks = (r: ConformanceReport): string[] => [...new Set(failed(r).map((x) => x.check))].sort();

describe('conformance checker against our own server', () => {
  let ours: OurServer;
  let report: ConformanceReport;

  beforeAll(async () => {
    ours = await startOurServer();
    report = await runConformance({ businessUrl: ours.server.url, ...HINTS });
  });
  afterAll(async () => {
    await ours.close();
  });

  it('reports no failure and exits conformant', () => {
    expect(failed(report), formatReport(report)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.bindings).toEqual(['mcp', 'rest']);
  });

  it('runs every probing check over both bindings instead of skipping it', () => {
    const perBinding = [
      'search.radius-inclusive',
      'search.radius-not-clamped',
      'search.and-predicates',
      'search.hours-timezone',
      'search.empty-result',
      'search.serves-shape',
      'search.unknown-item',
      'search.no-derived-operands',
      'search.bounded-browse',
      'pagination.walk',
      'pagination.tampered-cursor',
      'lookup.canonical-dedupe',
      'lookup.aliases',
      'lookup.refinement',
      'lookup.batch-limit',
      'privacy.lookup-private',
      'negotiation.unusable-profile',
      'negotiation.capabilities-incompatible',
      'negotiation.version-unsupported',
      'negotiation.sdk-round-trip',
    ];
    for (const check of perBinding) {
      const statuses = report.results.filter((r) => r.check === check).map((r) => `${r.binding ?? ''}:${r.status}`);
      expect(statuses, check).toEqual(['mcp:pass', 'rest:pass']);
    }
  });

  it('covers the rule ids of the brief', () => {
    const passed = new Set(report.results.filter((r) => r.status === 'pass').map((r) => r.rule));
    for (const rule of [
      'R-D1',
      'R-D2',
      'R-D3',
      'R-D4',
      'R-D5',
      'R-N1',
      'R-N2',
      'R-M1',
      'R-M2',
      'R-M3',
      'R-G1',
      'R-G3',
      'R-G4',
      'R-G5',
      'R-G6',
      'R-S1',
      'R-S2',
      'R-S3',
      'R-S4',
      'R-S5',
      'R-S6',
      'R-S8',
      'R-S9',
      'R-S10',
      'R-S11',
      'R-L1',
      'R-L2',
      'R-L3',
    ]) {
      expect(passed.has(rule), rule).toBe(true);
    }
  });

  it('skips https only because --allow-loopback admits plain http on loopback (R-D5)', () => {
    const https = report.results.find((r) => r.check === 'discovery.https');
    expect(https?.status).toBe('skip');
    expect(https?.detail).toMatch(/--allow-loopback/);
  });

  it('runs only the selected rules with --only, matching rule ids exactly, not by prefix', async () => {
    const only = await runConformance({ businessUrl: ours.server.url, ...HINTS, only: ['R-S1', 'R-D5'] });
    expect([...new Set(only.results.map((r) => r.rule))].sort()).toEqual(['R-D5', 'R-S1']);
    expect(only.ok).toBe(true);
  });

  it('exercises one binding with --transport rest and says why MCP checks are skipped', async () => {
    const rest = await runConformance({ businessUrl: ours.server.url, ...HINTS, transport: 'rest', only: ['R-M1', 'R-S10'] });
    expect(rest.bindings).toEqual(['rest']);
    const mcpOnly = rest.results.filter((r) => r.check === 'jsonrpc.unknown-tool');
    expect(mcpOnly.map((r) => r.status)).toEqual(['skip']);
    expect(mcpOnly[0]?.detail).toMatch(/--transport rest/);
    expect(rest.results.filter((r) => r.check === 'search.empty-result').map((r) => `${r.binding}:${r.status}`)).toEqual(['rest:pass']);
  });

  it('reports whether the unknown item came back with item_not_found, as evidence of a pass (R-S8)', () => {
    const results = report.results.filter((r) => r.check === 'search.unknown-item');
    for (const r of results) {
      expect(r.detail).toMatch(/with an info message item_not_found/);
      expect(r.evidence[0]?.request).toMatch(/"items":\["conformance-unknown-[0-9a-f-]{36}"\]/);
    }
  });

  it('skips the version_unsupported probe, saying why, when the checker does not serve its own profiles (R-G3)', async () => {
    const served = await serveProfiles();
    try {
      const external = await runConformance({
        businessUrl: ours.server.url,
        allowLoopback: true,
        platformProfileUrl: served.url,
        only: ['R-G3'],
      });
      expect(external.results.map((r) => `${r.binding ?? ''}:${r.status}`)).toEqual(['mcp:skip', 'rest:skip']);
      expect(external.results[0]?.detail).toMatch(/--serve-profile/);
    } finally {
      await served.close();
    }
  });

  it('skips, with the reason, the binding a given MCP-only Platform profile does not offer, instead of failing it', async () => {
    const server = await serveProfilesOnLoopback(new Map([['/mcp-only.json', buildPlatformProfile({ transports: ['mcp'] })]]), {
      maxAgeSeconds: 300,
    });
    // A Business of its own: the full run above ends with probes that leave this client's address
    // rate-limited for a while (R-G7), which this check is not about.
    const fresh = await startOurServer();
    try {
      const mcpOnly = await runConformance({
        businessUrl: fresh.server.url,
        allowLoopback: true,
        platformProfileUrl: `${server.origin}/mcp-only.json`,
        only: ['R-G1', 'R-G4', 'R-G6', 'R-S10', 'R-M1'],
      });
      expect(failed(mcpOnly), formatReport(mcpOnly)).toEqual([]);
      expect(mcpOnly.bindings).toEqual(['mcp']);
      const rest = mcpOnly.results.filter((r) => r.binding === 'rest');
      expect(rest.length).toBeGreaterThan(0);
      for (const r of rest) {
        expect(r.status).toBe('skip');
        expect(r.detail).toMatch(/Platform profile .* offers no rest binding/);
      }
      expect(mcpOnly.results.some((r) => r.binding === 'mcp' && r.status === 'pass')).toBe(true);
    } finally {
      await fresh.close();
      await server.close();
    }
  });

  it('blames itself, not the Business, when it cannot fetch the Platform profile it was given', async () => {
    const server = await serveProfilesOnLoopback(new Map([['/platform.json', buildPlatformProfile()]]), { maxAgeSeconds: 300 });
    await server.close();
    const gone = `${server.origin}/platform.json`;
    await expect(runConformance({ businessUrl: ours.server.url, allowLoopback: true, platformProfileUrl: gone })).rejects.toThrow(
      /The checker cannot use the Platform profile it was given .*not a finding about the Business/,
    );
  });

  it('leaves the rate-limit probe off unless asked, saying how to turn it on (R-G7)', () => {
    const probe = report.results.filter((r) => r.check === 'negotiation.rate-limited');
    expect(probe.map((r) => r.status)).toEqual(['skip', 'skip']);
    expect(probe[0]?.detail).toContain('--probe-rate-limit');
  });

  it('counts one fetch of the Platform profile for the whole run and keeps a max-age=0 copy (R-G2)', () => {
    const cached = report.results.find((r) => r.check === 'negotiation.profile-cached');
    expect(cached?.status).toBe('pass');
    expect(cached?.detail).toMatch(
      /^1 fetch\(es\) of the Platform profile for \d{2,} calls naming it; 1 fetch\(es\) of the max-age=0 profile for 8 calls$/,
    );
  });

  it('refuses to call a Business without a Platform profile, naming both options', async () => {
    await expect(runConformance({ businessUrl: ours.server.url, allowLoopback: true })).rejects.toThrow(
      /--platform-profile <url>.*--serve-profile/,
    );
  });

  it('needs no Platform profile for profile-only rules', async () => {
    const profileOnly = await runConformance({ businessUrl: ours.server.url, allowLoopback: true, only: ['R-D', 'R-N'] });
    expect(profileOnly.ok).toBe(true);
    expect(profileOnly.platformProfileUrl).toBeNull();
  });

  it('refuses plain http to a business without --allow-loopback', async () => {
    await expect(runConformance({ businessUrl: ours.server.url, serveProfile: true })).rejects.toThrow(/--allow-loopback/);
  });
});

/**
 * Each broken server, the rules it must fail and every rule its fault may legitimately drag in
 * (a spherical distance is also a wrong lookup refinement, R-L2, and a returned Location beyond
 * max, R-S1; a profile behind a redirect is also no profile at all, R-D1).
 */
const BROKEN: {
  name: string;
  shim: Shim;
  options?: () => BrokenServerOptions;
  run?: Partial<ConformanceOptions>;
  fails: string[];
  mayAlsoFail: string[];
  checks: string[];
}[] = [
  {
    name: 'throttles MCP calls without error.data.retry_after',
    shim: rateLimitWithoutRetryAfter,
    options: tightRateLimit,
    // A budget of 40 calls would throttle the rest of a full run; the probe alone is judged.
    run: { only: ['R-G7'], rateLimitProbe: 200 },
    fails: ['R-G7'],
    mayAlsoFail: [],
    checks: ['negotiation.rate-limited'],
  },
  {
    name: 'answers a batch past 20 messages with one -32600 object',
    shim: refusesLongBatches,
    run: { only: ['R-J1'] },
    fails: ['R-J1'],
    mayAlsoFail: [],
    checks: ['jsonrpc.batch-any-length'],
  },
  {
    name: 'refuses a request with an extra top-level member',
    shim: refusesExtraMembers,
    run: { only: ['R-J1'] },
    fails: ['R-J1'],
    mayAlsoFail: [],
    checks: ['jsonrpc.extra-members'],
  },
  {
    name: 'sends its 429 refusals with id null',
    shim: nullIdOn429(),
    run: { only: ['R-J1', 'R-G7'], rateLimitProbe: 200 },
    fails: ['R-J1'],
    mayAlsoFail: [],
    checks: ['jsonrpc.refusal-id'],
  },
  {
    name: 'reports a spent discovery budget as profile_unreachable (-32001, HTTP 200)',
    shim: discoveryBudgetAsUnreachable(),
    run: { only: ['R-G7'], rateLimitProbe: 200 },
    fails: ['R-G7'],
    mayAlsoFail: [],
    checks: ['negotiation.retry-later-is-rate-limit'],
  },
  {
    name: 'binds a cursor to a member its answer reported as ignored',
    shim: cursorBindsIgnoredMembers,
    run: { only: ['R-J2'] },
    fails: ['R-J2'],
    mayAlsoFail: [],
    checks: ['pagination.ignored-member'],
  },
  { name: 'clamps the radius', shim: clampsRadius, fails: ['R-S4'], mayAlsoFail: [], checks: ['search.radius-not-clamped'] },
  {
    name: 'measures distance on a sphere',
    shim: sphericalDistance,
    fails: ['R-S4'],
    mayAlsoFail: ['R-S1', 'R-L2'],
    checks: ['search.radius-inclusive'],
  },
  {
    name: 'evaluates opening hours in UTC',
    shim: hoursInUtc,
    fails: ['R-S6'],
    mayAlsoFail: ['R-S1', 'R-L2'],
    checks: ['search.hours-timezone'],
  },
  {
    name: 'leaks a private Location',
    shim: {},
    options: () => ({ records: leakyRecords() }),
    fails: ['R-S11'],
    mayAlsoFail: [],
    checks: ['privacy.lookup-private', 'privacy.never-returned'],
  },
  {
    name: 'normalises lookup inputs to canonical ids',
    shim: canonicalInputs,
    fails: ['R-L1'],
    mayAlsoFail: [],
    checks: ['lookup.aliases', 'lookup.inputs-audit'],
  },
  {
    name: 'truncates an oversize batch silently',
    shim: silentBatchLimit,
    fails: ['R-L3'],
    mayAlsoFail: [],
    checks: ['lookup.batch-limit'],
  },
  { name: 'redirects the profile', shim: redirectsProfile, fails: ['R-D5'], mayAlsoFail: ['R-D1'], checks: ['discovery.no-redirect'] },
  {
    name: 'serves the profile without ETag or Last-Modified',
    shim: noProfileValidator,
    fails: ['R-D5'],
    mayAlsoFail: [],
    checks: ['discovery.validator'],
  },
  {
    name: 'answers an unknown tool with -32601',
    shim: unknownToolAsMethod,
    fails: ['R-M1'],
    mayAlsoFail: [],
    checks: ['jsonrpc.unknown-tool'],
  },
  // Two targets or an empty address are also invalid operands (R-M1) answered with success.
  {
    name: 'reads a malformed serves leniently',
    shim: lenientServes,
    fails: ['R-S5'],
    mayAlsoFail: ['R-M1'],
    checks: ['search.serves-shape'],
  },
  {
    name: 'reads an instant without offset as UTC',
    shim: acceptsOffsetlessInstant,
    fails: ['R-M1'],
    mayAlsoFail: [],
    checks: ['jsonrpc.invalid-operands'],
  },
  {
    name: 'refuses an unknown item instead of matching nothing',
    shim: refusesUnknownItems,
    fails: ['R-S8'],
    mayAlsoFail: [],
    checks: ['search.unknown-item'],
  },
  {
    name: 'derives a serves target from the context locality',
    shim: contextAsServes,
    fails: ['R-S3'],
    mayAlsoFail: [],
    checks: ['search.no-derived-operands'],
  },
  {
    name: 'fetches the Platform profile on every call',
    shim: refetchesProfile,
    fails: ['R-G2'],
    mayAlsoFail: [],
    checks: ['negotiation.profile-cached'],
  },
  {
    name: 'announces next pages forever at the end of a browse',
    shim: stallingBrowse,
    // The endless walk (two bindings × 100+ pages) with the R-M1 operand probes passes 600 calls from one address.
    options: roomyRateLimit,
    fails: ['R-S9'],
    mayAlsoFail: [],
    checks: ['pagination.walk'],
  },
  {
    name: 'pages through the whole directory on a browse',
    shim: {},
    options: exportingDirectory,
    fails: ['R-S2'],
    mayAlsoFail: [],
    checks: ['search.bounded-browse'],
  },
  {
    name: "ignores the Platform's version",
    shim: ignoresPlatformVersion,
    fails: ['R-G3'],
    mayAlsoFail: [],
    checks: ['negotiation.version-unsupported'],
  },
];

describe.each(BROKEN)('conformance checker against a server that $name', ({ shim, options, run, fails, mayAlsoFail, checks }) => {
  let report: ConformanceReport;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const broken = await startBrokenServer(shim, options?.());
    close = broken.close;
    report = await runConformance({ businessUrl: broken.url, ...HINTS, ...run });
  });
  afterAll(async () => {
    await close();
  });

  it(`fails, naming ${fails.join(', ')}`, () => {
    expect(report.ok).toBe(false);
    for (const rule of fails) expect(failedRules(report), formatReport(report)).toContain(rule);
    expect(failedChecks(report)).toEqual(expect.arrayContaining(checks));
  });

  it('fails no rule the fault cannot explain', () => {
    for (const rule of failedRules(report)) expect([...fails, ...mayAlsoFail], `${rule}\n${formatReport(report)}`).toContain(rule);
  });

  it('gives evidence for every failure: expectation, request and answer', () => {
    for (const result of failed(report)) {
      expect(result.evidence.length, result.check).toBeGreaterThan(0);
      for (const e of result.evidence) {
        expect(e.expected.length).toBeGreaterThan(0);
        expect(e.request ?? '', result.check).toMatch(/^(GET|POST) /);
      }
    }
    const text = formatReport(report);
    for (const rule of fails) expect(text).toMatch(new RegExp(`✗ ${rule}\\s`));
    expect(text).toContain('NOT CONFORMANT');
  });
});

describe('conformance checker probing our rate limit (opt-in, R-G7)', () => {
  let ours: OurServer;
  beforeAll(async () => {
    ours = await startOurServer({ config: tightRateLimitConfig() });
  });
  afterAll(async () => {
    await ours.close();
  });

  it('provokes the limit on both bindings and finds each refusal shaped as R-G7 describes', async () => {
    const report = await runConformance({ businessUrl: ours.server.url, ...HINTS, only: ['R-G7'], rateLimitProbe: 200 });
    const probe = report.results.filter((r) => r.check === 'negotiation.rate-limited');
    expect(
      probe.map((r) => [r.binding, r.status]),
      formatReport(report),
    ).toEqual([
      ['mcp', 'pass'],
      ['rest', 'pass'],
    ]);
  });

  it('does not judge a limit beyond the allowance', async () => {
    const roomy = await startOurServer();
    try {
      const report = await runConformance({ businessUrl: roomy.server.url, ...HINTS, only: ['R-G7'], rateLimitProbe: 20 });
      const probe = report.results.filter((r) => r.check === 'negotiation.rate-limited');
      expect(probe.map((r) => r.status)).toEqual(['skip', 'skip']);
      expect(probe[0]?.detail).toContain('within 20 searches');
    } finally {
      await roomy.close();
    }
  });
});
