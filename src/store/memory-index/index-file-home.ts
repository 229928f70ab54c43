/**
 * Where the index files of a store are kept, and the one kept beside an SQLite store file.
 *
 * A home holds the newest file of the store (older ones are replaced). Writing is all-or-nothing:
 * the disk home writes a temporary file, flushes it to the disk, then renames it over the
 * previous one, so a process killed at any moment leaves the previous file whole (and a reader
 * sees the old file or the new one, never a mix). The PostgreSQL home is index-file-postgres.ts.
 */
import { closeSync, fsyncSync, openSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { IndexFileBytes } from './index-file-format.js';

/** Told how far a write has come; the writer waits for it before going on. */
export type WriteProgress = (written: number, total: number) => void | Promise<void>;

export interface IndexFileHome {
  /** Where, for log lines ("/srv/shop.db.index", "PostgreSQL schema shop"). */
  readonly description: string;
  /** The newest file whole, in a buffer of its own (8-byte aligned), or null when there is none. */
  read(): Promise<ArrayBuffer | null>;
  /**
   * Replace the newest file, all or nothing. `generation`: the store generation the file answers.
   * `onProgress` is awaited after each part written (bytes so far, of `bytes.length`).
   */
  write(bytes: IndexFileBytes, generation: number, onProgress?: WriteProgress): Promise<void>;
  /** Files other processes have published since this home was opened (PostgreSQL: NOTIFYs seen). */
  publicationCount?(): number;
  /**
   * Resolves true once more than `after` publications have been seen, false after `timeoutMs`.
   * Absent: nobody else publishes while this process runs (the disk home: imports are separate
   * runs of the CLI, and a server reads the file at start).
   */
  nextPublication?(after: number, timeoutMs: number): Promise<boolean>;
  close?(): Promise<void>;
}

/** The index file of an SQLite store file: beside it, same name plus `.index`. */
export function indexFilePathFor(storeFile: string): string {
  return `${storeFile}.index`;
}

export class DiskIndexFileHome implements IndexFileHome {
  readonly description: string;
  constructor(readonly path: string) {
    this.description = path;
  }

  async read(): Promise<ArrayBuffer | null> {
    let handle;
    try {
      handle = await open(this.path, 'r');
    } catch (error) {
      if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return null;
      throw error;
    }
    try {
      const { size } = await handle.stat();
      const buffer = new ArrayBuffer(size);
      const view = new Uint8Array(buffer);
      let at = 0;
      while (at < size) {
        const { bytesRead } = await handle.read(view, at, size - at, at);
        if (bytesRead === 0) break;
        at += bytesRead;
      }
      // A file that shrank while being read is caught by the length in its header.
      return at === size ? buffer : buffer.slice(0, at);
    } finally {
      await handle.close();
    }
  }

  /**
   * Temporary name, every byte flushed to the disk, then one rename over the live file: killed at
   * any point before the rename, the previous file is untouched (the leftover temporary file is
   * removed by the next write).
   */
  async write(bytes: IndexFileBytes, _generation?: number, onProgress?: WriteProgress): Promise<void> {
    this.removeLeftovers();
    const temp = `${this.path}.tmp-${process.pid}-${Date.now().toString(36)}`;
    const handle = await open(temp, 'wx', 0o644);
    try {
      let written = 0;
      for (const part of bytes.parts) {
        let at = 0;
        while (at < part.byteLength) at += (await handle.write(part, at, part.byteLength - at)).bytesWritten;
        written += part.byteLength;
        await onProgress?.(written, bytes.length);
      }
      await handle.sync();
    } catch (error) {
      await handle.close();
      rmSync(temp, { force: true });
      throw error;
    }
    await handle.close();
    renameSync(temp, this.path);
    // The rename itself is durable only once the directory is flushed.
    const dir = openSync(dirname(this.path), 'r');
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
  }

  /** Temporary files of writers killed half-way (never the live file, nor a running writer's). */
  private removeLeftovers(): void {
    const prefix = `${basename(this.path)}.tmp-`;
    for (const name of readdirSync(dirname(this.path))) {
      if (!name.startsWith(prefix)) continue;
      const pid = Number(name.slice(prefix.length).split('-')[0]);
      if (Number.isInteger(pid) && pid !== process.pid && isRunning(pid)) continue;
      rmSync(join(dirname(this.path), name), { force: true });
    }
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}
