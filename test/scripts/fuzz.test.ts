/**
 * `npm run fuzz` as a user runs it: the script starts its own loopback server, sends seeded
 * mutations, prints a summary and exits 0 only when no call got a 5xx or a dropped connection.
 * A short run here (the long one is in docs/reliability.md); before the depth limit, ~0.5% of these
 * calls (the deep-nesting ones) got HTTP 500 and the run exited 1.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function runFuzz(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'scripts/fuzz.ts', ...args],
      { cwd: ROOT, timeout: 120_000 },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
      },
    );
  });
}

describe('npm run fuzz', { timeout: 150_000 }, () => {
  it('600 seeded mutated calls over MCP and REST: no 5xx, no dropped connection, a summary, exit 0', async () => {
    const run = await runFuzz(['--count', '600', '--seconds', '90', '--seed', 'test', '--concurrency', '4']);
    expect(run.stdout).toMatch(/^fuzz: seed test, 600 calls in [\d.]+ s \(\d+ calls\/s\)$/m);
    expect(run.stdout).toMatch(/^status: .*200×\d+.*400×\d+/m);
    expect(run.stdout).toMatch(/^mutations: .*deep×\d+.*type_swap×\d+/m);
    expect(run.stdout).toContain('failures: 0 (5xx: 0, dropped connections: 0, wrong shape: 0)');
    expect(run.stdout).not.toMatch(/^status: .*\b5\d\d×/m);
    expect(run.code).toBe(0);
  });

  it('refuses bad options with the usage (exit 2)', async () => {
    const run = await runFuzz(['--count', 'many']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('usage: npm run fuzz');
  });
});
