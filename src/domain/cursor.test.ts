import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UcpRequestError } from '../errors.js';
import { canonicalJson, decodeCursor, encodeCursor, requestFingerprint, sealCursorPayload, type CursorState } from './cursor.js';

const SECRET = 'unit-test-secret-for-cursors';

function expectInvalid(fn: () => unknown): void {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(UcpRequestError);
  expect(caught).toMatchObject({ code: 'invalid_cursor', pointer: '/pagination/cursor' });
}

const state = fc.record({
  position: fc.record({
    relevance: fc.double({ noNaN: true, noDefaultInfinity: true }),
    distance: fc.oneof(fc.double({ min: 0, max: 4e7, noNaN: true }), fc.constant(Number.POSITIVE_INFINITY)),
    id: fc.string({ unit: 'binary', maxLength: 40 }),
    tier: fc.integer({ min: 0, max: 4 }),
    tieBreak: fc.integer({ min: 0, max: 4 }),
  }),
  served: fc.nat({ max: 1_000_000 }),
});

describe('canonicalJson / requestFingerprint', () => {
  it('does not depend on member order, and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: undefined } })).toBe('{"a":{"d":[1,{"x":1,"y":2}]},"b":1}');
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (obj) => {
        const reversed = Object.fromEntries(Object.entries(obj).reverse());
        expect(canonicalJson(reversed)).toBe(canonicalJson(obj));
      }),
    );
  });

  it('matches JSON.stringify for sorted input and never overflows on deep input (fails before: RangeError at 3,000 levels)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(JSON.parse(canonicalJson(v))).toEqual(JSON.parse(JSON.stringify(v)));
      }),
    );
    const depth = 20_000;
    const deep = JSON.parse(`${'{"a":['.repeat(depth)}1${']}'.repeat(depth)}`) as object;
    const text = canonicalJson({ context: deep, b: [undefined] });
    expect(text.startsWith('{"b":[null],"context":{"a":[{"a":[')).toBe(true);
    expect(text.length).toBe(`{"b":[null],"context":}`.length + depth * 8 + 1);
    expect(() => requestFingerprint('search', { context: deep })).not.toThrow();
  });

  it('ignores pagination and distinguishes operations and queries', () => {
    const a = requestFingerprint('search', { query: 'x', pagination: { limit: 3, cursor: 'c' } });
    expect(a).toBe(requestFingerprint('search', { query: 'x' }));
    expect(a).not.toBe(requestFingerprint('search', { query: 'y' }));
    expect(a).not.toBe(requestFingerprint('lookup', { query: 'x' }));
  });
});

describe('encodeCursor / decodeCursor (R-S9)', () => {
  it('round-trips the keyset position exactly, Infinity included', () => {
    fc.assert(
      fc.property(state, (s: CursorState) => {
        const token = encodeCursor(s, 'fp', SECRET);
        expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
        // Deterministic: the same position of the same request is the same cursor.
        expect(encodeCursor(s, 'fp', SECRET)).toBe(token);
        const back = decodeCursor(token, 'fp', SECRET);
        expect(back.served).toBe(s.served);
        expect(back.position.id).toBe(s.position.id);
        // JSON has no negative zero; every other double survives exactly.
        expect(back.position.relevance).toBe(s.position.relevance === 0 ? 0 : s.position.relevance);
        expect(back.position.distance).toBe(s.position.distance);
        // The locality tiers (R-C2) travel too, so the next page continues the same order.
        expect(back.position.tier ?? 0).toBe(s.position.tier ?? 0);
        expect(back.position.tieBreak ?? 0).toBe(s.position.tieBreak ?? 0);
      }),
    );
  });

  it('rejects a cursor bound to another request', () => {
    const token = encodeCursor({ position: { relevance: 0, distance: 0, id: 'a' }, served: 1 }, 'fp-1', SECRET);
    expectInvalid(() => decodeCursor(token, 'fp-2', SECRET));
  });

  it('rejects any single-character edit, another secret and malformed tokens', () => {
    const token = encodeCursor({ position: { relevance: 1.5, distance: 10, id: 'loc_1' }, served: 10 }, 'fp', SECRET);
    fc.assert(
      fc.property(fc.nat({ max: token.length - 1 }), fc.constantFrom('A', 'B', '_', '-', '0', '.'), (i, ch) => {
        fc.pre(token[i] !== ch);
        expectInvalid(() => decodeCursor(token.slice(0, i) + ch + token.slice(i + 1), 'fp', SECRET));
      }),
    );
    expectInvalid(() => decodeCursor(token, 'fp', 'another-secret'));
    for (const bad of ['', 'abc', '.', 'a.b.c', `${token}=`, 'x'.repeat(5000)]) expectInvalid(() => decodeCursor(bad, 'fp', SECRET));
  });

  it('rejects a correctly sealed body of the wrong shape, or one that is not JSON', () => {
    expectInvalid(() =>
      decodeCursor(sealCursorPayload(JSON.stringify({ v: 1, f: 'fp', r: 'x', d: null, i: 'a', n: -1 }), SECRET), 'fp', SECRET),
    );
    expectInvalid(() => decodeCursor(sealCursorPayload('{not json', SECRET), 'fp', SECRET));
    // The well-formed payload is accepted, so the two above fail for their content alone.
    const good = decodeCursor(sealCursorPayload(JSON.stringify({ v: 1, f: 'fp', r: 2, d: null, i: 'a', n: 3 }), SECRET), 'fp', SECRET);
    expect(good).toEqual({ position: { relevance: 2, distance: Number.POSITIVE_INFINITY, id: 'a' }, served: 3 });
  });

  it('keeps its contents from the Platform: neither the id nor the numbers appear in the token', () => {
    const s: CursorState = { position: { relevance: 1.25, distance: 3815.047, id: 'loc_valley_grocers' }, served: 30 };
    const token = encodeCursor(s, 'fp', SECRET);
    const bytes = Buffer.from(token, 'base64url').toString('latin1');
    for (const secretPart of ['loc_valley_grocers', '3815', '1.25', '"n":30']) expect(bytes).not.toContain(secretPart);
    // Nor does any base64 spelling of the plain JSON survive.
    expect(token).not.toContain(Buffer.from('loc_valley').toString('base64url').slice(0, 8));
  });
});
