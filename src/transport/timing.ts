import { performance } from 'node:perf_hooks';

/** Milliseconds since `started` (a `performance.now()` reading), to 0.01 ms, for log lines. */
export function elapsedMs(started: number): number {
  return Math.round((performance.now() - started) * 100) / 100;
}
