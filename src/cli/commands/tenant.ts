/**
 * `ucp-location tenant add|list|remove --tenants <dir>`: the businesses one `serve --tenants <dir>`
 * answers for, each named by its domain (src/tenants/registry.ts has the directory layout).
 * With `--store postgres://…` instead: the tenant catalog of a PostgreSQL store, one schema per
 * tenant, served by `serve --store <url> --multi-tenant` (store/postgres/tenant-catalog.ts).
 *
 * Exit status: 0 done; 1 the database failed; 2 usage error (bad domain, unknown tenant, unreadable config).
 */
import type { Command } from 'commander';
import { ConfigError } from '../../errors.js';
import { checkBaseUrl, normaliseDomain, portableConfig, TenantRegistry } from '../../tenants/index.js';
import type { Tenant } from '../../tenants/index.js';
import type { CatalogTenant, PostgresTenantCatalog } from '../../store/postgres/index.js';

const EXIT_OK = 0;
const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

interface TenantOptions {
  tenants?: string;
  store?: string;
  json?: boolean;
}

/** The two homes of tenants: a directory, or a PostgreSQL store's catalog. */
type Home = { kind: 'dir'; registry: TenantRegistry } | { kind: 'postgres'; catalog: PostgresTenantCatalog };

interface AddOptions extends TenantOptions {
  config?: string;
  baseUrl?: string;
}

export function registerTenantCommands(program: Command): void {
  const tenant = program
    .command('tenant')
    .description('manage the businesses (tenants) one `serve --tenants <dir>` answers for, each named by its domain');
  const dirOption = (cmd: Command): Command =>
    cmd
      .option('--tenants <dir>', 'the tenants directory (one subdirectory per domain)')
      .option(
        '--store <url>',
        'instead of --tenants: a PostgreSQL store (postgres://…), one schema per tenant, served by `serve --store <url> --multi-tenant`',
      )
      .option('--json', 'print one JSON document');

  dirOption(
    tenant
      .command('add')
      .description(
        'add a business: <dir>/<domain>/ with its configuration; then import its data with `import --tenants <dir> --tenant <domain>`',
      )
      .argument('<domain>', 'the domain its profile is served at, e.g. stores.brand.example (IDNA names are stored in punycode)')
      .option('--config <file>', 'its configuration file (the keys of docs/configuration.md); default: all defaults')
      .option('--base-url <url>', 'its public https origin, when it is not https://<domain>'),
  ).action(async (domain: string, options: AddOptions) => {
    await run('tenant add', options, async (home) => {
      let added: Record<string, unknown>;
      let next: string;
      if (home.kind === 'dir') {
        const t = await home.registry.add(domain, {
          ...(options.config === undefined ? {} : { configFile: options.config }),
          ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
        });
        added = describe(t);
        next = `ucp-location import --tenants ${home.registry.dir} --tenant ${t.domain} <file.ndjson>`;
      } else {
        const name = normaliseDomain(domain);
        const baseUrl = options.baseUrl === undefined ? undefined : checkBaseUrl(options.baseUrl, name);
        const config = options.config === undefined ? undefined : await portableConfig(options.config);
        const t = await home.catalog.add(name, {
          ...(baseUrl === undefined ? {} : { baseUrl }),
          ...(config === undefined ? {} : { config }),
        });
        added = describeCatalog(home.catalog, t);
        next = `ucp-location import --store ${home.catalog.display} --tenant ${t.domain} <file.ndjson>`;
      }
      if (options.json === true) printJson({ ok: true, command: 'tenant add', tenant: added });
      else {
        print(`Added ${String(added['domain'])} (profile at ${String(added['baseUrl'])}/.well-known/ucp) in ${String(added['where'])}`);
        print(`Next: ${next}`);
      }
    });
  });

  dirOption(tenant.command('list').description('list the tenants, with where each is served and whether it has data')).action(
    async (options: TenantOptions) => {
      await run('tenant list', options, async (home) => {
        const tenants =
          home.kind === 'dir'
            ? (await home.registry.list()).map(describe)
            : (await home.catalog.list()).map((t) => describeCatalog(home.catalog, t));
        if (options.json === true) printJson({ ok: true, command: 'tenant list', tenants });
        else if (tenants.length === 0) print(`No tenants in ${home.kind === 'dir' ? home.registry.dir : home.catalog.display}.`);
        else
          for (const t of tenants)
            print(`${String(t['domain'])}\t${String(t['baseUrl'])}\t${t['hasData'] === true ? 'data imported' : 'no data yet'}`);
      });
    },
  );

  dirOption(
    tenant
      .command('remove')
      .description(
        'remove a tenant with its configuration and store (a `serve --tenants` keeps serving it until restarted; `serve --multi-tenant` instances stop at once)',
      )
      .argument('<domain>', 'the tenant to remove'),
  ).action(async (domain: string, options: TenantOptions) => {
    await run('tenant remove', options, async (home) => {
      let removed: string;
      let from: string;
      if (home.kind === 'dir') {
        removed = (await home.registry.get(domain)).domain;
        await home.registry.remove(removed);
        from = home.registry.dir;
      } else {
        removed = normaliseDomain(domain);
        from = home.catalog.display;
        if (!(await home.catalog.remove(removed))) {
          throw new ConfigError(`No tenant ${removed} in ${from}; list them with: ucp-location tenant list --store ${from}`);
        }
      }
      if (options.json === true) printJson({ ok: true, command: 'tenant remove', domain: removed });
      else print(`Removed ${removed} from ${from}`);
    });
  });
}

