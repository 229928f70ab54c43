import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { idVariant } from './lookup.js';
import { tamper } from './pagination.js';

describe('tamper (R-S9 probe)', () => {
  it('changes the bytes a base64url cursor decodes to', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 3, maxLength: 200 }), (bytes) => {
        const cursor = Buffer.from(bytes).toString('base64url');
        const forged = tamper(cursor);
        expect(forged).not.toBe(cursor);
        expect(forged).toHaveLength(cursor.length);
        expect(Buffer.from(forged, 'base64url').equals(Buffer.from(bytes))).toBe(false);
      }),
    );
  });

  it('changes opaque cursors of any form', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 64 }), (cursor) => {
        expect(tamper(cursor)).not.toBe(cursor);
      }),
    );
  });
});

describe('idVariant (R-L1 probe)', () => {
  it('is a different string that a normalising Business would fold onto the id', () => {
    expect(idVariant('loc_downtown')).toBe('LOC_DOWNTOWN');
    expect(idVariant('42')).toBe(' 42 ');
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (id) => {
        expect(idVariant(id)).not.toBe(id);
      }),
    );
  });
});
