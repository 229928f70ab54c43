/**
 * Data verbs: `import`, `validate`, `inventory`.
 *
 * Exit status: 0 success; 1 the data was rejected (nothing written) or the store failed;
 * 2 usage error (bad option, missing or unreadable file, unknown format).
 * Reports go to stdout (human text, or one JSON document with --json); progress and usage
 * errors go to stderr.
 */
import type { Command } from 'commander';
import { ConfigError, DataValidationError, formatDataIssue, type DataIssue } from '../../errors.js';
import { existsSync, rmSync } from 'node:fs';
import { diffValidated, importValidating, validateFiles, type FileSummary, type ValidationReport } from '../../data/import.js';
import { applyInventoryFile } from '../../data/inventory.js';
import { DATA_FORMATS } from '../../data/sources.js';
import type { ImportProgress, LocationStore } from '../../store/store.js';
import { indexFileLine, refreshIndexFileOf } from '../index-file.js';
import { SqliteLocationStore } from '../../store/sqlite/index.js';
import { normaliseDomain, TenantRegistry } from '../../tenants/index.js';
import { createProgress } from '../progress.js';
import { addSourceOptions, printDiff, printNotes, sourceImportOptions, type SourceFlags } from './import-report.js';

export const DEFAULT_DB = './ucp-location.db';
/** Issues printed in human output; --json carries every kept issue. */
const SHOWN_ISSUES = 50;

const EXIT_OK = 0;
const EXIT_REJECTED = 1;
const EXIT_USAGE = 2;

interface CommonOptions extends SourceFlags {
  json?: boolean;
  quiet?: boolean;
  format?: string;
}

interface StoreOptions extends CommonOptions {
  db: string;
  /** With `tenant`: the tenants directory whose tenant's store is written. */
  tenants?: string;
  tenant?: string;
  /** A postgres:// URL (or an SQLite file), instead of --db. */
  store?: string;
  dryRun?: boolean;
}

function print(text: string): void {
  process.stdout.write(`${text}\n`);
}

function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

function perSecond(count: number, ms: number): string {
  return ms > 0 ? `${Math.round((count * 1000) / ms).toLocaleString('en-US')} records/s` : 'n/a';
}

function printIssues(issues: readonly DataIssue[], total: number, verb: string): void {
  print(`${total} problem(s) found; ${verb}:`);
  for (const issue of issues.slice(0, SHOWN_ISSUES)) print(`  ${formatDataIssue(issue)}`);
  if (total > SHOWN_ISSUES) print(`  … and ${total - SHOWN_ISSUES} more (use --json for the full list)`);
}

/** Warnings never fail a command; shown after its summary, capped like issues. */
/** Data rejected by validation: the issues, exit status 1. */
function reportRejected(command: string, report: ValidationReport, options: CommonOptions, verb: string): number {
  const formatHints = report.formatHints ?? [];
  if (options.json === true) {
    const { files, records, issueCount, issues, warningCount, warnings } = report;
    printJson({
      ok: false,
      command,
      files,
      records,
      issueCount,
      issues,
      warningCount,
      warnings,
      ...(formatHints.length > 0 ? { formatHints } : {}),
    });
  } else {
    printIssues(report.issues, report.issueCount, verb);
    // Last, where the eye lands: a file read in the wrong format fails on nearly every field.
    for (const hint of formatHints) print(`Hint: ${hint.file}: ${hint.message}.`);
  }
  return EXIT_REJECTED;
}

function fileLines(files: readonly FileSummary[]): string[] {
  return files.map((f) => `  ${f.file}: ${f.records.toLocaleString('en-US')} record(s), ${f.format}`);
}

/**
 * Runs one verb body and turns its outcome into an exit status. Usage problems and rejected data
 * are expected outcomes and are reported without a stack trace.
 */