function describe(t: Tenant): Record<string, unknown> {
  return {
    domain: t.domain,
    baseUrl: t.baseUrl,
    dir: t.dir,
    config: t.configFile ?? null,
    store: t.storeFile,
    hasData: t.hasData,
    where: t.dir,
  };
}

function describeCatalog(catalog: PostgresTenantCatalog, t: CatalogTenant): Record<string, unknown> {
  return {
    domain: t.domain,
    baseUrl: t.baseUrl ?? `https://${t.domain}`,
    schema: t.schema,
    config: t.config,
    store: redact(catalog.storeUrl(t)),
    hasData: t.hasData,
    where: `${catalog.display} (schema ${t.schema})`,
  };
}

function redact(url: string): string {
  const u = new URL(url);
  if (u.password !== '') u.password = '***';
  return u.toString();
}

async function run(command: string, options: TenantOptions, body: (home: Home) => Promise<void>): Promise<void> {
  try {
    if (options.tenants !== undefined && options.store !== undefined)
      throw new ConfigError('Give --tenants <dir> or --store <postgres-url>, not both: tenants live in one of the two.');
    if (options.store !== undefined) {
      if (!/^postgres(ql)?:\/\//i.test(options.store)) {
        throw new ConfigError('--store names a PostgreSQL store (postgres://…); for SQLite tenants use --tenants <dir>.');
      }
      // Loaded only here, so directory tenants never load `pg`.
      const { PostgresTenantCatalog } = await import('../../store/postgres/index.js');
      await body({ kind: 'postgres', catalog: PostgresTenantCatalog.at(options.store) });
    } else {
      if (options.tenants === undefined)
        throw new ConfigError(
          '--tenants <dir> (a directory holding one subdirectory per tenant) or --store <postgres-url> (a PostgreSQL store) is required.',
        );
      await body({ kind: 'dir', registry: new TenantRegistry(options.tenants) });
    }
    process.exitCode = EXIT_OK;
  } catch (error) {
    const usage = error instanceof ConfigError;
    const message = error instanceof Error ? error.message : String(error);
    if (options.json === true) printJson({ ok: false, command, error: { type: usage ? 'usage' : 'failure', message } });
    process.stderr.write(`ucp-location ${command}: ${message}\n`);
    process.exitCode = usage ? EXIT_USAGE : EXIT_FAILED;
  }
}

function print(text: string): void {
  process.stdout.write(`${text}\n`);
}

function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
