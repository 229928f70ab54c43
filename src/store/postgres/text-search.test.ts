import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expandToken, FuzzyVocabulary, porterStem, type VocabularyEntry } from '../../domain/text.js';
import { buildTextQuery, documentLexemes, expandTokenWith, quoteLexeme, tsvectorLiteral } from './text-search.js';

describe('documentLexemes', () => {
  it('folds diacritics and case and stems like the SQLite porter tokenizer', () => {
    expect(documentLexemes('Valley Grocers')).toEqual(['vallei', 'grocer']);
    expect(documentLexemes('Crème BRÛLÉE, Späti!')).toEqual(['creme', porterStem('brulee'), 'spati']);
  });
});

describe('tsvectorLiteral', () => {
  it('weights name A, keywords B, locality and region C, street and amenities D', () => {
    expect(tsvectorLiteral(['Valley Grocers', 'grocery', 'Los Angeles', '', 'Spring St', ''])).toBe(
      "'vallei':1A 'grocer':2A 'groceri':3B 'lo':4C 'angel':5C 'spring':6D 'st':7D",
    );
  });

  it('is null without any word', () => {
    expect(tsvectorLiteral(['', '!!', '', '', '', ''])).toBeNull();
  });

  it('quotes lexemes so no input can break out of the literal', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const q = quoteLexeme(s);
        // Inside the quotes every quote is doubled and every backslash escaped.
        const inner = q.slice(1, -1);
        expect(inner.replace(/''/g, '').includes("'")).toBe(false);
        expect(inner.replace(/\\\\/g, '').includes('\\')).toBe(false);
      }),
    );
  });
});

describe('buildTextQuery', () => {
  it('ORs stems, stem prefixes (3+ characters, as FTS5) and fuzzy variants (R-S1: text only narrows)', () => {
    const plan = buildTextQuery([
      { token: 'grocery', stem: 'groceri', prefix: true, fuzzy: ['grocer'] },
      { token: 'st', stem: 'st', prefix: false, fuzzy: [] },
    ]);
    expect(plan).toEqual({ strict: "'groceri' | 'groceri':* | 'st'", fuzzy: "'grocer'", any: "'groceri' | 'groceri':* | 'st' | 'grocer'" });
    expect(buildTextQuery([])).toBeNull();
  });
});

describe('expandTokenWith', () => {
  const words = [
    'grocer',
    'valley',
    'spring',
    'angel',
    'store',
    'storm',
    'stare',
    'groceri',
    'coffee',
    'silver',
    'lake',
    'bakeri',
    'baker',
  ];
  const vocabulary: VocabularyEntry[] = words.map((term, i) => ({ term, docs: (i % 3) + 1 }));

  it('finds the same typo-tolerant variants as the in-memory FuzzyVocabulary (same answers as SQLite)', async () => {
    const fuzzy = new FuzzyVocabulary(vocabulary);
    // The whole vocabulary as the "neighbour" superset: the exact filter must do the rest.
    const all = (): Promise<VocabularyEntry[]> => Promise.resolve(vocabulary);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('grcery', 'groceries', 'grocery', 'stor', 'valey', 'sprng', 'cofee', 'baker', 'x', 'lakes', ...words),
        async (token) => {
          expect(await expandTokenWith(token, all)).toEqual(expandToken(token, fuzzy));
        },
      ),
    );
  });
});
