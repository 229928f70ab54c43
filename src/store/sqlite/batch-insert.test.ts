import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BatchInsert } from './batch-insert.js';
import { PairBuffer } from './bulk-import.js';

describe('BatchInsert', () => {
  it('writes every row in order across full and partial statements, with per-row OR IGNORE', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (seq INTEGER PRIMARY KEY, name TEXT, v REAL)');
    db.exec('CREATE TABLE u (k TEXT PRIMARY KEY, n INTEGER)');
    const t = new BatchInsert(db, 'INSERT INTO t(seq, name, v)', 3);
    const u = new BatchInsert(db, 'INSERT OR IGNORE INTO u(k, n)', 2);
    for (let i = 0; i < 300; i++) {
      t.add(i, `n${i}`, i % 7 === 0 ? null : i / 2);
      u.add(`k${i % 50}`, i);
    }
    t.flush();
    u.flush();
    t.flush(); // nothing pending: a no-op
    expect(t.rows).toBe(300);
    const rows = db.prepare('SELECT seq, name, v FROM t ORDER BY rowid').all() as { seq: number; name: string; v: number | null }[];
    expect(rows).toHaveLength(300);
    expect(rows.map((r) => r.seq)).toEqual([...Array(300).keys()]);
    expect(rows[7]).toEqual({ seq: 7, name: 'n7', v: null });
    expect(rows[9]).toEqual({ seq: 9, name: 'n9', v: 4.5 });
    // The first row of each key wins, as with one INSERT OR IGNORE per row.
    expect(db.prepare('SELECT k, n FROM u ORDER BY n').all()).toEqual(Array.from({ length: 50 }, (_, i) => ({ k: `k${i}`, n: i })));
    db.close();
  });

  it('reports a constraint violation of any row', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (k INTEGER PRIMARY KEY)');
    const t = new BatchInsert(db, 'INSERT INTO t(k)', 1);
    t.add(1);
    t.add(1);
    expect(() => t.flush()).toThrow(/UNIQUE/);
    db.close();
  });
});

describe('PairBuffer', () => {
  const sortedDistinct = (pairs: readonly [number, number][]): [number, number][] =>
    [...new Map(pairs.map((p) => [`${p[0]}:${p[1]}`, p])).values()].sort((a, b) => a[0] - b[0] || a[1] - b[1]);

  it('visits distinct (id, key) pairs in (id, key) order, with keys pushed in order or not (property)', () => {
    const pair = fc.tuple(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 200 }));
    fc.assert(
      fc.property(fc.array(pair, { maxLength: 300 }), fc.boolean(), (raw, keysInOrder) => {
        const pairs = keysInOrder ? [...raw].sort((a, b) => a[1] - b[1]) : raw;
        const buffer = new PairBuffer();
        for (const [id, key] of pairs) buffer.push(id, key);
        const seen: [number, number][] = [];
        buffer.forEachSorted((id, key) => seen.push([id, key]));
        expect(seen).toEqual(sortedDistinct(pairs));
      }),
      { numRuns: 300 },
    );
  });
});
