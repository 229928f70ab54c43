/**
 * What `npm run soak` measured and whether that passes: kept apart from the run so the rule can be
 * tested without running a server for minutes.
 */

export interface SoakSummary {
  durationS: number;
  connections: number;
  calls: number;
  requestsPerSecond: number;
  latencyMs: { p50: number; p99: number; max: number };
  /** Network errors (refused, reset), timeouts and non-2xx answers: each one fails the run. */
  errors: number;
  timeouts: number;
  non2xx: number;
  /**
   * Server RSS: at start, then medians of once-a-second readings right after the warm-up and over
   * the last part of the run, as long as the warm-up (undefined where unreadable).
   */
  rssBytes: { start: number | undefined; warm: number | undefined; end: number | undefined };
  warmUpS: number;
  maxRssGrowthPct: number;
}

export interface SoakVerdict {
  passed: boolean;
  failures: string[];
  /** End against warm-up, percent; undefined when either could not be read. */
  rssGrowthPct: number | undefined;
}

export function soakVerdict(summary: SoakSummary): SoakVerdict {
  const failures: string[] = [];
  if (summary.calls === 0) failures.push('no call was answered');
  if (summary.errors > 0) failures.push(`${summary.errors} network errors`);
  if (summary.timeouts > 0) failures.push(`${summary.timeouts} timeouts`);
  if (summary.non2xx > 0) failures.push(`${summary.non2xx} non-2xx answers`);
  const { warm, end } = summary.rssBytes;
  const rssGrowthPct = warm === undefined || end === undefined || warm === 0 ? undefined : ((end - warm) / warm) * 100;
  if (rssGrowthPct === undefined) failures.push('the server RSS could not be read, so memory growth is unknown');
  else if (rssGrowthPct > summary.maxRssGrowthPct)
    failures.push(`server RSS grew ${rssGrowthPct.toFixed(1)}% after the warm-up (limit ${summary.maxRssGrowthPct}%)`);
  return { passed: failures.length === 0, failures, rssGrowthPct };
}

/** Nearest-rank percentile of latencies in ms, to 0.1 ms (0 for none); p100 is the maximum. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return Math.round((sorted[rank - 1] ?? 0) * 10) / 10;
}
