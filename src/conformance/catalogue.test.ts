import { describe, expect, it } from 'vitest';
import { CATALOGUE, parseRulePrefixes, ruleMatches, selectChecks } from './catalogue.js';
import { AREAS } from './types.js';

describe('check catalogue', () => {
  it('gives every check a unique id in its area and a SPEC rule id', () => {
    const ids = CATALOGUE.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const check of CATALOGUE) {
      expect(check.id.startsWith(`${check.area}.`), check.id).toBe(true);
      expect(AREAS).toContain(check.area);
      expect(check.rule, check.id).toMatch(/^R-(?:[DNGMSLHPJ]|SIG)\d+$/);
      expect(check.title.length).toBeGreaterThan(10);
    }
  });

  it('marks as audits only checks that run once over the whole call log', () => {
    for (const check of CATALOGUE.filter((c) => c.audit === true)) expect(check.scope, check.id).toBe('run');
  });
});

describe('--only rule prefixes', () => {
  it.each([
    ['R-S', 'R-S4', true],
    ['R-S', 'R-S11', true],
    ['R-S1', 'R-S1', true],
    ['R-S1', 'R-S10', false],
    ['R-S1', 'R-S11', false],
    ['R-S4', 'R-S4', true],
    ['R-D5', 'R-D1', false],
    ['R', 'R-L3', true],
    ['R-S', 'R-SIG1', false],
    ['R-SIG', 'R-SIG1', true],
    ['R-SIG2', 'R-SIG2', true],
  ])('%s matches %s: %s', (prefix, rule, expected) => {
    expect(ruleMatches(prefix, rule)).toBe(expected);
  });

  it('accepts repeated and comma-separated values in any case', () => {
    expect(parseRulePrefixes(['r-s4, R-D5', 'R-L'])).toEqual(['R-S4', 'R-D5', 'R-L']);
  });

  it('refuses what is not a rule prefix, with an example', () => {
    expect(() => parseRulePrefixes(['S4'])).toThrow(/not a rule id prefix; use e\.g\. R-S, R-S4/);
    expect(() => parseRulePrefixes(['R-S4x'])).toThrow(/R-S4X/);
  });

  it('selects exactly the matching checks, in catalogue order', () => {
    expect(selectChecks(['R-S1']).map((c) => c.rule)).toEqual(expect.arrayContaining(['R-S1']));
    expect(new Set(selectChecks(['R-S1']).map((c) => c.rule))).toEqual(new Set(['R-S1']));
    expect(selectChecks([])).toHaveLength(CATALOGUE.length);
  });
});
