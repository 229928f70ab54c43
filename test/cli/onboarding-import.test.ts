/**
 * `import --format jsonld|gbp` as a user runs it: the built CLI on the worked examples, warnings
 * in the human report and in --json, usage errors for directories of other formats.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../client/support/cli.js';
import { useScratchDir } from '../support/scratch.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dir = useScratchDir('cli-onboarding');

describe.concurrent('ucp-location import --format jsonld|gbp', () => {
  it('imports a directory of JSON-LD files and pages, listing warnings after the summary', async () => {
    const run = await runCli(['import', '--format', 'jsonld', join(ROOT, 'examples/jsonld'), '--db', join(dir(), 'jsonld.db')], {
      cwd: dir(),
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Imported 5 location\(s\) \(5 public\)/);
    expect(run.stdout).toMatch(/paris\.html: 1 record\(s\), jsonld/);
    expect(run.stdout).toMatch(/3 warning\(s\) \(imported anyway/);
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

  it('refuses a directory for a format that reads single files (exit 2)', async () => {
    const run = await runCli(['validate', '--format', 'gbp', join(ROOT, 'examples/gbp')], { cwd: dir() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('is a directory; only --format jsonld reads directories');
  });
});
