export { IndexedLocationStore, type IndexedStoreOptions } from './indexed-store.js';
export { MemoryIndex, MemoryIndexBuilder } from './memory-index.js';
