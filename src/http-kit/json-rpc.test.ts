import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PREFIX_BYTES, scanIds } from './json-rpc.js';

const scan = (text: string): ReturnType<typeof scanIds> => scanIds(Buffer.from(text, 'utf8'));

const rpcId = fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.constant(null));
/** Any JSON value, nested a few levels, for members around the id. */
const noise = fc.jsonValue({ maxDepth: 4 });

describe('scanIds: the ids of a refused body, read from its first 8 KiB (R-J1)', () => {
  it('finds the top-level id of a single message wherever it stands among other members (property)', () => {
    fc.assert(
      fc.property(rpcId, fc.dictionary(fc.string({ maxLength: 8 }), noise, { maxKeys: 5 }), fc.boolean(), (id, extra, idFirst) => {
        const { id: _drop, ...rest } = extra;
        void _drop;
        const message = idFirst ? { id, jsonrpc: '2.0', ...rest } : { jsonrpc: '2.0', ...rest, id };
        const text = JSON.stringify(message);
        fc.pre(Buffer.byteLength(text) <= PREFIX_BYTES);
        expect(scan(text)).toEqual({ kind: 'single', id });
      }),
    );
  });

  it('finds each element id of a batch, and ignores ids nested deeper (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(rpcId, noise), { minLength: 1, maxLength: 6 }), (elements) => {
        const batch = elements.map(([id, params]) => ({ jsonrpc: '2.0', method: 'ping', params: { id: 'deeper', v: params }, id }));
        const text = JSON.stringify(batch);
        fc.pre(Buffer.byteLength(text) <= PREFIX_BYTES);
        expect(scan(text)).toEqual({ kind: 'batch', elements: elements.map(([id]) => ({ id, whole: true })) });
      }),
    );
  });

  it('an id past the first 8 KiB, or cut off by it, is not read; a member named "id" inside a string is no id', () => {
    const filler = 'x'.repeat(PREFIX_BYTES);
    expect(scan(JSON.stringify({ jsonrpc: '2.0', params: { q: filler }, id: 7 }))).toEqual({ kind: 'single', id: null });
    expect(scan(JSON.stringify({ jsonrpc: '2.0', params: { q: '"id": 5, ' }, id: 'real' }))).toEqual({ kind: 'single', id: 'real' });
    const text = JSON.stringify([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', method: 'ping', params: { q: filler }, id: 2 },
    ]);
    expect(scan(text)).toEqual({
      kind: 'batch',
      elements: [
        { id: 1, whole: true },
        { id: null, whole: false },
      ],
    });
  });

  it('nesting far deeper than any stack costs nothing; text that is no object or array gives nothing', () => {
    const deep = `{"a":${'['.repeat(100_000)}`;
    expect(scan(deep)).toEqual({ kind: 'single', id: null });
    expect(scan(`{"id": 3, "a": ${'['.repeat(100_000)}`)).toEqual({ kind: 'single', id: 3 });
    expect(scan('"tools/call"')).toBeUndefined();
    expect(scan('')).toBeUndefined();
    expect(scan('{"id": 1.5}')).toEqual({ kind: 'single', id: null });
  });
});
