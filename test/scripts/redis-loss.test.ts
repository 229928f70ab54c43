/**
 * `npm run redis-loss` as a user runs it (short phases): a private redis-server on a free loopback
 * port is killed under load and restarted. Budgets must fall back to per-instance memory (the
 * two instances then admit one budget each), no call may fail, and shared counting must resume
 * once Redis is back. The long run's figures are in docs/reliability.md.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { describeWith } from '../support/services.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function runRedisLoss(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'scripts/redis-loss.ts', ...args],
      { cwd: ROOT, timeout: 90_000 },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
      },
    );
  });
}

interface Phase {
  phase: string;
  calls: number;
  ok: number;
  limited: number;
  errors: number;
}

describeWith(['redis'], 'npm run redis-loss', () => {
  it('Redis killed under load: budgets fall back to each instance, no call fails, sharing resumes after the restart', async () => {
    const run = await runRedisLoss(['--seconds', '1.5', '--concurrency', '4', '--budget', '40', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { phases: Phase[]; downWarnings: number; recoveredAfterMs: number | null };
    expect(result.phases.map((p) => p.errors)).toEqual([0, 0, 0]);
    // One budget for the fleet while shared; one per instance while Redis is gone; one again after.
    expect(result.phases.map((p) => p.ok)).toEqual([40, 80, 40]);
    for (const p of result.phases) expect(p.limited).toBeGreaterThan(0);
    expect(result.downWarnings).toBe(2); // one warning per instance, not one per request
    expect(result.recoveredAfterMs).not.toBeNull();
  }, 120_000);
});
