/**
 * The report for people: results grouped by area, one line each (✓ pass, ✗ fail, – skip), and
 * under every failure the evidence needed to reproduce it. `--json` prints the report object
 * itself (types.ts), which is the stable format for programs.
 */
import { AREAS, AREA_TITLES, type CheckResult, type ConformanceReport } from './types.js';

const MARK = { pass: '✓', fail: '✗', skip: '–' } as const;

function line(r: CheckResult): string {
  const binding = r.binding === undefined ? '' : ` [${r.binding}]`;
  const detail =
    r.status === 'skip'
      ? ` (skipped: ${r.detail ?? 'not applicable'})`
      : r.status === 'fail' && r.detail !== undefined
        ? ` — ${r.detail}`
        : '';
  return `  ${MARK[r.status]} ${r.rule.padEnd(6)} ${r.title}${binding}${detail}`;
}

function evidence(r: CheckResult): string[] {
  if (r.status !== 'fail') return [];
  return r.evidence.flatMap((e, i) => {
    const rows = [`      ${r.evidence.length > 1 ? `#${i + 1} ` : ''}expected: ${e.expected}`];
    if (e.observed !== undefined) rows.push(`         observed: ${e.observed}`);
    if (e.request !== undefined) rows.push(`         request:  ${e.request}`);
    if (e.response !== undefined) rows.push(`         response: ${e.response}`);
    return rows;
  });
}

/** What the Business's rate limit cost the run, in one line. */
export function throttlingLine(t: ConformanceReport['throttling']): string {
  const pace = t.paceCallsPerSecond === null ? 'unpaced' : `paced at ${t.paceCallsPerSecond} calls/s`;
  const budget = `${(t.budgetMs / 1000).toFixed(0)} s budget`;
  const spent = t.budgetExhausted ? ' — budget exhausted; checks refused after that are skipped as not evaluated' : '';
  return `rate limiting: ${t.retriedCalls} call(s) retried after HTTP 429, ${(t.waitedMs / 1000).toFixed(1)} s waited of the ${budget}; ${pace}${spent}`;
}

export function formatReport(report: ConformanceReport): string {
  const out: string[] = [
    `UCP Location ${report.ucpVersion} conformance — ${report.target}`,
    `  profile: ${report.profileUrl}`,
    `  platform profile: ${report.platformProfileUrl ?? '(none)'}; bindings exercised: ${report.bindings.join(', ') || 'none'}`,
    '',
  ];
  for (const area of AREAS) {
    const rows = report.results.filter((r) => r.area === area);
    if (rows.length === 0) continue;
    out.push(AREA_TITLES[area]);
    for (const r of rows) out.push(line(r), ...evidence(r));
    out.push('');
  }
  const { pass, fail, skip } = report.summary;
  const failedRules = [...new Set(report.results.filter((r) => r.status === 'fail').map((r) => r.rule))];
  out.push(
    `${pass} passed, ${fail} failed, ${skip} skipped in ${(report.durationMs / 1000).toFixed(1)} s${failedRules.length > 0 ? ` — failing rules: ${failedRules.join(', ')}` : ''}`,
  );
  out.push(throttlingLine(report.throttling));
  out.push(report.ok ? 'CONFORMANT for every check that ran.' : 'NOT CONFORMANT.');
  return out.join('\n');
}