async function run(command: string, options: CommonOptions, body: () => Promise<number>): Promise<void> {
  try {
    process.exitCode = await body();
  } catch (error) {
    if (error instanceof ConfigError) {
      if (options.json === true) printJson({ ok: false, command, error: { type: 'usage', message: error.message } });
      process.stderr.write(`ucp-location ${command}: ${error.message}\n`);
      process.exitCode = EXIT_USAGE;
    } else if (error instanceof DataValidationError) {
      if (options.json === true) printJson({ ok: false, command, issueCount: error.issues.length, issues: error.issues });
      else printIssues(error.issues, error.issues.length, 'nothing was written, the previous data is unchanged');
      process.exitCode = EXIT_REJECTED;
    } else {
      const message = error instanceof Error ? error.message : String(error);
      if (options.json === true) printJson({ ok: false, command, error: { type: 'failure', message } });
      process.stderr.write(`ucp-location ${command}: ${message}\n`);
      process.exitCode = EXIT_REJECTED;
    }
  }
}

/** Where the data went, for reports; a URL's password is never printed. */
function target(options: StoreOptions): string {
  if (options.store === undefined) return options.db;
  try {
    const u = new URL(options.store);
    if (u.password !== '') u.password = '***';
    return u.toString();
  } catch {
    return options.store;
  }
}

async function withStore<T>(db: string, body: (store: LocationStore) => Promise<T>, readonly = false): Promise<T> {
  // A PostgreSQL store is loaded only when named, so SQLite users never load `pg`.
  const store = /^postgres(ql)?:\/\//i.test(db)
    ? await (await import('../../store/postgres/index.js')).PostgresLocationStore.open(db)
    : await SqliteLocationStore.open(db, { readonly });
  try {
    return await body(store);
  } finally {
    await store.close();
  }
}

