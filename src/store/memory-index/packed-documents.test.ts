import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Location } from '../../domain/location.js';
import { DocumentPacker, PackedDocuments } from './packed-documents.js';

/** Documents with any members in any order, the shared ones (hours, exception_hours, amenities) often repeated. */
const hours = fc.constantFrom(
  [{ day: 'monday', opens: '09:00', closes: '17:00' }],
  [],
  [{ day: 'sunday', opens: '22:00', closes: '02:00' }],
);
const exceptions = fc.constantFrom([{ valid_from: '2026-12-25', valid_through: '2026-12-25', title: 'Christmas' }], []);
const amenities = fc.constantFrom({ 'a.b': { description: 'x' } }, { 'a.b': { description: 'x' }, 'c.d': { description: 'y' } }, {});
const member = fc.oneof(
  fc.tuple(fc.constant('hours'), hours),
  fc.tuple(fc.constant('exception_hours'), exceptions),
  fc.tuple(fc.constant('amenities'), amenities),
  fc.tuple(fc.constantFrom('id', 'name', 'geo', 'timezone', 'address', '__proto__', 'x-extra'), fc.jsonValue()),
);
// Later duplicates of a member overwrite its value but keep its first position, as in JSON.parse.
const doc = fc.array(member, { maxLength: 8 }).map((pairs) => {
  const out: Record<string, unknown> = {};
  for (const [k, v] of pairs) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
});

describe('packed documents', () => {
  it('unpack gives back each document exactly: same JSON text (members, order, values), frozen', () => {
    fc.assert(
      fc.property(fc.array(doc, { maxLength: 20 }), (docs) => {
        const packer = new DocumentPacker();
        const packed = docs.map((d) => packer.pack(d as unknown as Location));
        const store = PackedDocuments.fromPacked(packed, packer.layouts, packer.parts);
        docs.forEach((d, o) => {
          const back = store.unpack(o);
          expect(JSON.stringify(back)).toBe(JSON.stringify(d));
          expect(Object.isFrozen(back)).toBe(true);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('stores a repeated shared member once', () => {
    const packer = new DocumentPacker();
    const week = [{ day: 'monday', opens: '09:00', closes: '17:00' }];
    const packed = [1, 2, 3].map((i) => packer.pack({ id: `l${i}`, name: 'n', hours: week } as unknown as Location));
    const store = PackedDocuments.fromPacked(packed, packer.layouts, packer.parts);
    expect(packer.parts).toHaveLength(1);
    expect(store.unpack(0).hours).toBe(store.unpack(2).hours);
  });
});
