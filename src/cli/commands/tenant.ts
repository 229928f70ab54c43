/**
 * `ucp-location tenant add|list|remove --tenants <dir>`: the businesses one `serve --tenants <dir>`
 * answers for, each named by its domain (src/tenants/registry.ts has the directory layout).
 *
 * Exit status: 0 done; 2 usage error (bad domain, unknown tenant, unreadable config).
 */
import type { Command } from 'commander';
import { ConfigError } from '../../errors.js';
import { TenantRegistry } from '../../tenants/index.js';
import type { Tenant } from '../../tenants/index.js';

const EXIT_OK = 0;
const EXIT_USAGE = 2;

interface TenantOptions {
  tenants?: string;
  json?: boolean;
}

interface AddOptions extends TenantOptions {
  config?: string;
  baseUrl?: string;
}

export function registerTenantCommands(program: Command): void {
  const tenant = program
    .command('tenant')
    .description('manage the businesses (tenants) one `serve --tenants <dir>` answers for, each named by its domain');
  const dirOption = (cmd: Command): Command =>
    cmd.option('--tenants <dir>', 'the tenants directory (one subdirectory per domain)').option('--json', 'print one JSON document');

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
    await run('tenant add', options, async (registry) => {
      const added = await registry.add(domain, {
        ...(options.config === undefined ? {} : { configFile: options.config }),
        ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
      });
      if (options.json === true) printJson({ ok: true, command: 'tenant add', tenant: describe(added) });
      else {
        print(`Added ${added.domain} (profile at ${added.baseUrl}/.well-known/ucp) in ${added.dir}`);
        print(`Next: ucp-location import --tenants ${registry.dir} --tenant ${added.domain} <file.ndjson>`);
      }
    });
  });

  dirOption(tenant.command('list').description('list the tenants, with where each is served and whether it has data')).action(
    async (options: TenantOptions) => {
      await run('tenant list', options, async (registry) => {
        const tenants = await registry.list();
        if (options.json === true) printJson({ ok: true, command: 'tenant list', tenants: tenants.map(describe) });
        else if (tenants.length === 0) print(`No tenants in ${registry.dir}.`);
        else for (const t of tenants) print(`${t.domain}\t${t.baseUrl}\t${t.hasData ? 'data imported' : 'no data yet'}`);
      });
    },
  );

  dirOption(
    tenant
      .command('remove')
      .description('remove a tenant with its configuration and store (a running `serve` keeps serving it until restarted)')
      .argument('<domain>', 'the tenant to remove'),
  ).action(async (domain: string, options: TenantOptions) => {
    await run('tenant remove', options, async (registry) => {
      const removed = await registry.get(domain);
      await registry.remove(removed.domain);
      if (options.json === true) printJson({ ok: true, command: 'tenant remove', domain: removed.domain });
      else print(`Removed ${removed.domain} from ${registry.dir}`);
    });
  });
}

function describe(t: Tenant): Record<string, unknown> {
  return { domain: t.domain, baseUrl: t.baseUrl, dir: t.dir, config: t.configFile ?? null, store: t.storeFile, hasData: t.hasData };
}

async function run(command: string, options: TenantOptions, body: (registry: TenantRegistry) => Promise<void>): Promise<void> {
  try {
    if (options.tenants === undefined)
      throw new ConfigError('--tenants <dir> is required: the directory holding one subdirectory per tenant.');
    await body(new TenantRegistry(options.tenants));
    process.exitCode = EXIT_OK;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    if (options.json === true) printJson({ ok: false, command, error: { type: 'usage', message: error.message } });
    process.stderr.write(`ucp-location ${command}: ${error.message}\n`);
    process.exitCode = EXIT_USAGE;
  }
}

function print(text: string): void {
  process.stdout.write(`${text}\n`);
}

function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