/** Removes an SQLite store file and its WAL companions (a store this command created and must not leave). */
function removeSqliteFiles(db: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${db}${suffix}`, { force: true });
}

/** `--tenant <domain>` with `--tenants <dir>` or `--store <postgres-url>`: the tenant's own store, the one `serve` reads. */
function tenantOptions(cmd: Command): Command {
  return cmd
    .option('--tenants <dir>', 'the tenants directory (`ucp-location tenant add`); with --tenant, write that tenant’s store')
    .option('--tenant <domain>', 'the tenant (business) whose store is written: with --tenants <dir>, or with --store <postgres-url>');
}

/**
 * Points `options.db` (or `options.store`) at the tenant's store when `--tenant` is given.
 * Everything else about the command is unchanged: the tenant's store is a store like any other
 * (an SQLite file, or its own schema of the PostgreSQL store).
 */
async function useTenantStore(options: StoreOptions, cmd: Command): Promise<void> {
  if (options.tenant === undefined && options.tenants === undefined) return;
  const postgres = options.store !== undefined && /^postgres(ql)?:\/\//i.test(options.store);
  if (options.tenant !== undefined && options.tenants === undefined && postgres && options.store !== undefined) {
    if (cmd.getOptionValueSource('db') === 'cli') throw new ConfigError('--tenant writes that tenant’s own store; drop --db.');
    const { PostgresTenantCatalog } = await import('../../store/postgres/index.js');
    const catalog = PostgresTenantCatalog.at(options.store);
    const domain = normaliseDomain(options.tenant);
    const tenant = await catalog.get(domain);
    if (tenant === null) {
      throw new ConfigError(
        `No tenant ${domain} in ${catalog.display}; add it with: ucp-location tenant add ${domain} --store ${catalog.display}`,
      );
    }
    options.store = catalog.storeUrl(tenant);
    return;
  }
  if (options.tenant === undefined || options.tenants === undefined) {
    throw new ConfigError(
      '--tenant <domain> names the tenant, and --tenants <dir> (or --store <postgres-url>) where it is registered: give both.',
    );
  }
  if (options.store !== undefined || cmd.getOptionValueSource('db') === 'cli') {
    throw new ConfigError('--tenant writes that tenant’s own store; drop --db and --store.');
  }
  const tenant = await new TenantRegistry(options.tenants).get(options.tenant);
  options.db = tenant.storeFile;
}

/** Commander reports its own usage errors; they exit with 2, help and --version with 0. */
function usageExits(cmd: Command): Command {
  return cmd.exitOverride((err) => process.exit(err.exitCode === 0 ? EXIT_OK : EXIT_USAGE));
}

function formatOption(cmd: Command, formats: readonly string[]): Command {
  return cmd.option('--format <format>', `input format (${formats.join('|')}); default: from the file extension`);
}

export function registerDataCommands(program: Command): void {
  const importCmd = program
    .command('import')
    .description(
      'validate location files (NDJSON, GeoJSON, CSV; OpenStreetMap GeoJSON with --format osm, schema.org JSON-LD, Google Business Profile sheets) and replace the dataset atomically; nothing is written unless every record is valid (--dry-run: show the changes, write nothing)',
    )
    .argument('<files...>', 'input files (.ndjson/.jsonl, .geojson/.json, .csv, .jsonld; a directory with --format jsonld)')
    .option('--db <path>', 'SQLite database file', DEFAULT_DB)
    .option('--store <url>', 'write to a PostgreSQL store instead (postgres://…; run `ucp-location migrate` first)')
    .option('--dry-run', 'validate, then print what would change (added, removed, changed Locations) and write nothing')
    .option('--json', 'print one machine-readable JSON report')
    .option('--quiet', 'no progress and no summary on success');
  formatOption(importCmd, DATA_FORMATS);
  addSourceOptions(importCmd);
  tenantOptions(importCmd);
  usageExits(importCmd).action(async (files: string[], options: StoreOptions, cmd: Command) => {
    await run('import', options, async () => {
      await useTenantStore(options, cmd);
      const progress = createProgress('import', { quiet: options.quiet === true || options.json === true });
      const started = performance.now();
      const importOptions = {
        ...(options.format !== undefined ? { format: options.format } : {}),
        ...(await sourceImportOptions(options)),
        onProgress: (p: ImportProgress) => progress.update(p),
      };
      try {
        if (options.dryRun === true) {
          const checked = await validateFiles(files, importOptions);
          if (!checked.ok) {
            progress.finish();
            return reportRejected('import', checked, options, 'nothing was written, the previous data is unchanged');
          }
          const notes = { timezones: checked.timezones, warningCount: checked.warningCount, warnings: checked.warnings };
          const db = options.store ?? options.db;
          // A store that does not exist yet is an empty dataset; opening it would create it.
          const diff =
            options.store === undefined && !existsSync(db)
              ? await diffValidated({ storedLocations: async () => [] }, checked)
              : await withStore(db, (store) => diffValidated(store, checked), true);
          progress.finish();
          const ms = performance.now() - started;
          if (options.json === true)
            printJson({
              ok: true,
              command: 'import',
              dryRun: true,
              db: target(options),
              files: checked.files,
              records: checked.records,
              ...notes,
              diff,
              durationMs: Math.round(ms),
            });
          else if (options.quiet !== true) {
            printDiff(diff, target(options));
            printNotes(notes);
          }
          return EXIT_OK;
        }
        const db = options.store ?? options.db;
        // One pass validates while it writes, so the store is opened first; a file this import
        // created is removed again when it fails, so rejected data leaves no file behind.
        const created = options.store === undefined && db !== ':memory:' && !existsSync(db);
        const outcome = await withStore(db, async (store) => {
          const result = await importValidating(store, files, importOptions);
          return { ...result, indexFile: result.written === undefined ? null : await refreshIndexFileOf(store, db) };
        }).catch((error: unknown) => {
          if (created) removeSqliteFiles(db);
          throw error;
        });
        const { report: checked, written: report, indexFile } = outcome;
        if (report === undefined) {
          if (created) removeSqliteFiles(db);
          progress.finish();
          return reportRejected('import', checked, options, 'nothing was written, the previous data is unchanged');
        }
        const notes = { timezones: checked.timezones, warningCount: checked.warningCount, warnings: checked.warnings };
        progress.finish();
        const ms = performance.now() - started;
        if (options.json === true) {
          printJson({ ok: true, command: 'import', db: target(options), ...report, ...notes, indexFile, durationMs: Math.round(ms) });
        } else if (options.quiet !== true) {
          print(
            `Imported ${report.locations.toLocaleString('en-US')} location(s) (${report.publicLocations.toLocaleString('en-US')} public) into ${target(options)} in ${seconds(ms)} (${perSecond(report.records, ms)}); ${report.availability.toLocaleString('en-US')} item availability row(s); generation ${report.generation}`,
          );
          for (const line of fileLines(report.files)) print(line);
          const indexLine = indexFileLine(indexFile);
          if (indexLine !== null) print(indexLine);
          printNotes(notes);
        }
        return EXIT_OK;
      } finally {
        progress.finish();
      }
    });
  });

  const validateCmd = program
    .command('validate')
    .description(
      'check location files (NDJSON, GeoJSON, CSV; OpenStreetMap GeoJSON with --format osm, JSON-LD, Business Profile sheets) without writing anything',
    )
    .argument('<files...>', 'input files (.ndjson/.jsonl, .geojson/.json, .csv, .jsonld; a directory with --format jsonld)')
    .option('--json', 'print one machine-readable JSON report')
    .option('--quiet', 'no progress and no summary on success');
  formatOption(validateCmd, DATA_FORMATS);
  addSourceOptions(validateCmd);
  usageExits(validateCmd).action(async (files: string[], options: CommonOptions) => {
    await run('validate', options, async () => {
      const progress = createProgress('validate', { quiet: options.quiet === true || options.json === true });
      const started = performance.now();
      const report = await validateFiles(files, {
        ...(options.format !== undefined ? { format: options.format } : {}),
        ...(await sourceImportOptions(options)),
        onProgress: (p) => progress.update(p),
      }).finally(() => progress.finish());
      const ms = performance.now() - started;
      if (!report.ok) return reportRejected('validate', report, options, `${report.records.toLocaleString('en-US')} record(s) read`);
      if (options.json === true) printJson({ command: 'validate', ...report, durationMs: Math.round(ms) });
      else if (options.quiet !== true) {
        print(
          `OK: ${report.records.toLocaleString('en-US')} record(s) valid (${report.publicRecords.toLocaleString('en-US')} public) in ${seconds(ms)} (${perSecond(report.records, ms)})`,
        );
        for (const line of fileLines(report.files)) print(line);
        printNotes(report);
      }
      return EXIT_OK;
    });
  });

  const inventoryCmd = program
    .command('inventory')
    .description('apply an item-availability feed (CSV location_id,item_id,available or NDJSON) atomically')
    .argument('<file>', 'feed file (.csv or .ndjson/.jsonl)')
    .option('--db <path>', 'SQLite database file', DEFAULT_DB)
    .option('--store <url>', 'write to a PostgreSQL store instead (postgres://…; run `ucp-location migrate` first)')
    .option('--json', 'print one machine-readable JSON report')
    .option('--quiet', 'no summary on success');
  formatOption(inventoryCmd, ['csv', 'ndjson']);
  tenantOptions(inventoryCmd);
  usageExits(inventoryCmd).action(async (file: string, options: StoreOptions, cmd: Command) => {
    await run('inventory', options, async () => {
      await useTenantStore(options, cmd);
      const started = performance.now();
      const db = options.store ?? options.db;
      const { report, indexFile } = await withStore(db, async (store) => {
        const applied = await applyInventoryFile(store, file, options.format);
        return { report: applied, indexFile: await refreshIndexFileOf(store, db) };
      });
      const ms = performance.now() - started;
      if (options.json === true)
        printJson({ ok: true, command: 'inventory', db: target(options), ...report, indexFile, durationMs: Math.round(ms) });
      else if (options.quiet !== true) {
        print(
          `Applied ${report.applied.toLocaleString('en-US')} availability row(s) from ${file} (${report.rows.toLocaleString('en-US')} read) in ${seconds(ms)}; generation ${report.generation}`,
        );
        const indexLine = indexFileLine(indexFile);
        if (indexLine !== null) print(indexLine);
      }
      return EXIT_OK;
    });
  });
}
