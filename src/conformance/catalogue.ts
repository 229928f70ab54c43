/**
 * The check catalogue: every check the checker knows, in report order, and selection by rule-id
 * prefix (`--only`). Adding a check means adding it to its area module; nothing else changes.
 */
import type { Check } from './check.js';
import { DISCOVERY_CHECKS } from './checks/discovery.js';
import { EDGE_CHECKS } from './checks/edges.js';
import { ENVELOPE_CHECKS } from './checks/envelope.js';
import { JSONRPC_CHECKS } from './checks/jsonrpc.js';
import { LOOKUP_CHECKS } from './checks/lookup.js';
import { NAMING_CHECKS } from './checks/naming.js';
import { PAGINATION_CHECKS } from './checks/pagination.js';
import { PRIVACY_CHECKS } from './checks/privacy.js';
import { RATE_LIMIT_CHECKS } from './checks/rate-limit.js';
import { SEARCH_CHECKS } from './checks/search.js';
import { SEARCH_OPERAND_CHECKS } from './checks/search-operands.js';
import { SIGNATURE_CHECKS } from './checks/signatures.js';

export const CATALOGUE: readonly Check[] = [
  ...DISCOVERY_CHECKS,
  ...NAMING_CHECKS,
  ...JSONRPC_CHECKS,
  ...ENVELOPE_CHECKS,
  ...SEARCH_CHECKS,
  ...SEARCH_OPERAND_CHECKS,
  ...PAGINATION_CHECKS,
  ...LOOKUP_CHECKS,
  ...PRIVACY_CHECKS,
  ...SIGNATURE_CHECKS,
  ...RATE_LIMIT_CHECKS,
  // After the rate-limit probe: two of its audits judge the probe's refusals too.
  ...EDGE_CHECKS,
];

const RULE_PREFIX = /^R(?:-[A-Z]+(?:\d+)?)?$/;

/** Normalises and validates `--only` values; throws a TypeError naming the bad one. */
export function parseRulePrefixes(values: readonly string[]): string[] {
  const out = values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim().toUpperCase())
    .filter((v) => v !== '');
  for (const v of out) {
    if (!RULE_PREFIX.test(v))
      throw new TypeError(`--only ${JSON.stringify(v)} is not a rule id prefix; use e.g. R-S, R-S4, R-D5 (see docs/conformance.md)`);
  }
  return out;
}

/**
 * Label-aware prefix match: `R-S` matches every R-S rule, `R-S1` matches R-S1 only (not R-S10),
 * `R-S4` matches R-S4.
 */
export function ruleMatches(prefix: string, rule: string): boolean {
  if (rule === prefix) return true;
  if (!rule.startsWith(prefix)) return false;
  if (/\d$/.test(prefix)) return false;
  // `R-S` names the R-S rules (R-S4), not R-SIG1: after a family's letters comes its number.
  return prefix === 'R' || /^\d/.test(rule.slice(prefix.length));
}

export function selectChecks(only: readonly string[] | undefined): Check[] {
  if (only === undefined || only.length === 0) return [...CATALOGUE];
  return CATALOGUE.filter((c) => only.some((p) => ruleMatches(p, c.rule)));
}
