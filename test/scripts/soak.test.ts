/**
 * `npm run soak` as a user runs it: the script starts its own loopback server on the demo data,
 * loads it with valid MCP and REST calls, and prints a summary; a short run here (the 5-minute one
 * is in docs/reliability.md). The pass/fail rule is tested on its own below.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { percentile, soakVerdict } from '../../scripts/soak-verdict.js';
import type { SoakSummary } from '../../scripts/soak-verdict.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function runSoak(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'scripts/soak.ts', ...args],
      { cwd: ROOT, timeout: 120_000 },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
      },
    );
  });
}

describe('npm run soak', { timeout: 150_000 }, () => {
  it('a 4-second run at 4 connections: every call answered 2xx, a JSON summary, exit 0', async () => {
    // A generous memory limit: over 4 s the warm-up is under a second, too short for a stable RSS.
    const run = await runSoak(['--duration', '4', '--connections', '4', '--json', '--max-rss-growth', '200']);
    const summary = JSON.parse(run.stdout) as SoakSummary & { passed: boolean; failures: string[] };
    expect(summary.failures).toEqual([]);
    expect(summary.passed).toBe(true);
    expect(summary.calls).toBeGreaterThan(20);
    expect(summary.errors + summary.timeouts + summary.non2xx).toBe(0);
    expect(summary.latencyMs.p50).toBeGreaterThan(0);
    expect(summary.latencyMs.p99).toBeGreaterThanOrEqual(summary.latencyMs.p50);
    expect(summary.rssBytes.end).toBeGreaterThan(10 * 1024 * 1024);
    expect(run.stderr).toMatch(/^soak: 4 connections, 4 s, MCP \+ REST search\/lookup → http:\/\/127\.0\.0\.1:\d+$/m);
    expect(run.code).toBe(0);
  });

  it('refuses bad options with the usage (exit 2)', async () => {
    const run = await runSoak(['--connections', 'many']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--connections must be a whole number');
    expect(run.stderr).toContain('usage: npm run soak');
  });
});

describe('the soak verdict', () => {
  const clean: SoakSummary = {
    durationS: 300,
    connections: 100,
    calls: 100_000,
    requestsPerSecond: 333,
    latencyMs: { p50: 10, p99: 50, max: 90 },
    errors: 0,
    timeouts: 0,
    non2xx: 0,
    rssBytes: { start: 150e6, warm: 200e6, end: 210e6 },
    warmUpS: 60,
    maxRssGrowthPct: 10,
  };

  it('passes a run without errors whose memory grew at most the limit after the warm-up', () => {
    expect(soakVerdict(clean)).toEqual({ passed: true, failures: [], rssGrowthPct: 5 });
    // Growth during the warm-up itself does not count.
    expect(soakVerdict({ ...clean, rssBytes: { start: 50e6, warm: 200e6, end: 220e6 } }).passed).toBe(true);
  });

  it.each([
    ['one network error', { errors: 1 }, '1 network errors'],
    ['one timeout', { timeouts: 1 }, '1 timeouts'],
    ['one non-2xx answer', { non2xx: 1 }, '1 non-2xx answers'],
    ['RSS growth over 10% after the warm-up', { rssBytes: { start: 150e6, warm: 200e6, end: 221e6 } }, 'server RSS grew 10.5%'],
    ['an unreadable RSS', { rssBytes: { start: undefined, warm: undefined, end: undefined } }, 'could not be read'],
  ])('fails a run with %s', (_name, change, failure) => {
    const verdict = soakVerdict({ ...clean, ...change });
    expect(verdict.passed).toBe(false);
    expect(verdict.failures.join('; ')).toContain(failure);
  });

  it('computes nearest-rank percentiles', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect([percentile(values, 50), percentile(values, 99), percentile(values, 100), percentile([], 50)]).toEqual([50, 99, 100, 0]);
  });
});
