/**
 * The console suites' fixture: the demo dataset (data/demo.ndjson and its inventory) in a real
 * SQLite store file, imported through the CLI's own pipeline, plus the records for computing what
 * each answer must be.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LocationRecord } from '../../src/domain/location.js';
import { withComingHolidays } from '../../src/data/demo-holidays.js';
import { readRecords } from '../../src/data/import.js';
import { applyInventoryFile, parseAvailable } from '../../src/data/inventory.js';
import { SqliteLocationStore } from '../../src/store/sqlite/index.js';

export const DEMO = fileURLToPath(new URL('../../data/demo.ndjson', import.meta.url));
export const DEMO_INVENTORY = fileURLToPath(new URL('../../data/demo-inventory.csv', import.meta.url));
export const TOKEN = 'console-test-token-0123456789';

/** The instant the console suites run at: the demo's coming holidays are counted from it. */
export const CONSOLE_NOW = Date.parse('2026-12-02T12:00:00Z');

/** The demo's records as `serve` loads them on CONSOLE_NOW: with the coming holidays (demo-holidays.ts). */
export function demoRecords(): LocationRecord[] {
  return readFileSync(DEMO, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => withComingHolidays(JSON.parse(l) as LocationRecord, CONSOLE_NOW));
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
    // Validated through the import pipeline, then stored with the holidays the demo gets on CONSOLE_NOW.
    const records: LocationRecord[] = [];
    for await (const record of readRecords([DEMO])) records.push(withComingHolidays(record, CONSOLE_NOW));
    await store.replaceAll(records);
    await applyInventoryFile(store, DEMO_INVENTORY);
  } finally {
    await store.close();
  }
  return path;
}
