/**
 * frozen-json.ts against JSON.stringify itself: for any JSON value, with any of its parts sealed,
 * the composed text is JSON.stringify's to the byte and the escaped text is the body of
 * JSON.stringify(text) — on the first call and on later ones (from the kept texts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeJsonText, isSealed, jsonTexts, sealJson } from './frozen-json.js';

/** Seals a random selection of the objects and arrays inside `value` (children first, as an owner would). */
function sealSome(value: unknown, pick: () => boolean): unknown {
  if (typeof value !== 'object' || value === null) return value;
  for (const v of Object.values(value)) sealSome(v, pick);
  if (pick() && !Object.isFrozen(value)) sealJson(value);
  return value;
}

function expectLikeStringify(value: unknown): void {
  const json = JSON.stringify(value) as string | undefined;
  for (let round = 0; round < 2; round++) {
    const t = jsonTexts(value);
    if (json === undefined) expect(t).toBeUndefined();
    else expect(t).toEqual({ json, escaped: JSON.stringify(json).slice(1, -1) });
  }
}

describe('frozen-json: the texts of sealed values are JSON.stringify’s (R-M2 carries both)', () => {
  it('any JSON value, any parts sealed, strings with quotes, escapes, lone surrogates and astral characters', () => {
    const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('"', '\\', '\u2028', '\ud800', '😀', '\n'));
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        text,
        fc.double(),
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        tie('array'),
        tie('object'),
      ),
      array: fc.array(tie('value'), { maxLength: 5 }),
      object: fc.dictionary(text, tie('value'), { maxKeys: 5 }),
    })).value;
    fc.assert(
      fc.property(json, fc.infiniteStream(fc.boolean()), (value, picks) => {
        const it = picks[Symbol.iterator]();
        expectLikeStringify(sealSome(structuredClone(value), () => it.next().value === true));
      }),
      { numRuns: 300 },
    );
  });

  it('what JSON.stringify leaves out or replaces: undefined, functions, symbols, toJSON, class instances', () => {
    const doc = sealJson({ id: 'a', hours: { mon: [1, 2] } });
    const cases: unknown[] = [
      { a: undefined, b: () => 1, c: Symbol('x'), d: doc, e: [undefined, () => 1, doc] },
      { when: new Date(0), list: [new Date(1)], doc },
      { t: { toJSON: () => undefined }, u: 1, v: [{ toJSON: () => undefined }] },
      { m: new Map([[1, 2]]), s: new String('x'), n: new Number(3), doc },
      [doc, doc, { inner: [doc] }],
      undefined,
      'plain "string"',
      { __proto__: null, x: doc },
      { locations: [doc], pagination: { has_next_page: false } },
    ];
    for (const c of cases) expectLikeStringify(c);
  });

  it('seals deeply and remembers only what it sealed', () => {
    const doc = sealJson({ a: { b: [1] } });
    expect(Object.isFrozen(doc.a.b)).toBe(true);
    expect(isSealed(doc)).toBe(true);
    expect(isSealed(doc.a)).toBe(false);
    expect(escapeJsonText('say "hi"\n')).toBe('say \\"hi\\"\\n');
  });
});
