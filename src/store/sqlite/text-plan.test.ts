import { describe, expect, it } from 'vitest';
import { IndexVocabulary, planText } from './text-plan.js';

const vocab = new IndexVocabulary([
  { term: 'grocer', docs: 3 },
  { term: 'grocerman', docs: 1 },
  { term: 'store', docs: 10 },
  { term: 'stone', docs: 2 },
  { term: 'vallei', docs: 1 },
]);

describe('IndexVocabulary', () => {
  it('counts documents for a term and for a prefix range', () => {
    expect(vocab.docsFor('grocer')).toBe(3);
    expect(vocab.docsFor('groc')).toBe(0);
    expect(vocab.docsWithPrefix('groc')).toBe(4);
    expect(vocab.docsWithPrefix('st')).toBe(12);
    expect(vocab.docsWithPrefix('zz')).toBe(0);
  });
});

describe('planText', () => {
  it('ORs exact and prefix phrases per token and puts typo variants apart (R-S1)', () => {
    const plan = planText(['grcery', 'store'], vocab);
    expect(plan?.strict).toBe('"grcery" OR "grcery"* OR "store" OR "store"*');
    expect(plan?.fuzzy?.split(' OR ')).toContain('"grocer"');
    expect(plan?.fuzzy?.split(' OR ')).toContain('"stone"');
    expect(plan?.estimate).toBeGreaterThan(10);
  });

  it('quotes tokens so FTS5 operators in a query are plain words', () => {
    expect(planText(['or', 'not'], vocab)?.strict).toBe('"or" OR "not" OR "not"*');
    expect(planText(['a"b'], vocab)?.strict).toBe('"a""b" OR "a""b"*');
  });

  it('returns null without tokens', () => {
    expect(planText([], vocab)).toBeNull();
  });
});
