/**
 * The checker against our own server with a per-address budget far below what a run sends. Our
 * server charges every request before reading it and refuses the rest with 429 (MCP with
 * `"id": null`, since the id was never read). The checker must wait those refusals out and still
 * pass, and, when it may not wait, report the checks it could not finish as not evaluated rather
 * than fail the Business under an unrelated rule.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/config.js';
import { formatReport, runConformance, type ConformanceOptions, type ConformanceReport } from '../../src/conformance/index.js';
import { HINTS, startOurServer, type OurServer } from './support.js';

/**
 * A fresh server of our own allowing each address `limit` requests per `windowSeconds`, for the
 * tests of the enclosing describe; `run` runs the checker against it.
 */
function withPerIpBudget(limit: number, windowSeconds: number): { run(options?: Partial<ConformanceOptions>): Promise<ConformanceReport> } {
  let ours: OurServer | undefined;
  beforeAll(async () => {
    ours = await startOurServer({
      config: { ...DEFAULT_CONFIG, rateLimits: { ...DEFAULT_CONFIG.rateLimits, perIp: { limit, windowSeconds } } },
    });
  });
  afterAll(async () => {
    await ours?.close();
  });
  return { run: (options = {}) => runConformance({ businessUrl: (ours as OurServer).server.url, ...HINTS, ...options }) };
}

const failures = (report: ConformanceReport) => report.results.filter((r) => r.status === 'fail');
const throttledChecks = (report: ConformanceReport) =>
  report.results.filter((r) => r.detail?.includes('rate-limited the checker') === true);

describe('conformance checker against a Business that rate-limits it (R-G7 refusals met by other checks)', () => {
  const business = withPerIpBudget(50, 2);

  it('waits out every 429 and passes, reporting the retries and the wait', async () => {
    const started = Date.now();
    const report = await business.run();
    const elapsed = Date.now() - started;
    const text = formatReport(report);
    expect(failures(report), text).toEqual([]);
    expect(throttledChecks(report)).toEqual([]);
    expect(report.throttling.retriedCalls).toBeGreaterThan(0);
    expect(report.throttling.waitedMs).toBeGreaterThan(0);
    expect(report.throttling.budgetExhausted).toBe(false);
    expect(text).toContain(`rate limiting: ${report.throttling.retriedCalls} call(s) retried after HTTP 429`);
    expect(elapsed, `${report.throttling.retriedCalls} retried, ${report.throttling.waitedMs} ms waited`).toBeLessThan(60_000);
  }, 90_000);
});

describe('conformance checker paced below a known budget (--pace)', () => {
  const business = withPerIpBudget(50, 2);

  it('meets no refusal at 20 calls/s against 50 per 2 s, and passes', async () => {
    const report = await business.run({ paceCallsPerSecond: 20 });
    const text = formatReport(report);
    expect(failures(report), text).toEqual([]);
    expect(report.throttling).toMatchObject({ paceCallsPerSecond: 20, retriedCalls: 0, waitedMs: 0 });
    expect(text).toContain('paced at 20 calls/s');
  }, 90_000);
});

describe('conformance checker with no time to wait out a rate limit', () => {
  const business = withPerIpBudget(50, 60);

  it('reports the checks that met a 429 as not evaluated, saying what to do, and fails no rule for it (R-M1)', async () => {
    const report = await business.run({ retryBudgetMs: 0 });
    const text = formatReport(report);
    expect(failures(report), text).toEqual([]);
    const throttled = throttledChecks(report);
    expect(throttled.length).toBeGreaterThan(0);
    expect(throttled.every((r) => r.status === 'skip')).toBe(true);
    expect(throttled[0]?.detail).toMatch(/--pace <calls-per-second>.*--retry-budget <seconds>/);
    expect(report.throttling).toMatchObject({ retriedCalls: 0, waitedMs: 0, budgetExhausted: true });
    expect(text).toContain('budget exhausted');
    // The unretried MCP refusals answered "id": null before reading the request; JSON-RPC allows that.
    const envelope = report.results.find((r) => r.check === 'jsonrpc.envelope');
    expect(envelope?.status, text).toBe('pass');
  }, 60_000);
});
