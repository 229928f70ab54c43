import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { documentLexemes } from '../search-text.js';
import { TextIndexBuilder } from './text-index.js';

const WORDS = [
  'cafe',
  'coffee',
  'coffees',
  'bakery',
  'baker',
  'bakes',
  'pharmacy',
  'pharma',
  'farm',
  'book',
  'books',
  'bookshop',
  'running',
  'runner',
  'garden',
  'gardens',
  'hardware',
];
const word = fc.constantFrom(...WORDS);
/** A row: words per FTS column (name, keywords, locality, region, street, amenities). */
const row = fc.array(fc.array(word, { maxLength: 4 }), { minLength: 6, maxLength: 6 });
/** Query tokens: dataset words, prefixes of them, and one-letter typos. */
const token = fc.oneof(
  word,
  word.map((w) => w.slice(0, 3)),
  word.map((w) => (w.length > 5 ? `${w.slice(0, 2)}${w.slice(3)}` : w)),
);

describe('TextIndex.searchAmong', () => {
  it('scores exactly as search does, restricted to the rows asked about (both the row-by-row and the intersecting path)', () => {
    fc.assert(
      fc.property(
        fc.array(row, { minLength: 1, maxLength: 60 }),
        fc.array(token, { minLength: 1, maxLength: 3 }),
        fc.array(fc.nat(80)),
        (rows, tokens, asked) => {
          const builder = new TextIndexBuilder();
          rows.forEach((columns, o) =>
            builder.addRow(
              o,
              columns.map((ws) => documentLexemes(ws.join(' '))),
            ),
          );
          const index = builder.build(rows.length);
          const subset = Uint32Array.from(new Set(asked.filter((o) => o < rows.length))).sort();
          const all = index.search(tokens);
          const expected: [number, number][] = [];
          all.ords.forEach((o, i) => {
            if (subset.includes(o)) expected.push([o, all.scores[i] as number]);
          });
          for (const path of ['rows', 'intersect', 'auto'] as const) {
            const got = index.searchAmong(tokens, subset, path);
            expect(
              [...got.ords].map((o, i) => [o, got.scores[i]]),
              path,
            ).toEqual(expected);
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
