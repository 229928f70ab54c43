/**
 * A MemoryIndex as the sections of an index file, and back. Everything that took work to build —
 * the R-trees, postings, packed documents, amenity bitsets, interned schedules and coverages,
 * the key and id lookups — is written as it is and read back in place (typed-array views over
 * the loaded buffer); only small per-name maps (aliases, amenities, localities, availability)
 * are assembled at load, from arrays, without touching a document or a word of text.
 *
 * Answers of a loaded index are those of the index it was written from: same ordinals, same
 * postings, same documents byte for byte, availability in the same insertion order (a search
 * without a limit lists available rows in that order).
 */
import Flatbush from 'flatbush';
import { compareIds } from '../../domain/ranking.js';
import { isRecord } from '../../protocol/guards.js';
import { type IndexFileBytes, type IndexFileReader, IndexFileRejected, IndexFileWriter, StringColumn } from './index-file-format.js';
import { type Content, type IndexParts, type ItemRows, MemoryIndex, newContent, type OrdinalLookup } from './memory-index.js';
import { PackedDocuments, SHARED_MEMBER_COUNT } from './packed-documents.js';
import { TextIndex } from './text-index.js';

/**
 * Which import an index holds: the store's last import (its generation and time). A file whose
 * stamp differs from the store's belongs to another dataset, even when the counters coincide
 * (a store file replaced by a fresh one starts counting again).
 */
export interface ImportStamp {
  importGeneration: number;
  importedAt: string | null;
}

interface SnapshotValues {
  generation: number;
  dataset: number;
  stamp: ImportStamp;
  rows: number;
  hasPoints: boolean;
  hasExtents: boolean;
  textRows: number;
  textTokens: number;
  freqs: 'u16' | 'f64';
  layouts: string[][];
  amenityBits: boolean;
}

/** Flatbush trees read from a file: their bytes (the tree's `data` is then the whole file). */
const treeBytes = new WeakMap<Flatbush, Uint8Array>();

function bytesOfTree(tree: Flatbush): Uint8Array {
  return treeBytes.get(tree) ?? new Uint8Array(tree.data);
}

/** Lists per name, concatenated: names, starts (names + 1), ordinals. */
function writeGrouped(w: IndexFileWriter, name: string, lists: Iterable<[string, ArrayLike<number>]>): void {
  const names: string[] = [];
  const starts: number[] = [0];
  const ordinals: number[] = [];
  for (const [key, list] of lists) {
    names.push(key);
    for (let i = 0; i < list.length; i++) ordinals.push(list[i]!);
    starts.push(ordinals.length);
  }
  w.strings(`${name}.names`, StringColumn.of(names));
  w.array(`${name}.starts`, Uint32Array.from(starts));
  w.array(`${name}.ordinals`, Uint32Array.from(ordinals));
}

function readGrouped(r: IndexFileReader, name: string): Map<string, Uint32Array> {
  const names = r.strings(`${name}.names`);
  const starts = r.u32(`${name}.starts`);
  const ordinals = r.u32(`${name}.ordinals`);
  if (starts.length !== names.length + 1) throw new IndexFileRejected(`section ${name} is inconsistent`);
  const out = new Map<string, Uint32Array>();
  for (let i = 0; i < names.length; i++) out.set(names.get(i), ordinals.subarray(starts[i], starts[i + 1]));
  return out;
}

/** Distinct contents and, per ordinal, which one (-1: none). */
function writeInterned(w: IndexFileWriter, name: string, contents: readonly (Content | null)[]): void {
  const numbers = new Map<Content, number>();
  const json: string[] = [];
  const of = new Int32Array(contents.length);
  contents.forEach((c, o) => {
    if (c === null) {
      of[o] = -1;
      return;
    }
    let i = numbers.get(c);
    if (i === undefined) {
      numbers.set(c, (i = json.length));
      json.push(c.json);
    }
    of[o] = i;
  });
  w.strings(`${name}.json`, StringColumn.of(json));
  w.array(`${name}.of`, of);
}

function readInterned(r: IndexFileReader, name: string): (Content | null)[] {
  // Fresh process-unique keys: the engine compiles each distinct schedule once per key.
  const contents = r.strings(`${name}.json`).all().map(newContent);
  return Array.from(r.i32(`${name}.of`), (i) => (i < 0 ? null : contents[i]!));
}

/** key → ordinal by binary search over the ordinals sorted by key (written with the file). */
class KeyOrdinals implements OrdinalLookup<number> {
  constructor(
    private readonly keys: Float64Array,
    private readonly byKey: Uint32Array,
  ) {}
  get(key: number): number | undefined {
    let lo = 0;
    let hi = this.byKey.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.keys[this.byKey[mid]!]! < key) lo = mid + 1;
      else hi = mid;
    }
    const o = this.byKey[lo];
    return o !== undefined && this.keys[o] === key ? o : undefined;
  }
}

