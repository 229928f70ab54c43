/**
 * The worker-thread import paths give exactly what the single-thread paths give: the same
 * issues in the same order (positions, dataset rules, cap), counts, and the same store.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useScratchDir } from '../../test/support/scratch.js';
import { DataValidationError } from '../errors.js';
import type { LocationRecord } from '../domain/location.js';
import { SqliteLocationStore } from '../store/sqlite/index.js';
import { importFiles, importValidating, validateFiles, writeValidated } from './import.js';
import { DOWNTOWN } from './test-support/canonical-record.js';
import { deepFreeze } from '../protocol/schema-walk.js';
import { defaultWorkers, lineAlignedRanges, SharedParts } from './workers.js';
import { allowForChildProcesses } from '../../test/support/child-process-budget.js';

allowForChildProcesses();

const scratch = useScratchDir('ucp-workers');
let counter = 0;

function file(content: string | Buffer, ext = 'ndjson'): string {
  counter += 1;
  const path = join(scratch(), `${counter}.${ext}`);
  writeFileSync(path, content);
  return path;
}

const SEQUENTIAL = { workers: 1 };
const PARALLEL = { workers: 3, parallelMinBytes: 0 };

function record(i: number, extra: Partial<Record<keyof LocationRecord, unknown>> = {}): string {
  return JSON.stringify({ ...DOWNTOWN, id: `loc_${i}`, aliases: [`alias_${i}`], name: `Store ${i} Łódź`, ...extra });
}

/** Line kinds, each exercising a rule whose outcome depends on order or position. */
const LINE = fc.oneof(
  { weight: 6, arbitrary: fc.nat(40).map((i) => record(i)) },
  { weight: 1, arbitrary: fc.nat(40).map((i) => record(i, { aliases: ['loc_3'] })) },
  { weight: 1, arbitrary: fc.nat(40).map((i) => record(i, { hours: [{ day: 'funday', opens: '09:00', closes: '17:00' }] })) },
  { weight: 1, arbitrary: fc.nat(40).map((i) => record(i, { visibility: 'private' })) },
  { weight: 1, arbitrary: fc.constantFrom('{"id": "broken"', '', '   ', '[1, 2]', '{"id":"x","name":"y","colour":"red"}') },
);

describe('parallel validation (pass 1 on byte ranges)', () => {
  it('splits a file into ranges that start at line starts and cover it', async () => {
    const text = Array.from({ length: 50 }, (_, i) => record(i)).join('\r\n') + '\n';
    const path = file(text);
    const size = Buffer.byteLength(text);
    const ranges = await lineAlignedRanges(path, size, 4);
    expect(ranges.length).toBeGreaterThan(1);
    expect(ranges[0]?.start).toBe(0);
    expect(ranges.at(-1)?.end).toBe(size);
    const bytes = readFileSync(path);
    for (let i = 1; i < ranges.length; i++) {
      expect(ranges[i]?.start).toBe(ranges[i - 1]?.end);
      expect(bytes[(ranges[i]?.start ?? 0) - 1]).toBe(0x0a);
    }
    // A file without line breaks is one range.
    expect(await lineAlignedRanges(file('{"id":"a"}'), 10, 3)).toEqual([{ start: 0, end: 10 }]);
  });

  it('reports the same issues, order and counts as a sequential read (property)', async () => {
    const eol = fc.constantFrom('\n', '\r\n');
    await fc.assert(
      fc.asyncProperty(fc.array(LINE, { minLength: 1, maxLength: 60 }), eol, fc.boolean(), async (lines, nl, bom) => {
        const path = file(`${bom ? '\uFEFF' : ''}${lines.join(nl)}${nl}`);
        const sequential = await validateFiles([path], SEQUENTIAL);
        const parallel = await validateFiles([path], PARALLEL);
        expect(parallel).toEqual(sequential);
      }),
      { numRuns: 8 },
    );
  });

  it('joins the dataset rules across files and ranges', async () => {
    const a = file(Array.from({ length: 30 }, (_, i) => record(i)).join('\n'));
    const b = file(Array.from({ length: 30 }, (_, i) => record(i + 20, { aliases: [`alias_${i}`] })).join('\n'));
    const sequential = await validateFiles([a, b], SEQUENTIAL);
    expect(sequential.ok).toBe(false);
    expect(await validateFiles([a, b], PARALLEL)).toEqual(sequential);
  });
});

describe('defaultWorkers', () => {
  it('is 1 (no workers) or the parallelism of this machine, capped at 4', async () => {
    const n = await defaultWorkers(20);
    expect(n === 1 || n === Math.min(4, availableParallelism())).toBe(true);
  });
});

