/**
 * Child process for the kill -9 test (index-file-kill.test.ts): imports the records of a JSON
 * file into an SQLite store and writes its index file, stopping at a chosen point, where it says
 * so on stdout and waits to be killed:
 *   records — half the records written inside the import's transaction (prints HALFWAY);
 *   index   — the import committed, half of the new index file written (prints HALF-WRITTEN).
 *
 *   node --import tsx test/index/support/import-kill-child.ts <store.db> <records.json> <records|index>
 */
import { readFileSync } from 'node:fs';
import type { LocationRecord } from '../../../src/domain/location.js';
import { buildIndex, DiskIndexFileHome, indexFilePathFor, publishIndex } from '../../../src/store/memory-index/index.js';
import { SqliteLocationStore } from '../../../src/store/sqlite/index.js';

/** Stay alive until killed (a pending timer keeps the event loop running; nothing is timed). */
function waitToBeKilled(): Promise<never> {
  setInterval(() => undefined, 1 << 30);
  return new Promise<never>(() => undefined);
}

async function main(): Promise<void> {
  const [db, file, stopAt] = process.argv.slice(2);
  if (db === undefined || file === undefined || (stopAt !== 'records' && stopAt !== 'index')) {
    process.stderr.write('usage: import-kill-child.ts <store.db> <records.json> <records|index>\n');
    process.exit(2);
  }
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(parsed)) throw new Error('records file must hold a JSON array');
  const records: LocationRecord[] = parsed;
  const store = await SqliteLocationStore.open(db);
  async function* halfThenStop(): AsyncGenerator<LocationRecord> {
    for (let i = 0; i < records.length; i++) {
      if (stopAt === 'records' && i === Math.floor(records.length / 2)) {
        process.stdout.write('HALFWAY\n');
        await waitToBeKilled();
      }
      yield records[i]!;
    }
  }
  await store.replaceAll(halfThenStop());
  const index = await buildIndex(store);
  let said = false;
  await publishIndex(index, store, new DiskIndexFileHome(indexFilePathFor(db)), async (written, total) => {
    if (said || written * 2 < total) return;
    said = true;
    process.stdout.write('HALF-WRITTEN\n');
    await waitToBeKilled();
  });
  process.stdout.write('DONE\n');
}

void main();
