export { IndexedLocationStore, type IndexedStoreOptions } from './indexed-store.js';
export { MemoryIndex, MemoryIndexBuilder } from './memory-index.js';
export { DiskIndexFileHome, indexFilePathFor, type IndexFileHome, type WriteProgress } from './index-file-home.js';
export {
  buildIndex,
  canExportIndex,
  loadIndexFile,
  publishIndex,
  refreshIndexFile,
  RESIDENT_BYTES_PER_FILE_BYTE,
  residentBytesOf,
  type IndexFileRefresh,
} from './index-file-loader.js';
export type { IndexFileEvent } from './index-file-source.js';
export { logIndexFileEvent, type IndexFileLogger } from './index-file-log.js';
