/**
 * `import --format jsonld|gbp` as a user runs it: the built CLI on the worked examples, warnings
 * in the human report and in --json, usage errors for directories of other formats.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../client/support/cli.js';
import { useScratchDir } from '../support/scratch.js';
import { allowForChildProcesses } from '../support/child-process-budget.js';

allowForChildProcesses();

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dir = useScratchDir('cli-onboarding');

// One CLI at a time: side by side, each test's time was the time of all of them, and a busy
// machine pushed them past the test timeout together (14 s each beside seven other engineers).
describe('ucp-location import --format jsonld|gbp', () => {
  it('imports a directory of JSON-LD files and pages, listing warnings after the summary', async () => {
    const run = await runCli(['import', '--format', 'jsonld', join(ROOT, 'examples/jsonld'), '--db', join(dir(), 'jsonld.db')], {
      cwd: dir(),
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Imported 5 location\(s\) \(5 public\)/);
    expect(run.stdout).toMatch(/paris\.html: 1 record\(s\), jsonld/);
    expect(run.stdout).toMatch(/4 warning\(s\) \(imported anyway/);
    // Features UCP does not define go under schema.org's own namespace, with one warning naming the flag.
    expect(run.stdout).toMatch(/org\.schema\.amenity\.\* .*--amenity-namespace/);
    expect(run.stdout).toMatch(/stores\.jsonld node 6 openingHoursSpecification\[1\]\.dayOfWeek: the PublicHolidays rule/);
  });

  it('reports warnings in --json and exits 0', async () => {
    const run = await runCli(
      ['import', '--format', 'gbp', join(ROOT, 'examples/gbp/locations.csv'), '--db', join(dir(), 'gbp.db'), '--json'],
      { cwd: dir() },
    );
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as {
      ok: boolean;
      locations: number;
      warningCount: number;
      warnings: { line: number; message: string }[];
    };
    expect(report).toMatchObject({ ok: true, locations: 4, warningCount: 1 });
    expect(report.warnings[0]).toMatchObject({
      line: 1,
      message: 'column(s) with no UCP counterpart, ignored: Website, Labels, From the business',
    });
  });

  it('--dry-run --json: derived zones and the diff against a store that does not exist yet (nothing created)', async () => {
    const db = join(dir(), 'never.db');
    const run = await runCli(['import', '--format', 'jsonld', join(ROOT, 'examples/jsonld'), '--db', db, '--dry-run', '--json'], {
      cwd: dir(),
    });
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as {
      dryRun: boolean;
      timezones: { timezone: string; records: number }[];
      diff: { added: string[] };
    };
    expect(report.dryRun).toBe(true);
    expect(report.diff.added).toHaveLength(5);
    expect(report.timezones.reduce((sum, z) => sum + z.records, 0)).toBe(5);
    expect(existsSync(db)).toBe(false);
  });

  it('--strict makes the warnings errors (exit 1, nothing written)', async () => {
    const db = join(dir(), 'strict.db');
    const run = await runCli(['import', '--format', 'gbp', join(ROOT, 'examples/gbp/locations.csv'), '--db', db, '--strict'], {
      cwd: dir(),
    });
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).toContain(
      'column(s) with no UCP counterpart, ignored: Website, Labels, From the business (an error because of --strict)',
    );
  });

  it('refuses a directory for a format that reads single files (exit 2)', async () => {
    const run = await runCli(['validate', '--format', 'gbp', join(ROOT, 'examples/gbp')], { cwd: dir() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('is a directory; only --format jsonld reads directories');
  });
});
