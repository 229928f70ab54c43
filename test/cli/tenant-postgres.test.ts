/**
 * The PostgreSQL tenant commands of docs/deployment.md ("Many brands over PostgreSQL"), as a user
 * runs them — the real CLI (dist/) in child processes against a throw-away database: `migrate`,
 * `tenant add|list|remove --store`, `import`/`inventory --store --tenant`, `migrate` again (every
 * tenant's schema current), and `serve --store --multi-tenant --index-memory` answering at the
 * tenant's host — then a tenant removed while it runs is refused. Plus the refusals of the new flags.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../client/support/cli.js';
import type { CliRun } from '../client/support/cli.js';
import { createTestDatabase, withSchema, type TestDatabase } from '../scale/support/pg.js';
import { describeWith } from '../support/services.js';
import { useScratchDir } from '../support/scratch.js';
import { startServer } from '../docs/support/processes.js';
import { rawRequest } from '../../src/transport/test-support/raw-http.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const scratch = useScratchDir('ucp-cli-tenant-pg');
const BRAND = 'stores.brand-a.example';

function cli(...args: string[]): Promise<CliRun> {
  return runCli(args, { cwd: scratch() });
}

function json(run: CliRun): Record<string, unknown> {
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

it('serve --multi-tenant and --index-memory refuse what they cannot serve', async () => {
  const noStore = await cli('serve', '--multi-tenant', '--port', '0');
  expect(noStore.code).toBe(2);
  expect(noStore.stderr).toContain('--multi-tenant serves the tenants of a PostgreSQL store');
  const single = await cli('serve', '--index-memory', '64', '--port', '0');
  expect(single.code).toBe(2);
  expect(single.stderr).toContain('--index-memory bounds the indexes of many tenants');
  const bad = await cli('serve', '--tenants', 'tenants', '--index-memory', 'lots', '--port', '0');
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('--index-memory is a size in MiB');
  const both = await cli('tenant', 'list', '--tenants', 'tenants', '--store', 'postgres://127.0.0.1/x');
  expect(both.code).toBe(2);
}, 120_000);

describeWith(['postgis'], 'tenants over PostgreSQL from the command line', () => {
  let db: TestDatabase | undefined;
  let store: string;
  beforeAll(async () => {
    db = await createTestDatabase('ucp_cli_tenants');
    store = withSchema(db.url, 'ucp_location');
    copyFileSync(join(ROOT, 'data/demo.ndjson'), join(scratch(), 'demo.ndjson'));
    copyFileSync(join(ROOT, 'data/demo-inventory.csv'), join(scratch(), 'demo-inventory.csv'));
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('adds, imports, migrates, serves and removes a tenant', async () => {
    expect((await cli('migrate', '--store', store)).code).toBe(0);
    // Its configuration names a Platform profile file relative to itself: kept as an absolute path.
    const added = await cli('tenant', 'add', BRAND, '--store', store, '--config', join(ROOT, 'examples/tenants/brand-a.json'), '--json');
    expect(added.code).toBe(0);
    expect(json(added)['tenant']).toMatchObject({ domain: BRAND, baseUrl: `https://${BRAND}`, hasData: false });
    const again = await cli('tenant', 'add', BRAND, '--store', store);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('exists already');

    const imported = await cli('import', '--store', store, '--tenant', BRAND, 'demo.ndjson', '--json');
    expect(imported.code).toBe(0);
    expect(json(imported)['indexFile']).toMatchObject({ written: true });
    expect((await cli('inventory', '--store', store, '--tenant', BRAND, 'demo-inventory.csv')).code).toBe(0);
    const unknown = await cli('import', '--store', store, '--tenant', 'nobody.example', 'demo.ndjson');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No tenant nobody.example');

    const listed = await cli('tenant', 'list', '--store', store, '--json');
    expect((json(listed)['tenants'] as Array<{ domain: string; hasData: boolean }>).map((t) => [t.domain, t.hasData])).toEqual([
      [BRAND, true],
    ]);
    const migrated = await cli('migrate', '--store', store, '--json');
    expect(migrated.code).toBe(0);
    expect((json(migrated)['tenants'] as Array<{ domain: string }>).map((t) => t.domain)).toEqual([BRAND]);

    const server = await startServer(
      `node ${join(ROOT, 'dist/cli/main.js')} serve --store '${store}' --multi-tenant --index-memory 64 --port 0`,
      { cwd: scratch(), env: { ...process.env, UCP_LOG_FORMAT: 'json' }, timeoutMs: 60_000 },
    );
    try {
      const profile = await rawRequest(`${server.url}/.well-known/ucp`, { headers: { host: BRAND } });
      expect(profile.status).toBe(200);
      expect(JSON.stringify(profile.json)).toContain(`https://${BRAND}/ucp`);
      expect((await cli('tenant', 'remove', BRAND, '--store', store)).code).toBe(0);
      // The running server hears of it (NOTIFY) and stops serving it; asked until it has.
      let status = 200;
      for (let i = 0; i < 2000 && status === 200; i++) {
        status = (await rawRequest(`${server.url}/.well-known/ucp`, { headers: { host: BRAND } })).status;
      }
      expect(status).toBe(404);
    } finally {
      await server.stop();
    }
    const gone = await cli('tenant', 'list', '--store', store, '--json');
    expect(json(gone)['tenants']).toEqual([]);
  }, 300_000);
});
