/**
 * `tenant add|list|remove`, `import`/`inventory --tenant` and the refusals of `serve --tenants`, as a
 * user runs them: the real CLI in a child process, exit statuses 0 (ok) / 2 (usage), --json reports.
 * Serving the tenants over a socket is docs/deployment.md's "Add a brand" (run by test/docs/).
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SqliteLocationStore } from '../../src/store/sqlite/index.js';
import { runCli } from '../client/support/cli.js';
import type { CliRun } from '../client/support/cli.js';
import { useScratchDir } from '../support/scratch.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const scratch = useScratchDir('ucp-cli-tenant');

function cli(...args: string[]): Promise<CliRun> {
  return runCli(args, { cwd: scratch() });
}

function json(run: CliRun): Record<string, unknown> {
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

describe('ucp-location tenant', () => {
  it('adds a tenant and imports into its own store', async () => {
    copyFileSync(join(ROOT, 'data/demo.ndjson'), join(scratch(), 'demo.ndjson'));
    copyFileSync(join(ROOT, 'data/demo-inventory.csv'), join(scratch(), 'demo-inventory.csv'));
    const added = await cli('tenant', 'add', 'Stores.Brand-A.Example', '--tenants', 'tenants', '--json');
    expect(added.code).toBe(0);
    expect(json(added)['tenant']).toMatchObject({
      domain: 'stores.brand-a.example',
      baseUrl: 'https://stores.brand-a.example',
      hasData: false,
    });

    const imported = await cli('import', '--tenants', 'tenants', '--tenant', 'stores.brand-a.example', 'demo.ndjson', '--json');
    expect(imported.code).toBe(0);
    const store = await SqliteLocationStore.open(join(scratch(), 'tenants/stores.brand-a.example/locations.db'), { readonly: true });
    try {
      expect((await store.stats()).locations).toBe(json(imported)['locations']);
    } finally {
      await store.close();
    }
  });

  it('applies an inventory feed to the tenant’s store, lists the tenant with its data', async () => {
    const inventory = await cli('inventory', '--tenants', 'tenants', '--tenant', 'stores.brand-a.example', 'demo-inventory.csv', '--json');
    expect(inventory.code).toBe(0);
    expect(json(inventory)['applied']).toBeGreaterThan(0);

    const listed = await cli('tenant', 'list', '--tenants', 'tenants', '--json');
    expect((json(listed)['tenants'] as Array<{ domain: string; hasData: boolean }>).map((t) => [t.domain, t.hasData])).toEqual([
      ['stores.brand-a.example', true],
    ]);
  });

  it('removes a tenant with its store', async () => {
    const removed = await cli('tenant', 'remove', 'stores.brand-a.example', '--tenants', 'tenants');
    expect(removed.code).toBe(0);
    expect((await cli('tenant', 'list', '--tenants', 'tenants')).stdout).toContain('No tenants');
  });

  it('answers usage errors with status 2 and a message saying what to do', async () => {
    const badName = await cli('tenant', 'add', '../escape', '--tenants', 'tenants', '--json');
    expect(badName.code).toBe(2);
    expect(json(badName)).toMatchObject({ ok: false, command: 'tenant add' });
  });

  it('import --tenant names the command that adds an unknown tenant, and refuses --db beside it', async () => {
    const unknown = await cli('import', '--tenants', 'tenants', '--tenant', 'nobody.example', 'demo.ndjson');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('tenant add nobody.example');
    const both = await cli('import', '--tenants', 'tenants', '--tenant', 'nobody.example', '--db', 'x.db', 'demo.ndjson');
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('drop --db and --store');
  });

  it('serve --tenants refuses the flags that set one business’s own settings', async () => {
    const own = await cli('serve', '--tenants', 'tenants', '--db', 'x.db', '--port', '0');
    expect(own.code).toBe(2);
    expect(own.stderr).toContain('--db set one business');
  });

  it('serve refuses an empty tenants directory, and --trust-proxy without --tenants', async () => {
    const empty = await cli('serve', '--tenants', 'no-tenants-here', '--port', '0');
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('No tenants in');
    const proxy = await cli('serve', '--trust-proxy', '--port', '0');
    expect(proxy.code).toBe(2);
    expect(proxy.stderr).toContain('--trust-proxy applies to --tenants');
  });
});
