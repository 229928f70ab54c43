import { describe, expect, it } from 'vitest';
import { formatReport } from './report.js';
import type { CheckResult, ConformanceReport } from './types.js';

const UNTHROTTLED: ConformanceReport['throttling'] = {
  paceCallsPerSecond: null,
  retriedCalls: 0,
  waitedMs: 0,
  budgetMs: 45_000,
  budgetExhausted: false,
};

function report(results: CheckResult[], throttling = UNTHROTTLED): ConformanceReport {
  const count = (s: CheckResult['status']) => results.filter((r) => r.status === s).length;
  return {
    target: 'https://business.example',
    profileUrl: 'https://business.example/.well-known/ucp',
    platformProfileUrl: 'https://platform.example/profile.json',
    ucpVersion: '2026-08-25',
    bindings: ['mcp', 'rest'],
    startedAt: '2026-11-30T00:00:00.000Z',
    durationMs: 1234,
    results,
    summary: { pass: count('pass'), fail: count('fail'), skip: count('skip') },
    throttling,
    ok: count('fail') === 0,
  };
}

const failing: CheckResult = {
  rule: 'R-S4',
  check: 'search.radius-inclusive',
  area: 'search',
  title: 'distance is inclusive',
  binding: 'rest',
  status: 'fail',
  detail: 'loc_a is missing',
  evidence: [
    {
      expected: 'loc_a included',
      observed: 'loc_a is missing',
      request: 'POST https://b/ucp/locations/search {…}',
      response: 'HTTP 200 {…}',
    },
  ],
};

describe('formatReport', () => {
  it('groups by area in report order with ✓ / ✗ / – and evidence under failures only', () => {
    const text = formatReport(
      report([
        failing,
        { rule: 'R-D5', check: 'discovery.validator', area: 'discovery', title: 'validator', status: 'pass', evidence: [] },
        {
          rule: 'R-S11',
          check: 'privacy.never-returned',
          area: 'privacy',
          title: 'no private',
          status: 'skip',
          detail: 'no private ids given',
          evidence: [],
        },
      ]),
    );
    const lines = text.split('\n');
    const at = (s: string) => lines.findIndex((l) => l.includes(s));
    expect(at('Discovery and profile hosting')).toBeLessThan(at('Search semantics'));
    expect(at('Search semantics')).toBeLessThan(at('Privacy'));
    expect(text).toContain('  ✓ R-D5   validator');
    expect(text).toContain('  ✗ R-S4   distance is inclusive [rest] — loc_a is missing');
    expect(text).toContain('  – R-S11  no private (skipped: no private ids given)');
    expect(text).toContain('expected: loc_a included');
    expect(text).toContain('request:  POST https://b/ucp/locations/search');
    expect(text).toContain('response: HTTP 200');
    expect(text).toContain('1 passed, 1 failed, 1 skipped in 1.2 s — failing rules: R-S4');
    expect(text.trimEnd().endsWith('NOT CONFORMANT.')).toBe(true);
  });

  it('ends with a conformant verdict when nothing failed', () => {
    expect(formatReport(report([]))).toMatch(/CONFORMANT for every check that ran\.$/);
  });

  it('says how many calls were retried after a 429 and how long the run waited', () => {
    const quiet = formatReport(report([]));
    expect(quiet).toContain('rate limiting: 0 call(s) retried after HTTP 429, 0.0 s waited of the 45 s budget; unpaced');
    const text = formatReport(
      report([], { paceCallsPerSecond: 4, retriedCalls: 7, waitedMs: 12_345, budgetMs: 45_000, budgetExhausted: true }),
    );
    expect(text).toContain('rate limiting: 7 call(s) retried after HTTP 429, 12.3 s waited of the 45 s budget; paced at 4 calls/s');
    expect(text).toContain('budget exhausted; checks refused after that are skipped as not evaluated');
  });
});
