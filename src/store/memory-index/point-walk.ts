/**
 * The point R-tree of an index, numbered so that a walk reads its columns in order.
 *
 * Why: ordinals follow ids, so the rows of one neighbourhood are scattered over the whole index,
 * and at 1M Locations every per-ordinal read during a walk (an amenity bit, a schedule) misses the
 * cache. The tree's items are therefore added in the tree's own (Hilbert) leaf order, so item
 * numbers are spatially coherent, and the predicates the walk applies before anything else —
 * amenity bits and schedules — get columns by item number: the points of a box sit in a few
 * contiguous runs of them.
 */
import Flatbush from 'flatbush';

/** A point tree and, per item, the ordinal it stands for (one placeholder item when no row has a position). */
export interface PointTree {
  tree: Flatbush;
  ordinals: Uint32Array;
}

/**
 * The tree of the rows with a position (NaN latitude: none), items in leaf order. Built twice:
 * the first tree gives the order (a search of its whole extent sweeps its leaves in runs), the
 * second is added to in that order, so its Hilbert sort keeps item numbers in runs too.
 */
export function spatialPointTree(lat: Float64Array, lon: Float64Array): PointTree {
  const n = lat.length;
  let count = 0;
  for (let o = 0; o < n; o++) if (!Number.isNaN(lat[o]!)) count++;
  const byOrdinal = new Uint32Array(Math.max(count, 1));
  const first = new Flatbush(Math.max(count, 1));
  for (let o = 0; o < n; o++) {
    const y = lat[o]!;
    if (Number.isNaN(y)) continue;
    byOrdinal[first.add(lon[o]!, y)] = o;
  }
  if (count === 0) {
    first.add(0, 0);
    first.finish();
    return { tree: first, ordinals: byOrdinal };
  }
  first.finish();
  const order = first.search(first.minX, first.minY, first.maxX, first.maxY);
  const tree = new Flatbush(count);
  const ordinals = new Uint32Array(count);
  for (const item of order) {
    const o = byOrdinal[item]!;
    ordinals[tree.add(lon[o]!, lat[o]!)] = o;
  }
  tree.finish();
  return { tree, ordinals };
}

/**
 * Per-item columns derived from per-ordinal ones on first use: a bitset per amenity (bit j: item j
 * has it), built in one pass over the items when a search first asks for that amenity.
 */
export class PointColumns {
  readonly #bits = new Map<Uint8Array, Uint8Array>();

  constructor(private readonly ordinals: Uint32Array) {}

  /** `byOrdinal` (bit o: ordinal o) renumbered by item. */
  bitsOf(byOrdinal: Uint8Array): Uint8Array {
    let bits = this.#bits.get(byOrdinal);
    if (bits === undefined) {
      const ordinals = this.ordinals;
      bits = new Uint8Array((ordinals.length >>> 3) + 1);
      for (let j = 0; j < ordinals.length; j++) {
        const o = ordinals[j]!;
        if ((byOrdinal[o >>> 3]! & (1 << (o & 7))) !== 0) bits[j >>> 3] = bits[j >>> 3]! | (1 << (j & 7));
      }
      this.#bits.set(byOrdinal, bits);
    }
    return bits;
  }
}
