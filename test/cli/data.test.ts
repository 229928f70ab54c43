/**
 * The data verbs as a user runs them: the real CLI in a child process, in a temp working
 * directory, with exit statuses 0 (ok) / 1 (data rejected) / 2 (usage) and --json reports.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteLocationStore } from '../../src/store/sqlite/index.js';
import { runCli, type CliRun } from '../client/support/cli.js';
import { allowForChildProcesses } from '../support/child-process-budget.js';

allowForChildProcesses();

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function cli(cwd: string, ...args: string[]): Promise<CliRun> {
  return runCli(args, { cwd });
}

function json(run: CliRun): Record<string, unknown> {
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

async function storeStats(db: string) {
  const store = await SqliteLocationStore.open(db);
  try {
    return await store.stats();
  } finally {
    await store.close();
  }
}

let cwd: string;

beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), 'ucp-cli-data-'));
  copyFileSync(join(ROOT, 'data/demo.ndjson'), join(cwd, 'demo.ndjson'));
  copyFileSync(join(ROOT, 'data/demo-inventory.csv'), join(cwd, 'demo-inventory.csv'));
  writeFileSync(
    join(cwd, 'bad.ndjson'),
    '{"id":"a","name":"A"}\n{"id":"b","name":"B","timezone":"Nowhere/City","hours":[]}\n{"id":"a","name":"again"}\n',
  );
  writeFileSync(join(cwd, 'bad-feed.csv'), 'location_id,item_id,available\nloc_downtown,item_id_phone_15_pro,perhaps\n');
  writeFileSync(
    join(cwd, 'unknown-loc.csv'),
    'location_id,item_id,available\nloc_downtown,item_id_phone_15_pro,0\nloc_atlantis,item_id_x,1\n',
  );
});

afterAll(() => {
  if (cwd !== undefined) rmSync(cwd, { recursive: true, force: true });
});

// One child process at a time: side by side, each test's time was that of all of them, and a busy
// machine pushed them past the test timeout together (as in test/e2e/cli-serve.test.ts).
describe('ucp-location validate', () => {
  it('exits 0 and summarises a valid file', async () => {
    const run = await cli(cwd, 'validate', 'demo.ndjson');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^OK: 200 record\(s\) valid \(194 public\)/);
    expect(run.stdout).toContain('demo.ndjson: 200 record(s), ndjson');
  });

  it('exits 1 and lists file:line field: message for each problem', async () => {
    const run = await cli(cwd, 'validate', 'bad.ndjson');
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('2 problem(s) found');
    expect(run.stdout).toContain('bad.ndjson:2 timezone: "Nowhere/City" is not an IANA time zone identifier');
    expect(run.stdout).toContain('bad.ndjson:3 id: duplicate id "a" (first defined at bad.ndjson:1)');
  });

  it('--json prints one machine-readable report', async () => {
    const [run, okRun] = await Promise.all([cli(cwd, 'validate', '--json', 'bad.ndjson'), cli(cwd, 'validate', '--json', 'demo.ndjson')]);
    expect(run.code).toBe(1);
    expect(json(run)).toMatchObject({
      command: 'validate',
      ok: false,
      records: 3,
      issueCount: 2,
      issues: [
        { file: 'bad.ndjson', line: 2, field: 'timezone' },
        { file: 'bad.ndjson', line: 3, field: 'id' },
      ],
    });
    expect(okRun.code).toBe(0);
    expect(json(okRun)).toMatchObject({ command: 'validate', ok: true, records: 200, publicRecords: 194, issueCount: 0, issues: [] });
  });

  it('names the --format to add when an OpenStreetMap file is read by its extension, last in the text and in --json', async () => {
    copyFileSync(join(ROOT, 'examples/osm/stores.geojson'), join(cwd, 'osm.geojson'));
    const [osm, osmJson] = await Promise.all([cli(cwd, 'validate', 'osm.geojson'), cli(cwd, 'validate', '--json', 'osm.geojson')]);
    expect(osm.code).toBe(1);
    expect(osm.stdout.trimEnd().split('\n').at(-1)).toBe(
      'Hint: osm.geojson: this file looks like OpenStreetMap data (it has addr:* and opening_hours tags); add --format osm to read it as such.',
    );
    expect(json(osmJson)).toMatchObject({ ok: false, formatHints: [{ file: 'osm.geojson', format: 'osm' }] });
  });

  it('names the --format to add for a JSON-LD document named .json (import writes nothing) and a Business Profile sheet', async () => {
    copyFileSync(join(ROOT, 'examples/jsonld/stores.jsonld'), join(cwd, 'ld.json'));
    copyFileSync(join(ROOT, 'examples/gbp/locations.csv'), join(cwd, 'gbp.csv'));
    const [ld, gbp] = await Promise.all([cli(cwd, 'import', 'ld.json', '--db', 'hint.db'), cli(cwd, 'validate', 'gbp.csv')]);
    for (const run of [ld, gbp]) expect(run.code).toBe(1);
    expect(ld.stdout).toContain('Hint: ld.json: this file looks like schema.org JSON-LD (its @context is schema.org); add --format jsonld');
    expect(gbp.stdout).toContain(
      'Hint: gbp.csv: this file looks like a Google Business Profile bulk sheet (its header has Store code and Business name columns); add --format gbp',
    );
    expect(existsSync(join(cwd, 'hint.db'))).toBe(false);
  });

  it('exits 2 on usage errors: unknown option, missing argument, missing file, unknown format', async () => {
    const [bogus, none, missing, format] = await Promise.all([
      cli(cwd, 'validate', '--bogus', 'demo.ndjson'),
      cli(cwd, 'validate'),
      cli(cwd, 'validate', 'nope.ndjson'),
      cli(cwd, 'validate', '--json', '--format', 'xml', 'demo.ndjson'),
    ]);
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toContain("unknown option '--bogus'");
    expect(none.code).toBe(2);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read "nope.ndjson": no such file');
    expect(format.code).toBe(2);
    expect(json(format)).toMatchObject({
      ok: false,
      error: { type: 'usage', message: expect.stringContaining('unknown format "xml"') as unknown },
    });
  });
});

describe('ucp-location import', () => {
  it('imports into ./ucp-location.db by default, then refuses bad data leaving it intact (exit 1)', async () => {
    const ok = await cli(cwd, 'import', 'demo.ndjson');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^Imported 200 location\(s\) \(194 public\) into \.\/ucp-location\.db/);
    const db = join(cwd, 'ucp-location.db');
    const before = await storeStats(db);
    expect(before).toMatchObject({ locations: 200, publicLocations: 194 });

    const bad = await cli(cwd, 'import', 'bad.ndjson');
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('nothing was written, the previous data is unchanged');
    expect(bad.stdout).toContain('bad.ndjson:3 id: duplicate id "a"');
    expect(await storeStats(db)).toEqual(before);
  });

  it('--json reports counts and the generation; --quiet prints nothing on success', async () => {
    const run = await cli(cwd, 'import', '--json', '--db', 'other.db', 'demo.ndjson');
    expect(run.code).toBe(0);
    expect(json(run)).toMatchObject({
      ok: true,
      command: 'import',
      db: 'other.db',
      locations: 200,
      publicLocations: 194,
      records: 200,
      generation: 1,
    });
    const quiet = await cli(cwd, 'import', '--quiet', '--db', 'other.db', 'demo.ndjson');
    expect(quiet).toMatchObject({ code: 0, stdout: '' });
  });

  it('does not create the database when the data is rejected', async () => {
    const run = await cli(cwd, 'import', '--json', '--db', 'never.db', 'bad.ndjson');
    expect(run.code).toBe(1);
    expect(json(run)).toMatchObject({ ok: false, command: 'import', issueCount: 2 });
    expect(existsSync(join(cwd, 'never.db'))).toBe(false);
  });
});

describe('ucp-location inventory', () => {
  it('applies a feed (exit 0) and rejects malformed or unknown-location batches whole (exit 1)', async () => {
    const db = 'inventory.db';
    expect((await cli(cwd, 'import', '--quiet', '--db', db, 'demo.ndjson')).code).toBe(0);
    const applied = await cli(cwd, 'inventory', '--json', '--db', db, 'demo-inventory.csv');
    expect(applied.code).toBe(0);
    expect(json(applied)).toMatchObject({ ok: true, command: 'inventory', rows: 2098, applied: 2098 });
    const after = await storeStats(join(cwd, db));

    const malformed = await cli(cwd, 'inventory', '--db', db, 'bad-feed.csv');
    expect(malformed.code).toBe(1);
    expect(malformed.stdout).toContain('bad-feed.csv:2 available: must be true/false, 1/0 or yes/no, got a string ("perhaps")');

    const unknown = await cli(cwd, 'inventory', '--json', '--db', db, 'unknown-loc.csv');
    expect(unknown.code).toBe(1);
    expect(json(unknown)).toMatchObject({ ok: false, issues: [{ file: 'unknown-loc.csv', line: 3, field: 'location_id' }] });
    expect(await storeStats(join(cwd, db))).toEqual(after);
  });
});
