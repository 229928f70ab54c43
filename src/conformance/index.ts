/**
 * The conformance checker (`ucp-location conformance <business-url>`): a black-box suite that
 * judges any UCP Location Business against the rules of test/rules/manifest.json and reports pass/fail/skip per
 * rule id with evidence. Platform-side: it uses protocol/, domain/ and client/ only.
 */
export { runConformance } from './runner.js';
export { formatReport } from './report.js';
export { CATALOGUE, parseRulePrefixes, ruleMatches } from './catalogue.js';
export { serveProfiles, type ServedProfiles } from './platform-profile.js';
export { AREAS, AREA_TITLES } from './types.js';
export { DEFAULT_RETRY_BUDGET_MS, MAX_WAIT_MS, type ThrottlingSummary } from './pacing.js';
export type {
  AliasHint,
  Area,
  BindingName,
  CheckResult,
  CheckStatus,
  ConformanceOptions,
  ConformanceReport,
  ConformanceSummary,
  Evidence,
  TransportChoice,
} from './types.js';
