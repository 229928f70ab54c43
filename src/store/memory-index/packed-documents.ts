/**
 * The public Location documents of an in-memory index, held compactly.
 *
 * A document is about 1 KiB of JSON, and most of it repeats between Locations: a chain's weekly
 * hours and holiday closures, the same amenity set with the same descriptions. Kept whole, a
 * million documents would be the largest part of an index (more than the budget of a whole
 * process). Here each document is split into
 *  - its members that repeat (SHARED_MEMBERS), each stored once per distinct value and shared,
 *    frozen, by every document that has it;
 *  - the rest as a small JSON "skeleton" string;
 *  - its member order (interned), so that the document put back together serialises exactly as
 *    the store's own copy: same members, same order, same values.
 * Unpacking parses only the skeleton.
 */
import { deepFreeze } from '../../protocol/schema-walk.js';
import type { Location } from '../../domain/location.js';

/** Members stored once per distinct value (the bulk of a document; see above). */
const SHARED_MEMBERS = ['hours', 'exception_hours', 'amenities'] as const;
type SharedMember = (typeof SHARED_MEMBERS)[number];
const IS_SHARED: ReadonlySet<string> = new Set(SHARED_MEMBERS);

/** A document as the builder hands it over: skeleton, member order, and a part number per shared member (-1: absent). */
export interface PackedDocument {
  skeleton: string;
  layout: number;
  parts: readonly number[];
}

/** Sets a member by definition, so that a member named `__proto__` stays a member (as JSON.parse makes it). */
function setMember(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** Splits parsed documents as they arrive (index build). */
export class DocumentPacker {
  private readonly layoutIds = new Map<string, number>();
  readonly layouts: (readonly string[])[] = [];
  private readonly partIds = new Map<string, number>();
  readonly parts: unknown[] = [];

  pack(doc: Location): PackedDocument {
    const keys = Object.keys(doc);
    const signature = keys.join('\u0000');
    let layout = this.layoutIds.get(signature);
    if (layout === undefined) {
      layout = this.layouts.length;
      this.layoutIds.set(signature, layout);
      this.layouts.push(Object.freeze(keys));
    }
    const rest: Record<string, unknown> = {};
    for (const k of keys) if (!IS_SHARED.has(k)) setMember(rest, k, (doc as unknown as Record<string, unknown>)[k]);
    const parts = SHARED_MEMBERS.map((m) => {
      const value = doc[m];
      if (value === undefined) return -1;
      const json = JSON.stringify(value);
      let id = this.partIds.get(json);
      if (id === undefined) {
        id = this.parts.length;
        this.partIds.set(json, id);
        const part: unknown = JSON.parse(json);
        this.parts.push(deepFreeze(part));
      }
      return id;
    });
    return { skeleton: JSON.stringify(rest), layout, parts };
  }
}

/** The packed documents of one index, by ordinal. */
export class PackedDocuments {
  private readonly skeletons: string[];
  private readonly layoutOf: Uint32Array;
  /** Per shared member: part number per ordinal, -1 when the document has no such member. */
  private readonly partOf: Int32Array[];

  constructor(
    packed: readonly PackedDocument[],
    private readonly layouts: readonly (readonly string[])[],
    private readonly parts: readonly unknown[],
  ) {
    const n = packed.length;
    this.skeletons = new Array<string>(n);
    this.layoutOf = new Uint32Array(n);
    this.partOf = SHARED_MEMBERS.map(() => new Int32Array(n));
    packed.forEach((p, o) => {
      this.skeletons[o] = p.skeleton;
      this.layoutOf[o] = p.layout;
      SHARED_MEMBERS.forEach((_, j) => (this.partOf[j]![o] = p.parts[j]!));
    });
  }

  /** The document of ordinal `o`, deep-frozen (shared parts are shared between documents). */
  unpack(o: number): Location {
    const rest = JSON.parse(this.skeletons[o]!) as Record<string, unknown>;
    const doc: Record<string, unknown> = {};
    for (const k of this.layouts[this.layoutOf[o]!]!) {
      const j = SHARED_MEMBERS.indexOf(k as SharedMember);
      setMember(doc, k, j < 0 ? rest[k] : this.parts[this.partOf[j]![o]!]);
    }
    return deepFreeze(doc) as unknown as Location;
  }
}
