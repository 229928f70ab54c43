import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  boundedLevenshtein,
  expandToken,
  FuzzyVocabulary,
  MAX_QUERY_TERMS,
  MAX_TERM_LENGTH,
  maxEditsFor,
  normalizeText,
  porterStem,
  tokenize,
} from './text.js';

/** Plain dynamic-programming Levenshtein, the reference for the banded version. */
function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const curr = [i];
    for (let j = 1; j <= b.length; j++) {
      curr[j] = Math.min((prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1), (prev[j] as number) + 1, (curr[j - 1] as number) + 1);
    }
    prev = curr;
  }
  return prev[b.length] as number;
}

describe('normalizeText / tokenize', () => {
  it('folds case, compatibility forms and diacritics like unicode61 remove_diacritics', () => {
    expect(normalizeText('Crème BRÛLÉE ﬁne')).toBe('creme brulee fine');
    expect(tokenize('Berlin Späti, 10115 — Café_Bar!')).toEqual(['berlin', 'spati', '10115', 'cafe', 'bar']);
  });

  it('keeps distinct tokens in order of first appearance', () => {
    expect(tokenize('store Store STORE shop')).toEqual(['store', 'shop']);
  });

  it('yields nothing for punctuation-only input', () => {
    expect(tokenize(' --- !!! ')).toEqual([]);
  });

  it('bounds the number and the length of tokens (abuse guard)', () => {
    const many = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ');
    expect(tokenize(many)).toHaveLength(MAX_QUERY_TERMS);
    expect(tokenize('x'.repeat(500))[0]).toHaveLength(MAX_TERM_LENGTH);
  });
});

describe('porterStem', () => {
  it.each([
    ['grocers', 'grocer'],
    ['grocer', 'grocer'],
    ['grocery', 'groceri'],
    ['groceries', 'groceri'],
    ['caresses', 'caress'],
    ['ponies', 'poni'],
    ['running', 'run'],
    ['hopping', 'hop'],
    ['agreed', 'agre'],
    ['relational', 'relat'],
    ['conditional', 'condit'],
    ['generalization', 'gener'],
    ['valley', 'vallei'],
    ['happiness', 'happi'],
    ['stores', 'store'],
  ])('%s → %s (as SQLite FTS5 porter)', (word, stem) => {
    expect(porterStem(word)).toBe(stem);
  });

  it('passes short, non-ASCII and digit tokens through', () => {
    for (const w of ['is', 'as', 'spät', '10005', 'a1b']) expect(porterStem(w)).toBe(w);
  });
});

describe('boundedLevenshtein', () => {
  it('equals the plain distance when within the bound, else bound + 1', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 }), fc.integer({ min: 0, max: 4 }), (a, b, max) => {
        const d = levenshtein(a, b);
        expect(boundedLevenshtein(a, b, max)).toBe(d <= max ? d : max + 1);
      }),
      { numRuns: 2000 },
    );
  });

  it('handles the seed typo: grcery is 1 edit from grocery and 2 from grocer', () => {
    expect(boundedLevenshtein('grcery', 'grocery', 2)).toBe(1);
    expect(boundedLevenshtein('grceri', 'grocer', 2)).toBe(2);
    expect(boundedLevenshtein('grceri', 'grocer', 1)).toBe(2);
  });
});

describe('FuzzyVocabulary', () => {
  it('finds exactly the terms within the edit bound (the trigram filter never loses one)', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd'), minLength: 1, maxLength: 9 });
    fc.assert(
      fc.property(fc.uniqueArray(word, { maxLength: 60 }), word, fc.integer({ min: 1, max: 2 }), (terms, probe, k) => {
        const vocab = new FuzzyVocabulary(terms.map((term, i) => ({ term, docs: i + 1 })));
        const got = vocab
          .similar(probe, k, 1000)
          .map((m) => m.term)
          .sort();
        const expected = terms.filter((t) => t !== probe && levenshtein(t, probe) <= k).sort();
        expect(got).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('orders by distance, then document count, and honours the limit', () => {
    const vocab = new FuzzyVocabulary([
      { term: 'grocer', docs: 5 },
      { term: 'grocers', docs: 1 },
      { term: 'grover', docs: 50 },
      { term: 'grocery', docs: 2 },
    ]);
    expect(vocab.similar('grocer', 1, 10).map((m) => m.term)).toEqual(['grover', 'grocery', 'grocers']);
    expect(vocab.similar('grocer', 1, 1)).toHaveLength(1);
    expect(vocab.similar('grocer', 0, 10)).toEqual([]);
  });
});

describe('expandToken', () => {
  const vocab = new FuzzyVocabulary(['grocer', 'store', 'vallei', 'downtown', 'bakeri'].map((term) => ({ term, docs: 1 })));

  it('reaches the stemmed vocabulary through typos and other word forms', () => {
    expect(expandToken('grcery', vocab).fuzzy).toContain('grocer');
    expect(expandToken('groceries', vocab).fuzzy).toContain('grocer');
    expect(expandToken('grocery', vocab)).toMatchObject({ token: 'grocery', stem: 'groceri', prefix: true });
  });

  it('leaves out the exact stem (the strict match covers it) and tolerates no typo in short words', () => {
    expect(expandToken('grocers', vocab).fuzzy).not.toContain('grocer');
    expect(expandToken('sto', vocab).fuzzy).toEqual([]);
    expect(maxEditsFor('abc')).toBe(0);
    expect(maxEditsFor('abcd')).toBe(1);
    expect(maxEditsFor('abcdef')).toBe(2);
  });

  it('uses no prefix for tokens under three characters and works without a vocabulary', () => {
    expect(expandToken('ab', null)).toEqual({ token: 'ab', stem: 'ab', prefix: false, fuzzy: [] });
  });
});
