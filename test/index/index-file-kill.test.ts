/**
 * An import killed half-way (`kill -9`, a real child process stopped at a point it announces on
 * stdout) leaves the previous generation's index file and store intact (#30): killed while the
 * records are being written, nothing changed; killed while the new index file is being written,
 * the store holds the new import and the file is still the previous one, whole — refused for
 * being of another import and rebuilt, never served.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiskIndexFileHome, IndexedLocationStore, indexFilePathFor, type IndexFileEvent } from '../../src/store/memory-index/index.js';
import { SqliteLocationStore } from '../../src/store/sqlite/index.js';
import { fixtureRecords } from '../contract/fixture.js';

const ROOT = new URL('../..', import.meta.url).pathname;

/** Runs the child until it prints `line`, then kills it with SIGKILL and waits for it to be gone. */
async function killAt(db: string, recordsFile: string, stopAt: 'records' | 'index', line: string): Promise<void> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/index/support/import-kill-child.ts', db, recordsFile, stopAt],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout! });
  let seen = false;
  for await (const l of lines) {
    if (l === line) {
      seen = true;
      break;
    }
  }
  expect(seen, `the child never printed ${line}: ${stderr}`).toBe(true);
  child.kill('SIGKILL');
  const [code, signal] = await exited;
  expect({ code, signal }).toEqual({ code: null, signal: 'SIGKILL' });
}

describe('an import killed half-way (kill -9)', () => {
  let dir: string;
  let db: string;
  let recordsFile: string;
  const first = fixtureRecords();
  // The next dataset: other Locations (a third of them gone, the rest renamed).
  const next = first.slice(first.length / 3).map((r) => ({ ...r, name: `${r.name} Renewed` }));

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ucp-index-kill-'));
    db = join(dir, 'store.db');
    recordsFile = join(dir, 'next.json');
    writeFileSync(recordsFile, JSON.stringify(next));
    const store = await SqliteLocationStore.open(db);
    const indexed = await IndexedLocationStore.open(store, { indexFiles: new DiskIndexFileHome(indexFilePathFor(db)) });
    await indexed.replaceAll(first);
    await indexed.close();
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  async function reopen(): Promise<{ events: IndexFileEvent[]; ids: string[]; generation: number }> {
    const events: IndexFileEvent[] = [];
    const store = await SqliteLocationStore.open(db, { readonly: true });
    const indexed = await IndexedLocationStore.open(store, {
      indexFiles: new DiskIndexFileHome(indexFilePathFor(db)),
      onIndexFile: (e) => events.push(e),
    });
    const ids = (await indexed.findCandidates({})).map((c) => c.id).sort();
    const generation = await indexed.generation();
    await indexed.close();
    return { events, ids, generation };
  }

  it("while writing the records: the store and the index file are the previous generation's, and the file is loaded", async () => {
    const fileBefore = readFileSync(indexFilePathFor(db));
    const before = await reopen();
    expect(before.events.map((e) => e.outcome)).toEqual(['loaded']);

    await killAt(db, recordsFile, 'records', 'HALFWAY');

    expect(readFileSync(indexFilePathFor(db)).equals(fileBefore)).toBe(true);
    const after = await reopen();
    expect(after.events.map((e) => e.outcome)).toEqual(['loaded']);
    expect(after.generation).toBe(before.generation);
    expect(after.ids).toEqual(before.ids);
  }, 120_000);

  it('while writing the index file: the previous file stays whole, is refused as another import, and the new one is built and written', async () => {
    const fileBefore = readFileSync(indexFilePathFor(db));
    const before = await reopen();

    await killAt(db, recordsFile, 'index', 'HALF-WRITTEN');

    // The half-written file is a temporary one; the live file is untouched.
    expect(readFileSync(indexFilePathFor(db)).equals(fileBefore)).toBe(true);
    expect(readdirSync(dir).some((f) => f.includes('.index.tmp-'))).toBe(true);
    const after = await reopen();
    expect(after.generation).toBeGreaterThan(before.generation);
    expect(after.events).toHaveLength(1);
    expect(after.events[0]).toMatchObject({
      outcome: 'built',
      written: true,
      reason: expect.stringContaining('holds the import of generation'),
    });
    expect(after.ids).toEqual(
      next
        .filter((r) => r.visibility !== 'private')
        .map((r) => r.id)
        .sort(),
    );
    // The write removed the killed writer's leftover.
    expect(readdirSync(dir).filter((f) => f.includes('.index.tmp-'))).toEqual([]);
    const again = await reopen();
    expect(again.events.map((e) => e.outcome)).toEqual(['loaded']);
  }, 120_000);
});
