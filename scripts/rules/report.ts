/**
 * The rules report: every rule of the manifest with the tests that declare they verify it, the
 * rules no test declares, and the citations of ids the manifest does not know.
 */
import type { Citation, ScanResult } from './citations.js';
import type { Manifest, PlannedRule } from './spec.js';

export interface TestRef {
  file: string;
  line: number;
  title: string;
}

export interface RuleCoverage {
  id: string;
  section: string;
  summary: string;
  tests: TestRef[];
  /** `it.skip` / `it.todo` citing the rule: known gaps, shown but not counted as verifying. */
  pending: TestRef[];
}

export interface RulesReport {
  rules: RuleCoverage[];
  /** Ids of the manifest that no (non-skipped) test declares and no open issue plans. */
  untested: string[];
  /** Untested rules an open issue will cover (test/rules/planned.json): listed, not failing --strict. */
  planned: PlannedRule[];
  /** Entries of planned.json whose rule now has a test (remove them) or is not in the manifest (a typo). */
  stalePlanned: string[];
  /** Citations of ids that are not in the manifest: typos, or rules SPEC.md no longer has. */
  unknown: Citation[];
  /** Tests found in the sources, skipped ones included. */
  testCount: number;
}

function refs(scan: ScanResult, id: string, skipped: boolean): TestRef[] {
  return scan.tests.filter((t) => t.skipped === skipped && t.ids.includes(id)).map(({ file, line, title }) => ({ file, line, title }));
}

export function buildReport(manifest: Manifest, scan: ScanResult, plannedRules: readonly PlannedRule[] = []): RulesReport {
  const known = new Set(manifest.rules.map((r) => r.id));
  const rules = manifest.rules.map((r): RuleCoverage => ({
    id: r.id,
    section: r.section,
    summary: r.summary,
    tests: refs(scan, r.id, false),
    pending: refs(scan, r.id, true),
  }));
  const untestedIds = rules.filter((r) => r.tests.length === 0).map((r) => r.id);
  const plannedIds = new Set(plannedRules.map((p) => p.id));
  return {
    rules,
    untested: untestedIds.filter((id) => !plannedIds.has(id)),
    planned: plannedRules.filter((p) => untestedIds.includes(p.id)),
    stalePlanned: plannedRules
      .filter((p) => !untestedIds.includes(p.id))
      .map((p) => (known.has(p.id) ? `${p.id} has a test now: remove it from test/rules/planned.json` : `${p.id} is not in the manifest`)),
    unknown: scan.citations.filter((c) => !known.has(c.id)),
    testCount: scan.tests.length,
  };
}

/** `file:line: R-S40 is not a rule id …` — one line per unknown citation, for the test and the CLI. */
export function describeUnknown(c: Citation): string {
  return `${c.file}:${c.line}: ${c.id} is not a rule id of test/rules/manifest.json (a typo, or a rule SPEC.md no longer has)`;
}

/** The report for a person: rules by section, their tests, then what is missing. */
export function formatReport(report: RulesReport, only?: ReadonlySet<string>): string {
  const lines: string[] = [];
  let section: string | undefined;
  for (const rule of report.rules) {
    if (only !== undefined && !only.has(rule.id)) continue;
    if (rule.section !== section) {
      section = rule.section;
      lines.push('', `## ${section}`);
    }
    const count = rule.tests.length === 0 ? 'no tests' : rule.tests.length === 1 ? '1 test' : `${rule.tests.length} tests`;
    lines.push('', `${rule.id}  ${rule.summary}  [${count}]`);
    for (const t of rule.tests) lines.push(`    ${t.file}:${t.line}  ${t.title}`);
    for (const t of rule.pending) lines.push(`    (skipped or todo) ${t.file}:${t.line}  ${t.title}`);
  }
  const untested = report.rules.filter((r) => report.untested.includes(r.id));
  const tested = report.rules.filter((r) => r.tests.length > 0).length;
  lines.push('', `${tested} of ${report.rules.length} rules have a test that declares them (${report.testCount} tests scanned).`);
  if (untested.length > 0) {
    lines.push(`Untested (${untested.length}):`);
    for (const r of untested) lines.push(`    ${r.id}  ${r.summary}`);
  }
  if (report.planned.length > 0) {
    lines.push(`Planned (${report.planned.length}), each covered by an open issue:`);
    for (const p of report.planned) lines.push(`    ${p.id}  #${p.issue}  ${p.note}`);
  }
  for (const s of report.stalePlanned) lines.push(`Note: ${s}`);
  if (report.unknown.length > 0) {
    lines.push(`Unknown rule ids cited (${report.unknown.length}):`);
    for (const c of report.unknown) lines.push(`    ${describeUnknown(c)}`);
  }
  return `${lines.join('\n').replace(/^\n/, '')}\n`;
}
