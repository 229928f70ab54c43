/**
 * The rule manifest and the rule-id citations in test titles (CONTRIBUTING: "Requirement ids").
 *
 * Titles here deliberately cite no rule id: these tests check the bookkeeping, not a rule.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { idsInText, scanRepository, scanSource } from '../../scripts/rules/citations.js';
import { buildReport, describeUnknown, formatReport } from '../../scripts/rules/report.js';
import type { RulesReport } from '../../scripts/rules/report.js';
import {
  extractRequirements,
  firstSentence,
  loadManifest,
  loadPlanned,
  MANIFEST_PATH,
  parseSpecRules,
  renderManifest,
  REPO_ROOT,
  REQUIREMENTS_PATH,
  RULE_ID_PATTERN,
  SPEC_PATH,
  specPresent,
  SYNC_COMMAND,
} from '../../scripts/rules/spec.js';
import { useScratchDir } from '../support/scratch.js';

describe('the rule manifest (test/rules/manifest.json)', () => {
  it('is exactly what the vendored requirement list (test/rules/spec-requirements.txt) yields, in every clone', () => {
    const expected = renderManifest(parseSpecRules(readFileSync(REQUIREMENTS_PATH, 'utf8')));
    expect(
      readFileSync(MANIFEST_PATH, 'utf8'),
      `test/rules/manifest.json does not match test/rules/spec-requirements.txt: run ${SYNC_COMMAND} beside ../shared and commit both`,
    ).toBe(expected);
  });

  it.runIf(specPresent())('vendors exactly the requirement list of ../shared/SPEC.md', () => {
    expect(
      readFileSync(REQUIREMENTS_PATH, 'utf8'),
      `test/rules/spec-requirements.txt is out of date with ../shared/SPEC.md: run ${SYNC_COMMAND} and commit it`,
    ).toBe(extractRequirements(readFileSync(SPEC_PATH, 'utf8')));
  });

  it('lists as planned only rules of the manifest, each with its open issue; a planned rule that gained a test is only a note', () => {
    const known = new Set(loadManifest().rules.map((r) => r.id));
    const planned = loadPlanned();
    expect(planned.filter((p) => !known.has(p.id)).map((p) => p.id)).toEqual([]);
    const report = buildReport(loadManifest(), scanRepository(REPO_ROOT), planned);
    expect(report.stalePlanned.filter((s) => s.endsWith('is not in the manifest'))).toEqual([]);
  });

  it.runIf(specPresent())('is exactly what ../shared/SPEC.md yields', () => {
    const expected = renderManifest(parseSpecRules(readFileSync(SPEC_PATH, 'utf8')));
    expect(
      readFileSync(MANIFEST_PATH, 'utf8'),
      `test/rules/manifest.json is out of date with ../shared/SPEC.md: run ${SYNC_COMMAND} and commit it`,
    ).toBe(expected);
  });

  it('holds unique, well-formed ids, each with a section, a one-sentence summary and a digest', () => {
    const { rules } = loadManifest();
    expect(rules.length).toBeGreaterThan(0);
    expect(new Set(rules.map((r) => r.id)).size).toBe(rules.length);
    for (const r of rules) {
      expect(r.id).toMatch(RULE_ID_PATTERN);
      expect(r.section, r.id).not.toBe('');
      expect(r.summary, r.id).toBe(firstSentence(r.summary));
      expect(r.digest, r.id).toMatch(/^[0-9a-f]{16}$/);
    }
  });
});

describe('rule ids cited in test titles', () => {
  it('are all in the manifest (each unknown one is reported with its file:line)', () => {
    const report = buildReport(loadManifest(), scanRepository(REPO_ROOT));
    expect(
      report.unknown.map(describeUnknown),
      `fix the id in the title, or if SPEC.md gained the rule, run ${SYNC_COMMAND} where ../shared is present`,
    ).toEqual([]);
  });
});

describe('reading SPEC.md', () => {
  const SPEC = [
    '# Title',
    'Intro mentioning R-X1 in prose, which is no rule.',
    '',
    '## 1. First section',
    '- R-A1 The first rule. It has a second sentence',
    '  continued on the next line.',
    '- R-A2 A rule with `code. inside` and e.g. an abbreviation before its end. Then more.',
    '',
    '## 2. Second (with a note)',
    '- R-B10 Only one sentence without a period',
    'A paragraph that is not part of R-B10.',
  ].join('\n');

  it('vendors the requirement list: only headings and rule bullets, from which the same rules are read', () => {
    const vendored = extractRequirements(SPEC);
    expect(vendored).not.toContain('Intro mentioning');
    expect(vendored).not.toContain('A paragraph that is not part');
    expect(parseSpecRules(vendored)).toEqual(parseSpecRules(SPEC));
  });

  it('lists planned rules apart from untested ones, and notes a planned rule that has a test or is unknown', () => {
    const manifest = { source: 's', rules: parseSpecRules(SPEC) };
    const scan = scanSource('x.test.ts', "it('covers R-A1', () => {});");
    const report = buildReport(manifest, scan, [
      { id: 'R-A2', issue: 1, note: 'later' },
      { id: 'R-A1', issue: 2, note: 'done already' },
      { id: 'R-Z9', issue: 3, note: 'typo' },
    ]);
    expect(report.untested).toEqual(['R-B10']);
    expect(report.planned.map((p) => p.id)).toEqual(['R-A2']);
    expect(report.stalePlanned).toEqual(['R-A1 has a test now: remove it from test/rules/planned.json', 'R-Z9 is not in the manifest']);
    expect(formatReport(report)).toContain('R-A2  #1  later');
  });

  it('takes each top-level rule bullet with its continuation lines and its section', () => {
    const rules = parseSpecRules(SPEC);
    expect(rules.map((r) => [r.id, r.section, r.summary])).toEqual([
      ['R-A1', '1. First section', 'The first rule.'],
      ['R-A2', '1. First section', 'A rule with `code. inside` and e.g. an abbreviation before its end.'],
      ['R-B10', '2. Second (with a note)', 'Only one sentence without a period'],
    ]);
  });

  it('changes the digest when any sentence changes, and only then', () => {
    const [a1] = parseSpecRules(SPEC);
    const [same] = parseSpecRules(SPEC.replace('  continued on', '     continued   on'));
    const [changed] = parseSpecRules(SPEC.replace('continued on the next line', 'continued elsewhere'));
    expect(same?.digest).toBe(a1?.digest);
    expect(changed?.summary).toBe(a1?.summary);
    expect(changed?.digest).not.toBe(a1?.digest);
  });

  it('refuses a duplicate id and a malformed one', () => {
    expect(() => parseSpecRules('## S\n- R-A1 One.\n- R-A1 Again.')).toThrow(/defines R-A1 twice/);
    expect(() => parseSpecRules('## S\n- R-a1 lower case.')).toThrow(/malformed id/);
  });
});

describe('reading the citations in test sources', () => {
  const scan = (text: string): ReturnType<typeof scanSource> => scanSource('x.test.ts', text);
  const declared = (text: string): [string, string[]][] => scan(text).tests.map((t) => [t.title, t.ids]);

  it('gives a test the ids of its own title and of every describe around it', () => {
    const source = [
      "describe('outer (R-A1)', () => {",
      "  describe('inner, R-B2 and R-B3', () => {",
      "    it('does a thing (R-C4)', () => {});",
      "    test('does another', () => {});",
      '  });',
      "  it('stands alone', () => {});",
      '});',
    ].join('\n');
    expect(declared(source)).toEqual([
      ['outer (R-A1) > inner, R-B2 and R-B3 > does a thing (R-C4)', ['R-A1', 'R-B2', 'R-B3', 'R-C4']],
      ['outer (R-A1) > inner, R-B2 and R-B3 > does another', ['R-A1', 'R-B2', 'R-B3']],
      ['outer (R-A1) > stands alone', ['R-A1']],
    ]);
    expect(scan(source).citations).toEqual([
      { id: 'R-A1', file: 'x.test.ts', line: 1 },
      { id: 'R-B2', file: 'x.test.ts', line: 2 },
      { id: 'R-B3', file: 'x.test.ts', line: 2 },
      { id: 'R-C4', file: 'x.test.ts', line: 3 },
    ]);
  });

  it('expands ranges, and reports both ends of a reversed one', () => {
    expect(idsInText('(R-H1..R-H3, R-S10; R-S1 is not R-S10x)').map((f) => f.id)).toEqual(['R-H1', 'R-H2', 'R-H3', 'R-S10', 'R-S1']);
    expect(idsInText('R-H1–R-H2').map((f) => f.id)).toEqual(['R-H1', 'R-H2']);
    expect(idsInText('R-H4..R-H2').map((f) => f.id)).toEqual(['R-H4', 'R-H2']);
    expect(idsInText('XR-S1, R-S, R-1').map((f) => f.id)).toEqual([]);
  });

  it('reads ids from an each table (same file) or a for-of table when the title takes text from it', () => {
    const source = [
      "const TABLE = [['R-A1 first', 1], ['R-A2 second', 2]];",
      "it.each(TABLE)('checks %s', () => {});",
      "it.each([{ name: 'R-B1 row' }])('$name', () => {});",
      "it.each(TABLE)('ignores the table without a placeholder', () => {});",
      'for (const [label, n] of TABLE) {',
      '  it(`rejects ${label}`, () => {});',
      '}',
    ].join('\n');
    expect(declared(source)).toEqual([
      ['checks %s', ['R-A1', 'R-A2']],
      ['$name', ['R-B1']],
      ['ignores the table without a placeholder', []],
      ['rejects ${label}', ['R-A1', 'R-A2']],
    ]);
  });

  it('knows the modifiers, describeWith, and what is not a test', () => {
    const source = [
      "describeWith(['postgis'], 'needs a service (R-A1)', () => {",
      "  it.skip('skipped (R-A2)', () => {});",
      "  it.todo('to do (R-A3)');",
      "  it.runIf(ok)('sometimes (R-A4)', () => {});",
      "  it.concurrent.each([1])('concurrently %s (R-A5)', () => {});",
      "  describe.skipIf(x).each([1])('group %s (R-A6)', () => { it('inside', () => {}); });",
      '});',
      "PATTERN.test('not a test (R-Z1)');",
      'it(name, () => {});',
      "expect('R-Z2').toBe('R-Z2');",
    ].join('\n');
    expect(scan(source).tests.map((t) => [t.title, t.ids, t.skipped])).toEqual([
      ['needs a service (R-A1) > skipped (R-A2)', ['R-A1', 'R-A2'], true],
      ['needs a service (R-A1) > to do (R-A3)', ['R-A1', 'R-A3'], true],
      ['needs a service (R-A1) > sometimes (R-A4)', ['R-A1', 'R-A4'], false],
      ['needs a service (R-A1) > concurrently %s (R-A5)', ['R-A1', 'R-A5'], false],
      ['needs a service (R-A1) > group %s (R-A6) > inside', ['R-A1', 'R-A6'], false],
    ]);
    expect(scan(source).citations.map((c) => c.id)).toEqual(['R-A1', 'R-A2', 'R-A3', 'R-A4', 'R-A5', 'R-A6']);
  });
});

describe('the rules report', () => {
  const manifest = {
    source: 'fixture',
    rules: [
      { id: 'R-A1', section: '1. A', summary: 'First.', digest: '0'.repeat(16) },
      { id: 'R-A2', section: '1. A', summary: 'Second.', digest: '1'.repeat(16) },
      { id: 'R-B1', section: '2. B', summary: 'Third.', digest: '2'.repeat(16) },
    ],
  };
  const scanned = scanSource(
    'y.test.ts',
    [
      "describe('group (R-A1)', () => {",
      "  it('one (R-B1)', () => {});",
      "  it.skip('skipped (R-A2)', () => {});",
      "  it('typo (R-A9)', () => {});",
      '});',
    ].join('\n'),
  );

  it('lists each rule with the tests declaring it; skipped tests verify nothing; unknown ids carry file:line', () => {
    const report = buildReport(manifest, scanned);
    expect(report.rules.map((r) => [r.id, r.tests.map((t) => `${t.file}:${t.line} ${t.title}`)])).toEqual([
      ['R-A1', ['y.test.ts:2 group (R-A1) > one (R-B1)', 'y.test.ts:4 group (R-A1) > typo (R-A9)']],
      ['R-A2', []],
      ['R-B1', ['y.test.ts:2 group (R-A1) > one (R-B1)']],
    ]);
    expect(report.rules.map((r) => r.pending.length)).toEqual([1, 1, 0]);
    expect(report.untested).toEqual(['R-A2']);
    expect(report.unknown.map(describeUnknown)).toEqual([
      'y.test.ts:4: R-A9 is not a rule id of test/rules/manifest.json (a typo, or a rule SPEC.md no longer has)',
    ]);
    expect(report.testCount).toBe(3);
  });

  it('prints sections, rules with their tests, then the untested rules and the unknown ids', () => {
    const text = formatReport(buildReport(manifest, scanned));
    expect(text).toBe(
      [
        '## 1. A',
        '',
        'R-A1  First.  [2 tests]',
        '    y.test.ts:2  group (R-A1) > one (R-B1)',
        '    y.test.ts:4  group (R-A1) > typo (R-A9)',
        '    (skipped or todo) y.test.ts:3  group (R-A1) > skipped (R-A2)',
        '',
        'R-A2  Second.  [no tests]',
        '    (skipped or todo) y.test.ts:3  group (R-A1) > skipped (R-A2)',
        '',
        '## 2. B',
        '',
        'R-B1  Third.  [1 test]',
        '    y.test.ts:2  group (R-A1) > one (R-B1)',
        '',
        '2 of 3 rules have a test that declares them (3 tests scanned).',
        'Untested (1):',
        '    R-A2  Second.',
        'Unknown rule ids cited (1):',
        '    y.test.ts:4: R-A9 is not a rule id of test/rules/manifest.json (a typo, or a rule SPEC.md no longer has)',
        '',
      ].join('\n'),
    );
    expect(formatReport(buildReport(manifest, scanned), new Set(['R-B1']))).toMatch(/^## 2\. B\n\nR-B1 {2}Third\./);
  });
});

/** Runs a script of scripts/ the way the npm scripts do (tsx), from the repository root. */
function runScript(script: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join('scripts', script), ...args],
      { cwd: REPO_ROOT, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
      },
    );
  });
}

