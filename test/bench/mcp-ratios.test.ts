/**
 * `mcp_vs_direct_100k` (#31): MCP req/s over direct req/s at 100k, shaped as the other keys, from
 * the end-to-end run at that size — the largest size's run, or the extra run a larger bench makes
 * at 100k — and never from a run at another size.
 */
import { describe, expect, it } from 'vitest';
import { computeRatios, renderMarkdown, type BenchResults, type E2eResult, type E2eTarget } from '../../bench/lib/report.js';

function target(requestsPerSecond: number, cpuMsPerRequest: number): E2eTarget {
  return { requestsPerSecond, latencyP50Ms: 5, latencyP99Ms: 20, requests: 1000, non2xx: 0, errors: 0, timeouts: 0, cpuMsPerRequest };
}

function run(size: number, mcp: number, direct: number, failure: string | null = null): E2eResult {
  return { size, connections: 64, secondsPerTarget: 10, mcp: target(mcp, 0.3), direct: target(direct, 0.2), failure };
}

describe('bench ratio mcp_vs_direct_100k', () => {
  it('from the run at 100k, whether it is the largest size or the extra one', () => {
    const only = computeRatios([], [], run(100_000, 700, 1000), [10_000, 100_000]);
    expect(only['mcp_vs_direct_100k']).toMatchObject({ value: 0.7, target: '>= 0.6', met: true });
    expect(only['mcp_vs_direct_100k']?.basis).toContain('@ 100k');
    const extra = computeRatios([], [], run(1_000_000, 900, 1000), [10_000, 100_000, 1_000_000], [], run(100_000, 500, 1000));
    expect(extra['mcp_vs_direct_100k']).toMatchObject({ value: 0.5, target: '>= 0.6', met: false });
    expect(extra['mcp_vs_direct']).toMatchObject({ value: 0.9 });
  });

  it('not from another size, and not from a failed run', () => {
    const at1m = computeRatios([], [], run(1_000_000, 900, 1000), [1_000_000]);
    expect(at1m['mcp_vs_direct_100k']).toMatchObject({ value: null, target: '>= 0.6', met: null });
    expect(at1m['mcp_vs_direct_100k']?.basis).toContain('needs 100k in --sizes');
    const failed = computeRatios([], [], run(100_000, 700, 1000, 'MCP had 3 non-2xx answers'), [100_000]);
    expect(failed['mcp_vs_direct_100k']).toMatchObject({ value: null, met: null });
    expect(failed['mcp_vs_direct_100k']?.basis).toContain('not counted: MCP had 3 non-2xx answers');
  });

  it('the report shows the extra run', () => {
    const results: BenchResults = {
      machine: 'test',
      generatedAt: '2026-12-07T00:00:00Z',
      mode: 'full',
      command: 'npm run bench',
      seed: 's',
      sizes: [100_000, 1_000_000],
      settings: { budgetSecondsPerCell: 1, instancesPerQuery: 1, e2eSeconds: 1, connections: 64 },
      ratios: {},
      queries: [],
      contenders: [],
      latency: [],
      matches: [],
      imports: [],
      setup: [],
      e2e: run(1_000_000, 900, 1000),
      e2eSmall: run(100_000, 650, 1000),
      profile: null,
      notes: [],
    };
    const md = renderMarkdown(results);
    expect(md).toContain('At 100k (`mcp_vs_direct_100k`)');
    expect(md).toContain('store of 100k locations');
  });
});