describe('SharedParts', () => {
  it('sends each shared schedule part once and gives back equal records with the parts shared and frozen', () => {
    const week = deepFreeze([{ day: 'monday' as const, opens: '09:00', closes: '17:00' }]);
    const closed = deepFreeze([{ valid_from: '2026-12-25', valid_through: '2026-12-25' }]);
    const make = (): LocationRecord[] => [
      { ...DOWNTOWN, id: 'a', hours: week, exception_hours: closed },
      { ...DOWNTOWN, id: 'b', hours: week },
      { ...DOWNTOWN, id: 'c', hours: [{ day: 'friday', opens: '10:00', closes: '12:00' }] }, // not shared: sent as is
      { id: 'd', name: 'No schedule' },
    ];
    const expected = make().map((r) => JSON.stringify(r));
    const sender = new SharedParts();
    const receiver = new SharedParts();
    const received: LocationRecord[] = [];
    for (const batch of [make().slice(0, 2), make().slice(1)]) {
      const parts = sender.encode(batch);
      const message = structuredClone({ batch, parts });
      received.push(...receiver.decode(message.batch, message.parts));
    }
    expect(received.map((r) => JSON.stringify(r))).toEqual([...expected.slice(0, 2), ...expected.slice(1)]);
    // Parts travel once: the second batch reuses the first one's.
    expect(received[2]?.hours).toBe(received[0]?.hours);
    expect(Object.isFrozen(received[0]?.hours)).toBe(true);
    expect(Object.isFrozen(received[3]?.hours)).toBe(false);
  });
});

describe('parallel writing (pass 2 on a worker)', () => {
  it('stores the same dataset as a sequential import', async () => {
    const path = file(Array.from({ length: 400 }, (_, i) => record(i, i % 9 === 0 ? { visibility: 'private' } : {})).join('\n'));
    const stores = await Promise.all([1, 2].map((n) => SqliteLocationStore.open(join(scratch(), `store-${counter}-${n}.db`))));
    try {
      const [s1, s2] = stores as [SqliteLocationStore, SqliteLocationStore];
      const r1 = await importFiles(s1, [path], SEQUENTIAL);
      const r2 = await importFiles(s2, [path], PARALLEL);
      expect({ ...r2, generation: 0 }).toEqual({ ...r1, generation: 0 });
      expect(await s2.stats()).toEqual(await s1.stats());
      const ids = Array.from({ length: 400 }, (_, i) => `loc_${i}`);
      const locations = async (s: SqliteLocationStore) => s.getLocations([...(await s.resolveIds(ids)).values()].flat());
      const expected = await locations(s1);
      expect(expected.length).toBeGreaterThan(300);
      expect(await locations(s2)).toEqual(expected);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  it('one pass on a worker: a problem late in the file rolls the import back with the report validation gives', async () => {
    const lines = Array.from({ length: 300 }, (_, i) => record(i));
    lines[250] = record(7, { name: 42 }); // a bad name, a duplicate id and alias, all late
    lines.push(record(300, { aliases: ['loc_3'] })); // an alias naming another id: a dataset rule, found at the end
    const path = file(lines.join('\n'));
    const store = await SqliteLocationStore.open(join(scratch(), `store-${counter}-onepass.db`));
    try {
      await importFiles(store, [file(record(1))], PARALLEL);
      const before = await store.stats();
      const expected = await validateFiles([path], SEQUENTIAL);
      expect(expected.ok).toBe(false);
      for (const options of [PARALLEL, SEQUENTIAL]) {
        const { report, written } = await importValidating(store, [path], options);
        expect(written).toBeUndefined();
        expect(report).toEqual(expected);
        expect(await store.stats()).toEqual(before);
      }
      expect(expected.issues.map((i) => [i.line, i.field])).toEqual([
        [251, 'name'],
        [251, 'id'],
        [251, 'aliases[0]'], // alias_7 twice
        [301, 'aliases[0]'],
      ]);
    } finally {
      await store.close();
    }
  });

  it('rolls back and reports the problem when the file changed after validation', async () => {
    const path = file(Array.from({ length: 50 }, (_, i) => record(i)).join('\n'));
    const store = await SqliteLocationStore.open(join(scratch(), `store-${counter}-changed.db`));
    try {
      await importFiles(store, [path], PARALLEL);
      const before = await store.stats();
      const checked = await validateFiles([path], PARALLEL);
      writeFileSync(path, `${readFileSync(path, 'utf8')}\n${record(3)}`);
      const error = await writeValidated(store, checked, PARALLEL).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DataValidationError);
      expect((error as DataValidationError).issues[0]).toMatchObject({ line: 51, field: 'id' });
      expect(await store.stats()).toEqual(before);
    } finally {
      await store.close();
    }
  });
});
