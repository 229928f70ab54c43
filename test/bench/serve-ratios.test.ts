/**
 * The index-file keys of #30 under `ratios` (serve_ready_1m_s, serve_rss_1m_mib,
 * index_file_load_1m_s): taken from the e2e MCP server and the index-file setup of the largest
 * size, judged against their targets only at 1M, informative below.
 */
import { describe, expect, it } from 'vitest';
import { computeRatios, type E2eResult, type E2eTarget, type SetupRow } from '../../bench/lib/report.js';

function target(readySeconds: number, maxRssMiB: number): E2eTarget {
  return {
    requestsPerSecond: 100,
    latencyP50Ms: 5,
    latencyP99Ms: 20,
    requests: 1000,
    non2xx: 0,
    errors: 0,
    timeouts: 0,
    maxRssMiB,
    readySeconds,
  };
}

function e2eAt(size: number, mcp: E2eTarget): E2eResult {
  return { size, connections: 64, secondsPerTarget: 10, mcp, direct: target(1, 100), failure: null };
}

describe('bench ratios of the index file', () => {
  const setups: SetupRow[] = [
    { size: 1_000_000, datasetBytes: 1, naiveLoadSeconds: 1, indexBuildSeconds: 120, indexFileLoadSeconds: 6.5, indexFileBytes: 2 ** 30 },
  ];

  it('at 1M: ready and RSS are judged against 15 s and 1536 MiB; the load time is informative', () => {
    const ratios = computeRatios([], [], e2eAt(1_000_000, target(12, 1600)), [10_000, 1_000_000], setups);
    expect(ratios['serve_ready_1m_s']).toMatchObject({ value: 12, target: '<= 15', met: true });
    expect(ratios['serve_rss_1m_mib']).toMatchObject({ value: 1600, target: '<= 1536', met: false });
    expect(ratios['index_file_load_1m_s']).toMatchObject({ value: 6.5, target: 'informative', met: null });
    expect(ratios['index_file_load_1m_s']?.basis).toContain('1024 MiB');
  });

  it('below 1M, or without an end-to-end run: reported, never met', () => {
    const small = computeRatios([], [], e2eAt(100_000, target(3, 300)), [100_000], []);
    expect(small['serve_ready_1m_s']).toMatchObject({ value: 3, target: 'informative', met: null });
    expect(small['serve_rss_1m_mib']).toMatchObject({ value: 300, target: 'informative', met: null });
    expect(small['index_file_load_1m_s']).toMatchObject({ value: null, basis: 'index file not measured' });
    const none = computeRatios([], [], { skipped: '--no-e2e' }, [1_000_000], setups);
    expect(none['serve_ready_1m_s']).toMatchObject({ value: null, met: null });
  });
});
