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
// Sealed rather than only frozen: an answer then serialises each document (and each shared part) once.
import { sealJson } from '../../protocol/frozen-json.js';
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
        this.parts.push(sealJson(part));
      }
      return id;
    });
    return { skeleton: JSON.stringify(rest), layout, parts };
  }
}

/** Strings by position: an array when built, a column of the index file when loaded. */
export interface StringsByPosition {
  readonly length: number;
  get(i: number): string;
}

/** The columns documents are kept in (index-snapshot.ts writes and reads them). */
export interface DocumentColumns {
  skeletons: StringsByPosition;
  layoutOf: Uint32Array;
  /** Per shared member (SHARED_MEMBERS order): part number per ordinal, -1 when the document has no such member. */
  partOf: readonly Int32Array[];
  layouts: readonly (readonly string[])[];
  /** Shared parts as JSON (parsed, frozen and kept on first use). */
  partJson: StringsByPosition;
}

export const SHARED_MEMBER_COUNT = SHARED_MEMBERS.length;

/** The packed documents of one index, by ordinal. */
export class PackedDocuments {
  private readonly parsedParts: unknown[];

  constructor(readonly columns: DocumentColumns) {
    this.parsedParts = new Array<unknown>(columns.partJson.length);
  }

  /** From the packer's output (index build). */
  static fromPacked(
    packed: readonly PackedDocument[],
    layouts: readonly (readonly string[])[],
    parts: readonly unknown[],
  ): PackedDocuments {
    const n = packed.length;
    const skeletons = new Array<string>(n);
    const layoutOf = new Uint32Array(n);
    const partOf = SHARED_MEMBERS.map(() => new Int32Array(n));
    packed.forEach((p, o) => {
      skeletons[o] = p.skeleton;
      layoutOf[o] = p.layout;
      SHARED_MEMBERS.forEach((_, j) => (partOf[j]![o] = p.parts[j]!));
    });
    const docs = new PackedDocuments({
      skeletons: arrayStrings(skeletons),
      layoutOf,
      partOf,
      layouts,
      partJson: arrayStrings(parts.map((part) => JSON.stringify(part))),
    });
    // The packer's parts are already parsed and frozen: no need to parse them again.
    parts.forEach((part, i) => (docs.parsedParts[i] = part));
    return docs;
  }

  private part(i: number): unknown {
    let part = this.parsedParts[i];
    if (part === undefined) {
      const parsed: unknown = JSON.parse(this.columns.partJson.get(i));
      this.parsedParts[i] = part = sealJson(parsed);
    }
    return part;
  }

  /** The document of ordinal `o`, deep-frozen (shared parts are shared between documents). */
  unpack(o: number): Location {
    const { skeletons, layoutOf, partOf, layouts } = this.columns;
    const rest = JSON.parse(skeletons.get(o)) as Record<string, unknown>;
    const doc: Record<string, unknown> = {};
    for (const k of layouts[layoutOf[o]!]!) {
      const j = SHARED_MEMBERS.indexOf(k as SharedMember);
      setMember(doc, k, j < 0 ? rest[k] : this.part(partOf[j]![o]!));
    }
    return sealJson(doc) as unknown as Location;
  }
}

function arrayStrings(strings: readonly string[]): StringsByPosition {
  return { length: strings.length, get: (i) => strings[i]! };
}
