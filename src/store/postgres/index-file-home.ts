/**
 * The index-file home of a PostgreSQL store (the IndexFileHome of memory-index/index-file-home.ts,
 * which this adapter does not import: the two are siblings): in the store's own schema, one row per generation
 * (`index_files`) with its bytes in chunks (`index_file_chunks`, migration 4), so every instance
 * of the store reads the file its importer wrote instead of building the same index again.
 *
 *  - write: one transaction (under an advisory lock, so two writers queue) inserts the file,
 *    deletes older ones and sends `pg_notify(INDEX_FILE_CHANNEL, '<schema> <generation>')`,
 *    which PostgreSQL delivers at commit — a reader never sees half a file;
 *  - read: the newest file, chunk by chunk, inside one REPEATABLE READ transaction (a writer
 *    deleting it meanwhile does not cut it short);
 *  - a dedicated connection LISTENs for other instances' files (`nextPublication`).
 * Its connections have no statement timeout: a file of a million Locations is hundreds of MiB.
 */
import pg from 'pg';
import type { ClientConfig } from 'pg';
import { INDEX_FILE_CHANNEL, LOCK_NAMESPACE_INDEX_FILE } from './migrations.js';
import { NotificationHub } from './notification-hub.js';

/** An index file laid out (memory-index/index-file-format.ts): its bytes, in order. */
export interface IndexFileParts {
  parts: readonly Uint8Array[];
  length: number;
}

/** Bytes per chunk row: large enough to keep rows few, small enough for one statement each. */
const CHUNK_BYTES = 8 * 1024 * 1024;

/** What PostgresLocationStore.indexFileAccess() gives. */
export interface PostgresIndexFileAccess {
  schema: string;
  clientConfig: ClientConfig;
  /** Hear other instances' files through the process's shared notification connection. */
  sharedNotifications?: boolean;
}

export class PostgresIndexFileHome {
  readonly description: string;
  private listener: pg.Client | null = null;
  private hub: { release(): Promise<void>; unsubscribe(): void } | null = null;
  private published = 0;
  private waiters: { after: number; resolve: (seen: boolean) => void }[] = [];
  private closed = false;

  private constructor(private readonly access: PostgresIndexFileAccess) {
    this.description = `PostgreSQL schema ${access.schema} (index_files)`;
  }

  /** Opens the home and starts listening for other instances' files. */
  static async open(access: PostgresIndexFileAccess): Promise<PostgresIndexFileHome> {
    const home = new PostgresIndexFileHome(access);
    await home.listen();
    return home;
  }

  private config(): ClientConfig {
    return { ...this.access.clientConfig, statement_timeout: 0, query_timeout: undefined };
  }

  private notePublication(): void {
    this.published++;
    const ready = this.waiters.filter((w) => this.published > w.after);
    this.waiters = this.waiters.filter((w) => this.published <= w.after);
    for (const w of ready) w.resolve(true);
  }

  private async listen(): Promise<void> {
    if (this.access.sharedNotifications === true) {
      const hub = NotificationHub.acquire(this.config());
      const unsubscribe = hub.subscribe({
        channel: INDEX_FILE_CHANNEL,
        schema: this.access.schema,
        onNotify: () => this.notePublication(),
      });
      this.hub = { release: () => hub.release(), unsubscribe };
      await hub.ready();
      return;
    }
    const client = new pg.Client(this.config());
    // A lost listener only means waiting instances build for themselves: never fatal.
    client.on('error', () => undefined);
    client.on('notification', (msg) => {
      if (msg.channel !== INDEX_FILE_CHANNEL || msg.payload?.split(' ')[0] !== this.access.schema) return;
      this.notePublication();
    });
    await client.connect();
    await client.query(`LISTEN ${INDEX_FILE_CHANNEL}`);
    this.listener = client;
  }

  publicationCount(): number {
    return this.published;
  }

