/**
 * Opening the SQLite store's two connections: a *writer* (WAL, migrated on open) and a *reader*
 * for every query. With WAL the reader keeps seeing the last committed dataset while a long
 * import runs on the writer (even across the awaits of an async record source), which is what
 * makes `replaceAll` atomic for readers in this process as well as in others.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { causeMessage, StoreError } from '../../errors.js';
import { READER_MMAP_BYTES } from './read-connection.js';
import { migrate, SCHEMA_VERSION, schemaVersion } from './schema.js';

export interface SqliteConnections {
  reader: Database.Database;
  /** Null when opened read-only. */
  writer: Database.Database | null;
  /** Directory to delete on close (the backing file of a ':memory:' store). */
  scratchDir: string | null;
}

export interface ConnectionOptions {
  busyTimeoutMs?: number;
  readonly?: boolean;
  cacheSizeMiB?: number;
}

/** A read-only open must find the schema this release reads, neither older nor newer. */
function checkReadonlySchema(reader: Database.Database, file: string): void {
  const v = schemaVersion(reader);
  if (v > SCHEMA_VERSION) {
    throw new StoreError(
      'schema_too_new',
      `The SQLite store ${file} has schema version ${v}, newer than this release supports (${SCHEMA_VERSION}); upgrade ucp-location.`,
    );
  }
  if (v < SCHEMA_VERSION) {
    throw new StoreError(
      'schema_outdated',
      `The SQLite store ${file} has schema version ${v}, but this release needs ${SCHEMA_VERSION}; open it once without readonly to migrate it.`,
    );
  }
}

/**
 * Open (creating and migrating when needed) the store at `path`. `':memory:'` gives a private,
 * throw-away store in a temporary file, because the reader/writer split needs two connections to
 * one database, which SQLite's in-memory databases cannot share.
 */
export function openConnections(path: string, options: ConnectionOptions): SqliteConnections {
  const busy = options.busyTimeoutMs ?? 5000;
  const cacheKiB = (options.cacheSizeMiB ?? 64) * 1024;
  let file = path;
  let scratchDir: string | null = null;
  if (path === ':memory:') {
    if (options.readonly === true)
      throw new StoreError('open_failed', "A ':memory:' store cannot be read-only: it starts empty and nothing could fill it.");
    scratchDir = mkdtempSync(join(tmpdir(), 'ucp-location-'));
    file = join(scratchDir, 'store.db');
  }
  let writer: Database.Database | null = null;
  let reader: Database.Database | null = null;
  try {
    if (options.readonly !== true) {
      writer = new Database(file);
      writer.pragma(`busy_timeout = ${busy}`);
      writer.pragma('journal_mode = WAL');
      writer.pragma('synchronous = NORMAL');
      writer.pragma('temp_store = MEMORY');
      writer.pragma(`cache_size = -${cacheKiB}`);
      migrate(writer);
    }
    reader = new Database(file, { readonly: options.readonly === true, fileMustExist: true });
    reader.pragma(`busy_timeout = ${busy}`);
    reader.pragma('temp_store = MEMORY');
    reader.pragma(`cache_size = -${cacheKiB}`);
    reader.pragma(`mmap_size = ${READER_MMAP_BYTES}`);
    if (options.readonly === true) checkReadonlySchema(reader, file);
    return { reader, writer, scratchDir };
  } catch (cause) {
    reader?.close();
    writer?.close();
    if (scratchDir !== null) rmSync(scratchDir, { recursive: true, force: true });
    if (cause instanceof StoreError) throw cause;
    throw new StoreError('open_failed', `Could not open the SQLite store at ${path}: ${causeMessage(cause)}`, { cause });
  }
}

/** Remove the scratch directory of a ':memory:' store. */
export function removeScratch(scratchDir: string | null): void {
  if (scratchDir !== null) rmSync(scratchDir, { recursive: true, force: true });
}