/** id → ordinal by binary search: ordinals are ids in code-point order. */
class IdOrdinals implements OrdinalLookup<string> {
  constructor(private readonly ids: readonly string[]) {}
  get(id: string): number | undefined {
    let lo = 0;
    let hi = this.ids.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareIds(this.ids[mid]!, id) < 0) lo = mid + 1;
      else hi = mid;
    }
    return this.ids[lo] === id ? lo : undefined;
  }
}

/** The index as file bytes. */
export function indexFileBytes(index: MemoryIndex, stamp: ImportStamp): IndexFileBytes {
  const { parts, amenityBits } = index.snapshot();
  const w = new IndexFileWriter();
  const n = parts.ids.length;
  w.strings('ids', StringColumn.of(parts.ids));
  w.array('keys', parts.keys);
  const byKey = new Uint32Array(n);
  for (let o = 0; o < n; o++) byKey[o] = o;
  byKey.sort((a, b) => parts.keys[a]! - parts.keys[b]!);
  w.array('keys.order', byKey);
  w.array('lat', parts.lat);
  w.array('lon', parts.lon);

  const docs = parts.docs.columns;
  w.strings('docs.skeletons', StringColumn.of(stringsOf(docs.skeletons)));
  w.array('docs.layoutOf', docs.layoutOf);
  docs.partOf.forEach((a, j) => w.array(`docs.partOf.${j}`, a));
  w.strings('docs.parts', StringColumn.of(stringsOf(docs.partJson)));

  const languageOrdinals: number[] = [];
  const languageJson: string[] = [];
  for (const [o, json] of parts.languages) {
    languageOrdinals.push(o);
    languageJson.push(json);
  }
  w.array('languages.ordinals', Uint32Array.from(languageOrdinals));
  w.strings('languages.json', StringColumn.of(languageJson));

  writeInterned(w, 'schedule', parts.schedule);
  writeInterned(w, 'coverage', parts.coverage);
  w.array('pointTree', bytesOfTree(parts.pointTree));
  w.array('pointOrdinals', parts.pointOrdinals);
  w.array('extentTree', bytesOfTree(parts.extentTree));
  w.array('extentOrdinals', parts.extentOrdinals);

  writeGrouped(
    w,
    'aliases',
    [...parts.aliases].map(([alias, named]): [string, ArrayLike<number>] => [alias, typeof named === 'number' ? [named] : named]),
  );
  writeGrouped(w, 'amenities', parts.amenities);
  const bits = new Uint8Array(parts.amenities.size * ((n >>> 3) + 1));
  let at = 0;
  for (const amenity of parts.amenities.keys()) {
    const b = amenityBits.get(amenity);
    if (b !== undefined) bits.set(b, at);
    at += (n >>> 3) + 1;
  }
  w.array('amenities.bits', bits);
  writeGrouped(w, 'localities', parts.localities);

  // Availability keeps each item's insertion order (see the module comment).
  const itemNames: string[] = [];
  const itemStarts: number[] = [0];
  const itemOrdinals: number[] = [];
  const itemFlags: number[] = [];
  for (const [item, rows] of parts.items) {
    itemNames.push(item);
    for (const [o, available] of rows) {
      itemOrdinals.push(o);
      itemFlags.push(available ? 1 : 0);
    }
    itemStarts.push(itemOrdinals.length);
  }
  w.strings('items.names', StringColumn.of(itemNames));
  w.array('items.starts', Uint32Array.from(itemStarts));
  w.array('items.ordinals', Uint32Array.from(itemOrdinals));
  w.array('items.flags', Uint8Array.from(itemFlags));

  const text = parts.text.snapshot();
  w.strings('text.terms', StringColumn.of(text.terms));
  w.array('text.starts', text.postings.starts);
  w.array('text.ords', text.postings.ords);
  w.array('text.freqs', text.postings.freqs);
  w.array('text.lengths', text.lengths);

  const values: SnapshotValues = {
    generation: parts.counters.generation,
    dataset: parts.counters.dataset,
    stamp,
    rows: n,
    hasPoints: parts.hasPoints,
    hasExtents: parts.hasExtents,
    textRows: text.rows,
    textTokens: text.totalTokens,
    freqs: text.postings.freqs instanceof Uint16Array ? 'u16' : 'f64',
    layouts: docs.layouts.map((l) => [...l]),
    amenityBits: true,
  };
  return w.bytes(values);
}

