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
import { validateFiles, writeValidated, type DerivedZoneCount, type ImportOptions, type ValidationReport } from '../data/import.js';
import { DATA_FORMATS, type DataFormat } from '../data/sources.js';
import type { LastImportRecord, LocationStore } from '../store/store.js';
import { importHints } from './import-hints.js';
import { groupIssues, type GroupedIssues } from './issue-groups.js';

/** Largest upload accepted, bytes; larger datasets go through `ucp-location import`. */
export const MAX_UPLOAD_BYTES = 64 << 20;
/** Raw issues sent back beside the groups (the groups count them all). */
const RAW_ISSUES_SENT = 200;

export interface PreviewReport {
  /** Pass this to commit; absent when the file was rejected. */
  previewId?: string;
  ok: boolean;
  file: string;
  format: DataFormat | null;
  /** Whether the format was chosen on the page or taken from the file name's extension. */
  formatFrom: 'choice' | 'extension';
  records: number;
  publicRecords: number;
  issueCount: number;
  /** The first issues, each with file:line:field as the CLI prints it. */
  issues: (DataIssue & { text: string })[];
  /** Every kept issue, each distinct problem once. */
  problems: GroupedIssues;
  warningCount: number;
  warnings: GroupedIssues;
  /** Zones derived from coordinates (osm, jsonld and gbp carry none), with how many records got each. */
  timezones: DerivedZoneCount[];
  /** What to do next, in words (the CLI's notes, and a better format when the file looks like another one). */
  hints: string[];
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

/** The format the operator chose, '' for "from the file name". */
export function parseFormatChoice(value: string): DataFormat | null {
  if (value === '' || value === 'auto') return null;
  const f = DATA_FORMATS.find((d) => d === value);
  if (f === undefined) throw new ConfigError(`Unknown format ${JSON.stringify(value)}; choose one of: ${DATA_FORMATS.join(', ')}.`);
  return f;
}

export class ImportPreviews {
  private pending: Pending | null = null;
  /** The last import made here, for a store that keeps no record of its own. */
  lastImport: LastImportRecord | null = null;

  constructor(
    private readonly store: LocationStore,
    private readonly now: () => number = Date.now,
  ) {}

  /** Validates `bytes` as the file `name`, in `format` or (null) the one its extension names, as on the command line. */
  async preview(name: string, bytes: Buffer, format: DataFormat | null = null): Promise<PreviewReport> {
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
      const report = await validateFiles([path], this.options(format, shown));
      // Issues name the file as the operator knows it, not the temporary path.
      const named = <T extends DataIssue>(i: T): T => ({ ...i, file: shown });
      const issues = report.issues.map(named);
      const warnings = report.warnings.map(named);
      const detected = report.files[0]?.format ?? null;
      const out: PreviewReport = {
        ok: report.ok,
        file: shown,
        format: detected,
        formatFrom: format === null ? 'extension' : 'choice',
        records: report.records,
        publicRecords: report.publicRecords,
        issueCount: report.issueCount,
        issues: issues.slice(0, RAW_ISSUES_SENT).map((i) => ({ ...i, text: formatDataIssue(i) })),
        problems: groupIssues(issues),
        warningCount: report.warningCount,
        warnings: groupIssues(warnings),
        timezones: report.timezones,
        hints: importHints(detected, format === null, bytes.subarray(0, 64 * 1024).toString('utf8'), report),
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
      if (error instanceof ConfigError && format === null && /format/i.test(error.message)) {
        throw new ConfigError(
          `Cannot tell the format of ${shown} from its name: choose the format above (${DATA_FORMATS.join(', ')}) and preview again.`,
          { cause: error },
        );
      }
      throw error;
    }
  }

  private options(format: DataFormat | null, shown: string): ImportOptions {
    // The console's clock also dates an OSM file's holidays, so a pinned clock pins the whole import.
    return { ...(format !== null ? { format } : {}), now: this.now(), displayName: () => shown };
  }

  /** Replaces the dataset with the previewed file, atomically; the previous data stays on any failure. */
  async commit(previewId: string): Promise<LastImportRecord> {
    const p = this.pending;
    if (p === null || p.id !== previewId) {
      throw new ConfigError('Nothing to commit under that preview id: preview the file again (only the latest preview can be committed).');
    }
    try {
      const format = p.report.files[0]?.format ?? null;
      const report = await writeValidated(this.store, p.report, this.options(format, p.name));
      this.lastImport = {
        at: new Date(this.now()).toISOString(),
        files: report.files.map((f) => ({ file: p.name, format: f.format, records: f.records })),
        warnings: report.warnings.map((w) => ({ ...w, file: p.name })),
        warningCount: report.warningCount,
        locations: report.locations,
        publicLocations: report.publicLocations,
        availability: report.availability,
        generation: report.generation,
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
