/**
 * `ucp-location conformance` as a user runs it: the real CLI in a child process against servers on
 * loopback. Exit statuses: 0 conformant, 1 a check failed, 2 usage.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../client/support/cli.js';
import { noProfileValidator, startBrokenServer, type BrokenServer } from './broken-servers.js';
import { startOurServer, type OurServer } from './support.js';
import { allowForChildProcesses } from '../support/child-process-budget.js';

allowForChildProcesses();

// The profile variable is set, and empty, so a developer's own UCP_PLATFORM_PROFILE never reaches the run.
function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return runCli(['conformance', ...args], { env: { UCP_PLATFORM_PROFILE: '' } });
}

// Each case starts the CLI and a conformance run against a live server: seconds on a busy machine.
describe('ucp-location conformance (CLI)', () => {
  let ours: OurServer;
  let broken: BrokenServer;

  beforeAll(async () => {
    ours = await startOurServer();
    broken = await startBrokenServer(noProfileValidator);
  });
  afterAll(async () => {
    await ours.close();
    await broken.close();
  });

  it('exits 0 and prints the report as JSON for a conformant business', async () => {
    const run = await cli(ours.server.url, '--serve-profile', '--only', 'R-S10,R-D5', '--json');
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { ok: boolean; results: { rule: string; status: string }[] };
    expect(report.ok).toBe(true);
    expect(new Set(report.results.map((r) => r.rule))).toEqual(new Set(['R-S10', 'R-D5']));
    expect(report.results.filter((r) => r.rule === 'R-S10').map((r) => r.status)).toEqual(['pass', 'pass']);
  });

  it('exits 1 and names the failing rule with evidence for a non-conformant business', async () => {
    const run = await cli(broken.url, '--allow-loopback', '--only', 'R-D5');
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/✗ R-D5 +the profile carries a validator/);
    expect(run.stdout).toMatch(/expected: an ETag or Last-Modified header/);
    expect(run.stdout).toMatch(/request: +GET http:\/\/127\.0\.0\.1:\d+\/\.well-known\/ucp/);
    expect(run.stdout).toMatch(/NOT CONFORMANT/);
  });

  it('exits 2 with an actionable message on usage errors', async () => {
    const [noProfile, badOnly, http] = await Promise.all([
      cli(ours.server.url, '--allow-loopback'),
      cli(ours.server.url, '--serve-profile', '--only', 'S4'),
      cli(ours.server.url, '--platform-profile', 'https://platform.example/p.json'),
    ]);
    expect(noProfile.code).toBe(2);
    expect(noProfile.stderr).toMatch(/--platform-profile <url>, or --serve-profile/);
    expect(badOnly.code).toBe(2);
    expect(badOnly.stderr).toMatch(/--only "S4" is not a rule id prefix/);
    expect(http.code).toBe(2);
    expect(http.stderr).toMatch(/--allow-loopback/);
  });
});