  nextPublication(after: number, timeoutMs: number): Promise<boolean> {
    if (this.published > after) return Promise.resolve(true);
    if (this.closed || (this.listener === null && this.hub === null) || timeoutMs <= 0) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const waiter = {
        after,
        resolve: (seen: boolean): void => {
          clearTimeout(timer);
          resolve(seen);
        },
      };
      // A bound, not a schedule: the importer's NOTIFY normally ends the wait.
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(false);
      }, timeoutMs);
      timer.unref();
      this.waiters.push(waiter);
    });
  }

  private async withClient<T>(body: (client: pg.Client) => Promise<T>): Promise<T> {
    const client = new pg.Client(this.config());
    client.on('error', () => undefined);
    await client.connect();
    try {
      return await body(client);
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  async read(): Promise<ArrayBuffer | null> {
    return this.withClient(async (client) => {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      try {
        const head = await client.query<{ generation: string; bytes: string; chunks: number }>(
          'SELECT generation::text, bytes::text, chunks FROM index_files ORDER BY generation DESC LIMIT 1',
        );
        const row = head.rows[0];
        if (row === undefined) return null;
        const size = Number(row.bytes);
        const buffer = new ArrayBuffer(size);
        const view = new Uint8Array(buffer);
        let at = 0;
        // One chunk per statement: the whole file never sits in a second copy.
        for (let chunk = 0; chunk < row.chunks; chunk++) {
          const part = await client.query<{ data: Buffer }>('SELECT data FROM index_file_chunks WHERE generation = $1 AND chunk = $2', [
            row.generation,
            chunk,
          ]);
          const data = part.rows[0]?.data;
          if (data === undefined) break;
          if (at + data.length > size) return buffer;
          view.set(data, at);
          at += data.length;
        }
        // A short file is refused by the length in its header.
        return at === size ? buffer : buffer.slice(0, at);
      } finally {
        await client.query('COMMIT').catch(() => undefined);
      }
    });
  }

  async write(bytes: IndexFileParts, generation: number): Promise<void> {
    await this.withClient(async (client) => {
      await client.query('BEGIN');
      try {
        await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOCK_NAMESPACE_INDEX_FILE, this.access.schema]);
        // Another instance already published a newer generation: this file would only go backwards.
        const newer = await client.query('SELECT 1 FROM index_files WHERE generation > $1 LIMIT 1', [generation]);
        if ((newer.rowCount ?? 0) > 0) {
          await client.query('ROLLBACK');
          return;
        }
        await client.query('DELETE FROM index_files WHERE generation = $1', [generation]);
        await client.query('INSERT INTO index_files (generation, bytes, chunks) VALUES ($1, $2, $3)', [
          generation,
          bytes.length,
          Math.ceil(bytes.length / CHUNK_BYTES),
        ]);
        let chunk = 0;
        for (const data of chunksOf(bytes)) {
          await client.query('INSERT INTO index_file_chunks (generation, chunk, data) VALUES ($1, $2, $3)', [generation, chunk++, data]);
        }
        await client.query('DELETE FROM index_files WHERE generation < $1', [generation]);
        await client.query('SELECT pg_notify($1, $2)', [INDEX_FILE_CHANNEL, `${this.access.schema} ${generation}`]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const waiting = this.waiters;
    this.waiters = [];
    for (const w of waiting) w.resolve(false);
    const listener = this.listener;
    this.listener = null;
    await listener?.end().catch(() => undefined);
    const hub = this.hub;
    this.hub = null;
    hub?.unsubscribe();
    await hub?.release();
  }
}

/** The file's bytes in CHUNK_BYTES pieces (the last shorter), copied from its parts one piece at a time. */
function* chunksOf(bytes: IndexFileParts): Generator<Buffer> {
  let chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, bytes.length));
  let filled = 0;
  let left = bytes.length;
  for (const part of bytes.parts) {
    let at = 0;
    while (at < part.byteLength) {
      const n = Math.min(part.byteLength - at, chunk.length - filled);
      chunk.set(part.subarray(at, at + n), filled);
      filled += n;
      at += n;
      if (filled === chunk.length) {
        yield chunk;
        left -= filled;
        chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, left));
        filled = 0;
      }
    }
  }
  if (filled > 0) yield chunk.subarray(0, filled);
}
