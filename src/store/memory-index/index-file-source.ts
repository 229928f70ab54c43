/**
 * How IndexedLocationStore obtains the index of a dataset when its store has an index-file home:
 *  - at start, and when another process changed the dataset: load the file; over PostgreSQL a
 *    dataset changed elsewhere waits for its importer to publish the file (NOTIFY) rather than
 *    building the same index again here;
 *  - after an import through this store: build it (the data is new) and publish it for the others;
 *  - when no usable file comes: build from the store and say why, once (`onIndexFile`).
 */
import type { IndexFileHome } from './index-file-home.js';
import { buildIndex, type ExportingStore, loadIndexFile, publishIndex } from './index-file-loader.js';
import type { MemoryIndex } from './memory-index.js';

/** One per index obtained with a home: what was done, and why when it was built. */
export type IndexFileEvent =
  | { outcome: 'loaded'; from: string; locations: number; generation: number; ms: number }
  | { outcome: 'built'; reason: string; locations: number; generation: number; ms: number; written: boolean; writeError?: string };

export interface IndexFileOptions {
  /** Where each dataset's index file is kept (closed with the store). Absent: always build. */
  indexFiles?: IndexFileHome | undefined;
  /** Told once per index obtained with `indexFiles`: loaded, or built and why. */
  onIndexFile?: (event: IndexFileEvent) => void;
  /**
   * How long a dataset changed by another process waits for that process's index file before
   * building here, ms. Default 300 000 (an importer builds the file in about the time a build
   * here would take, then publishes it).
   */
  indexFileWaitMs?: number;
}

/** Why the index is needed: process start, another process's dataset change, or this process's import. */
export type IndexNeed = 'start' | 'follow' | 'imported';

export async function obtainIndex(store: ExportingStore, options: IndexFileOptions, need: IndexNeed): Promise<MemoryIndex> {
  const home = options.indexFiles;
  if (home === undefined) return buildIndex(store);
  const started = performance.now();
  let reason = 'this instance imported the dataset';
  if (need !== 'imported') {
    let seen = home.publicationCount?.() ?? 0;
    let loaded = await loadIndexFile(store, home);
    if (need === 'follow' && home.nextPublication !== undefined) {
      const deadline = performance.now() + (options.indexFileWaitMs ?? 300_000);
      while ('reason' in loaded && (await home.nextPublication(seen, deadline - performance.now()))) {
        seen = home.publicationCount?.() ?? seen + 1;
        loaded = await loadIndexFile(store, home);
      }
    }
    if ('index' in loaded) {
      const { index } = loaded;
      options.onIndexFile?.({
        outcome: 'loaded',
        from: home.description,
        locations: index.size,
        generation: index.generation,
        ms: loaded.ms,
      });
      return index;
    }
    reason = loaded.reason;
  }
  const index = await buildIndex(store);
  let written = false;
  let writeError: string | undefined;
  try {
    written = await publishIndex(index, store, home);
  } catch (error) {
    // The index answers all the same; the next start builds again.
    writeError = error instanceof Error ? error.message : String(error);
  }
  options.onIndexFile?.({
    outcome: 'built',
    reason,
    locations: index.size,
    generation: index.generation,
    ms: performance.now() - started,
    written,
    ...(writeError === undefined ? {} : { writeError }),
  });
  return index;
}
