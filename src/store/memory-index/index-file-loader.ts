/**
 * Getting the index of a store's dataset from its index file, and writing one.
 *
 * A file is used only when it is whole (format, length, checksum: index-file-format.ts) and holds
 * the store's current import (its stamp); availability changed since the file was written is then
 * read from the store (one availability export, no rebuild). Otherwise the caller builds from the
 * store, and the reason returned here is what it logs — once.
 */
import { IndexFileReader, IndexFileRejected } from './index-file-format.js';
import type { IndexFileHome, WriteProgress } from './index-file-home.js';
import { type ImportStamp, indexFileBytes, indexFromFile, stampOf } from './index-snapshot.js';
import { type MemoryIndex, MemoryIndexBuilder } from './memory-index.js';
import type { LocationStore } from '../store.js';

export type ExportingStore = LocationStore & Required<Pick<LocationStore, 'exportIndex' | 'exportAvailability'>>;

/** The store can feed an in-memory index (and so have an index file). */
export function canExportIndex(store: LocationStore): store is ExportingStore {
  return store.exportIndex !== undefined && store.exportAvailability !== undefined;
}

/** What each index holds in memory, bytes (see residentBytesOf). */
const residentBytes = new WeakMap<MemoryIndex, number>();

/**
 * Memory an index holds per byte of its file: the file's buffer (which its typed arrays view)
 * plus the strings and maps decoded from it. Measured, not derived: indexes of 200 Locations read
 * from their files grew the heap by 752 KiB each over a 333 KiB file (node --expose-gc, after a
 * collection), 3.26×; bench/tenants.ts checks the budget this sets against the process's RSS.
 */
export const RESIDENT_BYTES_PER_FILE_BYTE = 3.25;

/**
 * What an index holds in memory, bytes — what a memory budget shared by many tenants' indexes
 * counts: its file's length times RESIDENT_BYTES_PER_FILE_BYTE (deterministic, so the same data
 * always costs the same). An index never written is measured by laying its file out once.
 */
export function residentBytesOf(index: MemoryIndex): number {
  let bytes = residentBytes.get(index);
  if (bytes === undefined) {
    bytes = residentOfFile(indexFileBytes(index, { importGeneration: 0, importedAt: null }).length);
    residentBytes.set(index, bytes);
  }
  return bytes;
}

function residentOfFile(fileLength: number): number {
  return Math.round(fileLength * RESIDENT_BYTES_PER_FILE_BYTE);
}

export type IndexFileLoad = { index: MemoryIndex; ms: number } | { reason: string };

/** The store's current import, as an index file names it. */
export async function storeStamp(store: LocationStore): Promise<ImportStamp> {
  const last = (await store.lastImport?.()) ?? null;
  return { importGeneration: last?.generation ?? 0, importedAt: last?.at ?? null };
}

export async function buildIndex(store: ExportingStore): Promise<MemoryIndex> {
  const builder = new MemoryIndexBuilder();
  const counters = await store.exportIndex(builder);
  return builder.build(counters);
}

/** The index of the store's dataset from the home's file, or why it cannot be used. */
export async function loadIndexFile(store: ExportingStore, home: IndexFileHome): Promise<IndexFileLoad> {
  const started = performance.now();
  const buffer = await home.read();
  if (buffer === null) return { reason: `there is no index file at ${home.description}` };
  let index: MemoryIndex;
  try {
    const reader = new IndexFileReader(buffer);
    const stamp = stampOf(reader);
    const current = await storeStamp(store);
    if (stamp.importGeneration !== current.importGeneration || stamp.importedAt !== current.importedAt) {
      return {
        reason: `the index file at ${home.description} holds the import of generation ${stamp.importGeneration}, the store holds the import of generation ${current.importGeneration}`,
      };
    }
    index = indexFromFile(reader);
    residentBytes.set(index, residentOfFile(buffer.byteLength));
  } catch (error) {
    if (error instanceof IndexFileRejected) return { reason: `the index file at ${home.description} was refused: ${error.reason}` };
    // The checksum matched, so this is a file this release cannot read as it wrote it: never serve it.
    return { reason: `the index file at ${home.description} could not be read: ${error instanceof Error ? error.message : String(error)}` };
  }
  const generation = await store.generation();
  if (generation < index.generation) {
    return { reason: `the index file at ${home.description} is newer (generation ${index.generation}) than the store (${generation})` };
  }
  if (generation > index.generation) {
    // Inventory batches since the file was written: availability from the store, in place.
    const rows: [string, number, boolean][] = [];
    const counters = await store.exportAvailability({ availability: (key, item, available) => rows.push([item, key, available]) });
    if (counters.dataset !== index.dataset)
      return { reason: `the store's dataset changed while the index file at ${home.description} was read` };
    index.replaceAvailability(rows, counters.generation);
  }
  return { index, ms: performance.now() - started };
}

/**
 * Write `index` to the home, stamped with the store's current import. Skipped (false) when the
 * store has moved on to a newer import since the index was exported: the file would lie.
 */
export async function publishIndex(
  index: MemoryIndex,
  store: LocationStore,
  home: IndexFileHome,
  onProgress?: WriteProgress,
): Promise<boolean> {
  const stamp = await storeStamp(store);
  // Read after the export: an import at or before the index's generation is the one it holds.
  if (stamp.importGeneration > index.generation) return false;
  const bytes = indexFileBytes(index, stamp);
  if (!residentBytes.has(index)) residentBytes.set(index, residentOfFile(bytes.length));
  await home.write(bytes, index.generation, onProgress);
  return true;
}

/** What `refreshIndexFile` did. */
export interface IndexFileRefresh {
  /** How the index was obtained: from the previous file (plus availability), or built. */
  source: 'file' | 'built';
  /** Why the previous file was not used, when it was not. */
  reason?: string;
  written: boolean;
  locations: number;
  generation: number;
}

/**
 * After a write through the CLI (`import`, `inventory`): the file for the store's current
 * generation. An inventory batch reuses the previous file (availability re-read); an import builds.
 */
export async function refreshIndexFile(store: ExportingStore, home: IndexFileHome): Promise<IndexFileRefresh> {
  const loaded = await loadIndexFile(store, home);
  const index = 'index' in loaded ? loaded.index : await buildIndex(store);
  const written = await publishIndex(index, store, home);
  return {
    source: 'index' in loaded ? 'file' : 'built',
    ...('reason' in loaded ? { reason: loaded.reason } : {}),
    written,
    locations: index.size,
    generation: index.generation,
  };
}
