/**
 * `ucp-location migrate --store postgres://…`: create or upgrade the PostgreSQL store schema.
 *
 * Idempotent (a second run reports "already at migration N") and safe to run from several
 * places at once (an advisory lock serialises runs). Servers never migrate by themselves: they
 * refuse an unmigrated or newer schema and name this command.
 *
 * Exit status: 0 migrated or already current; 1 the database refused (unreachable, privileges,
 * newer schema); 2 usage error.
 */
import type { Command } from 'commander';
import { ConfigError } from '../../errors.js';

interface MigrateOptions {
  store?: string;
  schema?: string;
  json?: boolean;
}

const EXIT_OK = 0;
const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

export function registerMigrateCommand(program: Command): void {
  program
    .command('migrate')
    .description('create or upgrade the PostgreSQL store schema (idempotent; needs CREATE EXTENSION rights once for postgis and pg_trgm)')
    .option('--store <url>', 'PostgreSQL URL, e.g. postgres://ucp@db:5432/ucp (?schema=name selects the schema; default ucp_location)')
    .option('--schema <name>', 'schema for the store tables (overrides ?schema= in the URL)')
    .option('--json', 'print one machine-readable JSON report')
    .action(async (options: MigrateOptions) => {
      process.exitCode = await runMigrate(options);
    });
}

async function runMigrate(options: MigrateOptions): Promise<number> {
  try {
    const url = options.store ?? process.env['UCP_LOCATION_STORE'];
    if (url === undefined || url === '') {
      throw new ConfigError('migrate needs --store postgres://user@host:5432/database (or the UCP_LOCATION_STORE environment variable).');
    }
    if (!/^postgres(ql)?:\/\//i.test(url)) {
      throw new ConfigError(
        'migrate applies to the PostgreSQL store only (--store postgres://…); the SQLite store migrates itself when opened.',
      );
    }
    // Loaded here so the other verbs never load `pg`.
    const { PostgresLocationStore, PostgresTenantCatalog } = await import('../../store/postgres/index.js');
    const result = await PostgresLocationStore.migrate(url, options.schema === undefined ? {} : { schema: options.schema });
    // A multi-tenant store: every tenant's schema too (the catalog lists them).
    const catalogUrl = new URL(url);
    catalogUrl.searchParams.set('schema', result.schema);
    const tenants = await PostgresTenantCatalog.at(catalogUrl.toString()).migrateTenants();
    if (options.json === true) {
      process.stdout.write(`${JSON.stringify({ ok: true, command: 'migrate', ...result, tenants }, null, 2)}\n`);
    } else {
      if (result.applied.length === 0) {
        process.stdout.write(`Schema ${result.schema} on ${result.display} is already at migration ${result.to}; nothing to do.\n`);
      } else {
        if (result.createdExtensions.length > 0) process.stdout.write(`Created extensions: ${result.createdExtensions.join(', ')}\n`);
        for (const m of result.applied) process.stdout.write(`Applied migration ${m.version}: ${m.describe}\n`);
        process.stdout.write(`Schema ${result.schema} on ${result.display} is now at migration ${result.to}.\n`);
      }
      if (tenants.length > 0) {
        const moved = tenants.filter((t) => t.applied.length > 0);
        process.stdout.write(
          `Tenants: ${tenants.length} schema(s) at migration ${result.to}${moved.length > 0 ? ` (${moved.length} migrated now)` : ''}.\n`,
        );
      }
    }
    return EXIT_OK;
  } catch (error) {
    const usage = error instanceof ConfigError;
    const message = error instanceof Error ? error.message : String(error);
    if (options.json === true)
      process.stdout.write(
        `${JSON.stringify({ ok: false, command: 'migrate', error: { type: usage ? 'usage' : 'failure', message } }, null, 2)}\n`,
      );
    process.stderr.write(`ucp-location migrate: ${message}\n`);
    return usage ? EXIT_USAGE : EXIT_FAILED;
  }
}
