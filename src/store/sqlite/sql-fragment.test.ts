import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EMPTY, join, list, raw, sql, type Sql } from './sql-fragment.js';

/** A fragment tree in which each value is also written into the text beside its placeholder (`v17 = ?`). */
const fragment: fc.Arbitrary<Sql> = fc.letrec<{ node: Sql }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.nat().map((v) => sql`v${raw(String(v))} = ${v}`),
    fc.constantFrom(EMPTY, raw('l.public = 1')),
    fc.tuple(tie('node'), fc.nat(), tie('node')).map(([a, v, b]) => sql`(${a}) AND v${raw(String(v))} = ${v} OR (${b})`),
    fc.array(tie('node'), { maxLength: 3 }).map((parts) => join(parts, ' UNION ')),
  ),
})).node;

describe('SQL fragments', () => {
  it('keep one parameter per placeholder, in the order the text reads, however they are composed', () => {
    fc.assert(
      fc.property(fragment, (f) => {
        expect(f.text.split('?').length - 1).toBe(f.params.length);
        expect([...f.text.matchAll(/v(\d+) = \?/g)].map((m) => Number(m[1]))).toEqual(f.params);
      }),
    );
  });

  it('bind values and splice fragments', () => {
    const sub = sql`SELECT key FROM t WHERE c = ${'US'} AND p IN (${list(['1', '2'])})`;
    const f = sql`SELECT * FROM l WHERE l.key IN (${sub}) AND l.n = ${3}${EMPTY}`;
    expect(f.text).toBe('SELECT * FROM l WHERE l.key IN (SELECT key FROM t WHERE c = ? AND p IN (?, ?)) AND l.n = ?');
    expect(f.params).toEqual(['US', '1', '2', 3]);
    expect(join([sql`a = ${1}`, raw('b'), sql`c = ${2}`], ' OR ')).toEqual(sql`a = ${1} OR b OR c = ${2}`);
  });
});