// Each spawns tsx, which takes seconds on a loaded machine.
describe('npm run rules', { timeout: 120_000 }, () => {
  it('prints the report as JSON with --json, the same the library builds, and exits 0', async () => {
    const run = await runScript('rules.ts', ['--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const expected = buildReport(loadManifest(), scanRepository(REPO_ROOT), loadPlanned());
    expect(JSON.parse(run.stdout) as RulesReport).toEqual(expected);
  });

  it('exits 1 with --strict exactly when a rule is untested (and not planned) or an id is unknown, and 2 on a usage error', async () => {
    const report = buildReport(loadManifest(), scanRepository(REPO_ROOT), loadPlanned());
    const strict = await runScript('rules.ts', ['--strict', 'R-D1']);
    expect(strict.code).toBe(report.untested.length > 0 || report.unknown.length > 0 ? 1 : 0);
    expect(strict.stdout).toMatch(/^## 1\. /);
    expect(strict.stdout).toMatch(/^R-D1 {2}/m);
    expect(strict.stdout).not.toMatch(/^R-D2 {2}/m);
    const bad = await runScript('rules.ts', ['--nope', 'R-D99']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/usage: npm run rules/);
  });
});

describe('npm run rules:sync', { timeout: 120_000 }, () => {
  const scratch = useScratchDir('rules-sync');

  it('without SPEC.md says so, exits 0 and leaves the manifest alone', async () => {
    const manifest = join(scratch(), 'kept.json');
    writeFileSync(manifest, 'as committed\n');
    const run = await runScript('rules-manifest.ts', ['--spec', join(scratch(), 'absent', 'SPEC.md'), '--manifest', manifest]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/No SPEC\.md at .*absent.*left as committed/);
    expect(readFileSync(manifest, 'utf8')).toBe('as committed\n');
  });

  it('writes what SPEC.md yields, names added and removed ids, and then reports it up to date', async () => {
    const spec = join(scratch(), 'SPEC.md');
    const manifest = join(scratch(), 'manifest.json');
    writeFileSync(spec, '## 1. S\n- R-A1 One.\n- R-A2 Two.\n');
    writeFileSync(manifest, renderManifest(parseSpecRules('## 1. S\n- R-A1 One.\n- R-A3 Three.\n')));
    const first = await runScript('rules-manifest.ts', ['--spec', spec, '--manifest', manifest]);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/Wrote .*manifest\.json: 2 rules; added R-A2; removed R-A3\./);
    expect(readFileSync(manifest, 'utf8')).toBe(renderManifest(parseSpecRules(readFileSync(spec, 'utf8'))));
    const again = await runScript('rules-manifest.ts', ['--spec', spec, '--manifest', manifest]);
    expect(again.stdout).toMatch(/is up to date \(2 rules\)/);
  });
});