function stringsOf(s: { readonly length: number; get(i: number): string }): string[] {
  const out = new Array<string>(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.get(i);
  return out;
}

function checkedValues(v: unknown): SnapshotValues {
  if (
    !isRecord(v) ||
    typeof v.generation !== 'number' ||
    typeof v.dataset !== 'number' ||
    typeof v.rows !== 'number' ||
    typeof v.hasPoints !== 'boolean' ||
    typeof v.hasExtents !== 'boolean' ||
    typeof v.textRows !== 'number' ||
    typeof v.textTokens !== 'number' ||
    (v.freqs !== 'u16' && v.freqs !== 'f64') ||
    !Array.isArray(v.layouts) ||
    !isRecord(v.stamp) ||
    typeof v.stamp.importGeneration !== 'number' ||
    (v.stamp.importedAt !== null && typeof v.stamp.importedAt !== 'string')
  ) {
    throw new IndexFileRejected('its description of the index is malformed');
  }
  const layouts: string[][] = [];
  for (const l of v.layouts) {
    if (!Array.isArray(l) || !l.every((k): k is string => typeof k === 'string'))
      throw new IndexFileRejected('its document layouts are malformed');
    layouts.push(l);
  }
  return {
    generation: v.generation,
    dataset: v.dataset,
    stamp: { importGeneration: v.stamp.importGeneration, importedAt: v.stamp.importedAt },
    rows: v.rows,
    hasPoints: v.hasPoints,
    hasExtents: v.hasExtents,
    textRows: v.textRows,
    textTokens: v.textTokens,
    freqs: v.freqs,
    layouts,
    amenityBits: v.amenityBits === true,
  };
}

/** The stamp of a checked file, without reading the index (to decide whether it is the store's). */
export function stampOf(reader: IndexFileReader): ImportStamp & { generation: number; dataset: number } {
  const v = checkedValues(reader.values);
  return { ...v.stamp, generation: v.generation, dataset: v.dataset };
}

/** The index a checked file holds. Throws IndexFileRejected when its sections disagree with each other. */
export function indexFromFile(reader: IndexFileReader): MemoryIndex {
  const v = checkedValues(reader.values);
  const n = v.rows;
  const ids = reader.strings('ids').all();
  const keys = reader.f64('keys');
  const lat = reader.f64('lat');
  const lon = reader.f64('lon');
  const layoutOf = reader.u32('docs.layoutOf');
  const skeletons = reader.strings('docs.skeletons');
  if (ids.length !== n || keys.length !== n || lat.length !== n || lon.length !== n || layoutOf.length !== n || skeletons.length !== n) {
    throw new IndexFileRejected('its row sections disagree on the number of Locations');
  }
  const partOf: Int32Array[] = [];
  for (let j = 0; j < SHARED_MEMBER_COUNT; j++) partOf.push(reader.i32(`docs.partOf.${j}`));
  const docs = new PackedDocuments({ skeletons, layoutOf, partOf, layouts: v.layouts, partJson: reader.strings('docs.parts') });

  const languages = new Map<number, string>();
  const languageOrdinals = reader.u32('languages.ordinals');
  const languageJson = reader.strings('languages.json');
  for (let i = 0; i < languageOrdinals.length; i++) languages.set(languageOrdinals[i]!, languageJson.get(i));

  const pointTree = Flatbush.from(reader.buffer, reader.offsetOf('pointTree'));
  treeBytes.set(pointTree, reader.u8('pointTree'));
  const extentTree = Flatbush.from(reader.buffer, reader.offsetOf('extentTree'));
  treeBytes.set(extentTree, reader.u8('extentTree'));

  const aliases = new Map<string, number | Uint32Array>();
  for (const [alias, list] of readGrouped(reader, 'aliases')) aliases.set(alias, list.length === 1 ? list[0]! : list);
  const amenities = readGrouped(reader, 'amenities');
  const bits = reader.u8('amenities.bits');
  const width = (n >>> 3) + 1;
  const amenityBits = new Map<string, Uint8Array>();
  let at = 0;
  for (const amenity of amenities.keys()) {
    amenityBits.set(amenity, bits.subarray(at, at + width));
    at += width;
  }

  const items = new Map<string, ItemRows>();
  const itemNames = reader.strings('items.names');
  const itemStarts = reader.u32('items.starts');
  const itemOrdinals = reader.u32('items.ordinals');
  const itemFlags = reader.u8('items.flags');
  for (let i = 0; i < itemNames.length; i++) {
    const rows: ItemRows = new Map();
    for (let j = itemStarts[i]!; j < itemStarts[i + 1]!; j++) rows.set(itemOrdinals[j]!, itemFlags[j] === 1);
    items.set(itemNames.get(i), rows);
  }

  const text = new TextIndex(
    reader.strings('text.terms').all(),
    {
      starts: reader.u32('text.starts'),
      ords: reader.u32('text.ords'),
      freqs: v.freqs === 'u16' ? reader.u16('text.freqs') : reader.f64('text.freqs'),
    },
    reader.u32('text.lengths'),
    v.textRows,
    v.textTokens,
  );

  const parts: IndexParts = {
    counters: { generation: v.generation, dataset: v.dataset },
    ids,
    keys,
    ordinalOf: new KeyOrdinals(keys, reader.u32('keys.order')),
    idOrdinal: new IdOrdinals(ids),
    lat,
    lon,
    docs,
    languages,
    schedule: readInterned(reader, 'schedule'),
    coverage: readInterned(reader, 'coverage'),
    pointTree,
    pointOrdinals: reader.u32('pointOrdinals'),
    hasPoints: v.hasPoints,
    extentTree,
    extentOrdinals: reader.u32('extentOrdinals'),
    hasExtents: v.hasExtents,
    aliases,
    amenities,
    localities: readGrouped(reader, 'localities'),
    items,
    text,
  };
  return new MemoryIndex(parts, v.amenityBits ? amenityBits : undefined);
}
