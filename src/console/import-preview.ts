/**
 * Import from the console: an uploaded file is validated (the CLI's `validateFiles`) before
 * anything is written, and committed with the CLI's own atomic path (`writeValidated`), so an
 * import from the page and `ucp-location import` cannot differ.
 *
 * The upload waits in a private temporary directory between preview and commit (pass 2 of an
 * import reads the file again); it is removed on commit, on discard, when replaced, and on close.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import { ConfigError, formatDataIssue, type DataIssue } from '../errors.js';
import { validateFiles, writeValidated, type ValidationReport } from '../data/import.js';
import { DATA_FORMATS } from '../data/sources.js';
import type { LocationStore } from '../store/store.js';
import type { LastImport } from './overview.js';

/** Largest upload accepted, bytes; larger datasets go through `ucp-location import`. */
export const MAX_UPLOAD_BYTES = 64 << 20;

export interface PreviewReport {
  /** Pass this to commit; absent when the file was rejected. */
  previewId?: string;
  ok: boolean;
  file: string;
  format: string | null;
  records: number;
  publicRecords: number;
  issueCount: number;
  /** Each with file:line:field as the CLI prints it. */
  issues: (DataIssue & { text: string })[];
}

interface Pending {
  id: string;
  dir: string;
  name: string;
  report: ValidationReport;
}

/** A file name safe to write (no path, tame characters), keeping the extension that names the format. */
function safeName(name: string): string {
  const base = basename(name)
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .slice(-100);
  return base === '' || base.startsWith('.') ? `upload${extname(base)}` : base;
}

export class ImportPreviews {
  private pending: Pending | null = null;
  lastImport: LastImport | null = null;

  constructor(private readonly store: LocationStore) {}

  /** Validates `bytes` as the file `name` (its extension picks the format, as on the command line). */
  async preview(name: string, bytes: Buffer): Promise<PreviewReport> {
    if (bytes.length > MAX_UPLOAD_BYTES) {
      throw new ConfigError(
        `The file is larger than ${MAX_UPLOAD_BYTES >> 20} MiB; import it with \`ucp-location import <file> --db …\` instead.`,
      );
    }
    this.discard();
    const shown = safeName(name);
    const dir = mkdtempSync(join(tmpdir(), 'ucp-console-import-'));
    const path = join(dir, shown);
    try {
      writeFileSync(path, bytes);
      const report = await validateFiles([path]);
      // Issues name the file as the operator knows it, not the temporary path.
      const issues = report.issues.map((i) => {
        const issue = { ...i, file: shown };
        return { ...issue, text: formatDataIssue(issue) };
      });
      const out: PreviewReport = {
        ok: report.ok,
        file: shown,
        format: report.files[0]?.format ?? null,
        records: report.records,
        publicRecords: report.publicRecords,
        issueCount: report.issueCount,
        issues,
      };
      if (report.ok) {
        const id = randomUUID();
        this.pending = { id, dir, name: shown, report };
        out.previewId = id;
      } else {
        rmSync(dir, { recursive: true, force: true });
      }
      return out;
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      if (error instanceof ConfigError && /format/i.test(error.message)) {
        throw new ConfigError(`${error.message} (the console picks the format from the file name: ${DATA_FORMATS.join(', ')})`, {
          cause: error,
        });
      }
      throw error;
    }
  }

  /** Replaces the dataset with the previewed file, atomically; the previous data stays on any failure. */
  async commit(previewId: string): Promise<LastImport> {
    const p = this.pending;
    if (p === null || p.id !== previewId) {
      throw new ConfigError('Nothing to commit under that preview id: preview the file again (only the latest preview can be committed).');
    }
    try {
      const report = await writeValidated(this.store, p.report);
      this.lastImport = {
        at: new Date().toISOString(),
        source: 'console',
        locations: report.locations,
        publicLocations: report.publicLocations,
        availability: report.availability,
        generation: report.generation,
        files: report.files.map((f) => ({ file: p.name, format: f.format, records: f.records })),
      };
      return this.lastImport;
    } finally {
      this.discard();
    }
  }

  discard(): void {
    if (this.pending !== null) rmSync(this.pending.dir, { recursive: true, force: true });
    this.pending = null;
  }
}
