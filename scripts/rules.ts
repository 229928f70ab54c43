/**
 * npm run rules [-- [--json] [--strict] [R-S4 …]]
 *
 * Prints every rule id of test/rules/manifest.json with the tests that declare they verify it
 * (an id in the test's title or an enclosing describe title), then the rules no test declares and
 * any cited id the manifest does not know. Reads the sources only; it runs no test.
 *
 * Rules an open issue will cover (test/rules/planned.json, each with its issue number) are listed
 * as planned instead of untested.
 *
 * Exit status: 0 (it is a report), 1 with --strict when a rule is untested and not planned, an
 * unknown id is cited, planned.json names a rule the manifest does not have, or the manifest is
 * not what the vendored SPEC requirement list (test/rules/spec-requirements.txt) yields; 2 on a
 * usage error.
 */
import { scanRepository } from './rules/citations.js';
import { buildReport, formatReport } from './rules/report.js';
import { parseScriptArgs } from './script-args.js';
import { readFileSync } from 'node:fs';
import {
  loadManifest,
  loadPlanned,
  MANIFEST_PATH,
  parseSpecRules,
  renderManifest,
  REPO_ROOT,
  REQUIREMENTS_PATH,
  RULE_ID_PATTERN,
  SYNC_COMMAND,
} from './rules/spec.js';

const USAGE = `usage: npm run rules -- [--json] [--strict] [R-ID …]
  --json     the report as JSON: {rules: [{id, section, summary, tests, pending}], untested, unknown, testCount}
  --strict   exit 1 when a rule has no test (and no open issue planning one) or a test cites an unknown id
  R-ID …     show only these rules (the totals still cover all of them)`;

function main(argv: string[]): number {
  const parsed = parseScriptArgs(argv, { json: { type: 'boolean' }, strict: { type: 'boolean' } }, USAGE);
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  const manifest = loadManifest();
  const known = new Set(manifest.rules.map((r) => r.id));
  const wrong = positionals.filter((p) => !RULE_ID_PATTERN.test(p) || !known.has(p));
  if (wrong.length > 0) {
    console.error(`not a rule id of test/rules/manifest.json: ${wrong.join(', ')}\n${USAGE}`);
    return 2;
  }
  const report = buildReport(manifest, scanRepository(REPO_ROOT), loadPlanned());
  if (values.json === true) {
    const only = new Set(positionals);
    const rules = positionals.length === 0 ? report.rules : report.rules.filter((r) => only.has(r.id));
    console.log(JSON.stringify({ ...report, rules }, null, 2));
  } else {
    process.stdout.write(formatReport(report, positionals.length === 0 ? undefined : new Set(positionals)));
  }
  const unknownPlanned = report.stalePlanned.filter((s) => s.endsWith('is not in the manifest'));
  // The manifest against the vendored SPEC requirement list: present in every clone, unlike ../shared.
  const inStep = readFileSync(MANIFEST_PATH, 'utf8') === renderManifest(parseSpecRules(readFileSync(REQUIREMENTS_PATH, 'utf8')));
  if (!inStep) {
    console.error(
      `test/rules/manifest.json does not match test/rules/spec-requirements.txt: run ${SYNC_COMMAND} beside ../shared and commit both.`,
    );
  }
  const failing = !inStep || report.untested.length > 0 || report.unknown.length > 0 || unknownPlanned.length > 0;
  return values.strict === true && failing ? 1 : 0;
}

process.exitCode = main(process.argv.slice(2));
