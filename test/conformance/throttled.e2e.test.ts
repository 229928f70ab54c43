/**
 * The checker against our own server with a per-address budget far below what a run sends. Our
 * server charges every request before reading it and refuses the rest with 429 (MCP with
 * `"id": null`, since the id was never read). The checker must wait those refusals out and still
 * pass, and, when it may not wait, report the checks it could not finish as not evaluated rather
 * than fail the Business under an unrelated rule.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type ServerConfig } from '../../src/config.js';
import { formatReport, runConformance, type ConformanceOptions } from '../../src/conformance/index.js';
import { PRIVATE_ALIASES, PRIVATE_IDS } from '../contract/fixture.js';
import { startOurServer, type OurServer } from './support.js';

const HINTS = {
  serveProfile: true,
  allowLoopback: true,
  privateIds: [...PRIVATE_IDS, ...PRIVATE_ALIASES],
  aliases: [{ alias: 'downtown-store', id: 'loc_downtown' }],
} satisfies Omit<ConformanceOptions, 'businessUrl'>;

function perIpBudget(limit: number, windowSeconds: number): ServerConfig {
  return { ...DEFAULT_CONFIG, rateLimits: { ...DEFAULT_CONFIG.rateLimits, perIp: { limit, windowSeconds } } };
}

describe('conformance checker against a Business that rate-limits it (R-G7 refusals met by other checks)', () => {
  let ours: OurServer;
  beforeAll(async () => {
    ours = await startOurServer({ config: perIpBudget(50, 2) });
  });
  afterAll(async () => {
    await ours.close();
  });

  it('waits out every 429 and passes, reporting the retries and the wait', async () => {
    const started = Date.now();
    const report = await runConformance({ businessUrl: ours.server.url, ...HINTS });
    const elapsed = Date.now() - started;
    const text = formatReport(report);
    expect(
      report.results.filter((r) => r.status === 'fail'),
      text,
    ).toEqual([]);
    expect(report.results.filter((r) => r.detail?.includes('rate-limited the checker') === true)).toEqual([]);
    expect(report.throttling.retriedCalls).toBeGreaterThan(0);
    expect(report.throttling.waitedMs).toBeGreaterThan(0);
    expect(report.throttling.budgetExhausted).toBe(false);
    expect(text).toContain(`rate limiting: ${report.throttling.retriedCalls} call(s) retried after HTTP 429`);
    expect(elapsed, `${report.throttling.retriedCalls} retried, ${report.throttling.waitedMs} ms waited`).toBeLessThan(60_000);
  }, 90_000);
});

describe('conformance checker paced below a known budget (--pace)', () => {
  let ours: OurServer;
  beforeAll(async () => {
    ours = await startOurServer({ config: perIpBudget(50, 2) });
  });
  afterAll(async () => {
    await ours.close();
  });

  it('meets no refusal at 20 calls/s against 50 per 2 s, and passes', async () => {
    const report = await runConformance({ businessUrl: ours.server.url, ...HINTS, paceCallsPerSecond: 20 });
    const text = formatReport(report);
    expect(
      report.results.filter((r) => r.status === 'fail'),
      text,
    ).toEqual([]);
    expect(report.throttling).toMatchObject({ paceCallsPerSecond: 20, retriedCalls: 0, waitedMs: 0 });
    expect(text).toContain('paced at 20 calls/s');
  }, 90_000);
});

describe('conformance checker with no time to wait out a rate limit', () => {
  let ours: OurServer;
  beforeAll(async () => {
    ours = await startOurServer({ config: perIpBudget(50, 60) });
  });
  afterAll(async () => {
    await ours.close();
  });

  it('reports the checks that met a 429 as not evaluated, saying what to do, and fails no rule for it (R-M1)', async () => {
    const report = await runConformance({ businessUrl: ours.server.url, ...HINTS, retryBudgetMs: 0 });
    const text = formatReport(report);
    expect(
      report.results.filter((r) => r.status === 'fail'),
      text,
    ).toEqual([]);
    const throttled = report.results.filter((r) => r.detail?.includes('rate-limited the checker') === true);
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
