/**
 * The console suites' fixture: the demo dataset (data/demo.ndjson and its inventory) in a real
 * SQLite store file, imported through the CLI's own pipeline, plus the records for computing what
 * each answer must be.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LocationRecord } from '../../src/domain/location.js';
import { importFiles } from '../../src/data/import.js';
import { applyInventoryFile, parseAvailable } from '../../src/data/inventory.js';
import { SqliteLocationStore } from '../../src/store/sqlite/index.js';

export const DEMO = fileURLToPath(new URL('../../data/demo.ndjson', import.meta.url));
export const DEMO_INVENTORY = fileURLToPath(new URL('../../data/demo-inventory.csv', import.meta.url));
export const TOKEN = 'console-test-token-0123456789';

export function demoRecords(): LocationRecord[] {
  return readFileSync(DEMO, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as LocationRecord);
}

/** (location_id, item_id) pairs the inventory marks available. */
export function demoAvailability(): Set<string> {
  const rows = readFileSync(DEMO_INVENTORY, 'utf8').trim().split('\n').slice(1);
  const available = new Set<string>();
  for (const [location, item, flag] of rows.map((r) => r.split(','))) {
    // Later rows win, as in the feed.
    if (parseAvailable(flag?.trim()) === true) available.add(`${location}|${item}`);
    else available.delete(`${location}|${item}`);
  }
  return available;
}

/** A demo store file in `dir`; open it with `SqliteLocationStore.open(path)`. */
export async function buildDemoStore(dir: string, name = 'demo.db'): Promise<string> {
  const path = join(dir, name);
  const store = await SqliteLocationStore.open(path);
  try {
    await importFiles(store, [DEMO]);
    await applyInventoryFile(store, DEMO_INVENTORY);
  } finally {
    await store.close();
  }
  return path;
}
