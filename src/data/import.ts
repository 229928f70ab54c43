/**
 * The import pipeline: read → validate → write, in one pass over the files.
 *
 * `importFiles` streams each file once: every record is validated as it is read and handed to
 * `store.replaceAll` while the store writes the previous ones, in one transaction. The dataset
 * rules that need every record (an alias naming another Location's id) are checked when the
 * stream ends, before anything commits. On the first problem the stream stops feeding the store
 * but validation reads on, so the report still lists every problem; the stream then throws, the
 * store rolls back, and the previous dataset answers as if nothing had happened.
 *
 * `validateFiles` (the `validate` command, `import --dry-run`, the console's preview) reads
 * without writing; `writeValidated` writes what it validated, reading the files a second time.
 *
 * Speed (a million records): records are handled a chunk at a time (pipeline.ts), repeated
 * schedule parts are validated once (validate-record.ts ScheduleMemo), and when a core is idle
 * large inputs use worker threads (workers.ts): validation of an NDJSON file runs on byte ranges
 * in parallel, and an import parses and validates on a worker while this thread writes. Every
 * path yields the same records and the same issues in the same order.
 */
import { stat } from 'node:fs/promises';
import type { DataIssue } from '../errors.js';
import { ConfigError, DataValidationError } from '../errors.js';
import type { LocationRecord } from '../domain/location.js';
import {
  MAX_KEPT_IMPORT_WARNINGS,
  type ImportNotes,
  type ImportProgress,
  type ImportResult,
  type LocationStore,
} from '../store/store.js';
import { diffDataset, type DatasetDiff } from './dataset-diff.js';
import { formatHint, type FormatHint } from './format-hint.js';
import { IssueCollector } from './issues.js';
import { defaultOsmAmenities, type AmenityMap } from './osm-amenities.js';
import { DEFAULT_HOLIDAY_HORIZON_DAYS } from './osm.js';
import {
  checkedBatches,
  PassOne,
  passReport,
  startFile,
  validatingBatches,
  type DerivedZoneCount,
  type FileSummary,
  type PassOptions,
  type PassReport,
  type Plan,
} from './pipeline.js';
import { assertReadableFile, decodesOnWorker, detectFormat, FORMATS_DERIVING_TIMEZONE, inputFiles, openSource, type SourceOptions } from './sources.js';
import { defaultWorkers, parallelNdjsonOutcomes, recordsFromWorker } from './workers.js';

export type { FileSummary, DerivedZoneCount } from './pipeline.js';
export type { DatasetDiff } from './dataset-diff.js';

export interface ImportOptions {
  /** Forces the format of every file; otherwise it comes from each file's extension. */
  format?: string;
  onProgress?: (p: ImportProgress) => void;
  /**
   * Threads that parse and validate, the calling one included (default: the machine's
   * parallelism, at most 4, when a core is idle at the start of a pass, else 1; see workers.ts
   * defaultWorkers); 1 or less starts no worker thread. Results are the same either way.
   */
  workers?: number;
  /** Inputs smaller than this (bytes) are handled on the calling thread. Default 4 MiB. */
  parallelMinBytes?: number;
  /**
   * Fill in a missing `timezone` from `geo`. Default: on for the formats whose sources never carry
   * a zone (osm, jsonld, gbp), off for ours (ndjson, geojson, csv), where a typed zone is the rule.
   */
  deriveTimezone?: boolean;
  /** Warnings (source data a record cannot hold) fail the import like problems. Default false. */
  strict?: boolean;
  /** osm: the tag whose value is the Location id (default: the OSM element id). */
  idTag?: string;
  /** osm: tag → amenity table (default: defaultOsmAmenities(amenityNamespace); see osm-amenities.ts loadAmenityMap). */
  amenityMap?: AmenityMap;
  /**
   * osm, jsonld: the reverse-domain namespace of features UCP does not define (`com.example` →
   * `com.example.amenity.restroom`). Default: the source vocabulary's (org.openstreetmap,
   * org.schema), with one warning naming --amenity-namespace.
   */
  amenityNamespace?: string;
  /** osm: days of public holidays and dated rules written as exception_hours. Default 365. */
  holidayHorizonDays?: number;
  /** Epoch ms taken as the time of the import (the holiday horizon starts on its date). Default: now. */
  now?: number;
  /** How the store's import notes name each input file (the console names an upload as the operator did). Default: its path. */
  displayName?: (file: string) => string;
}

export interface ValidationReport {
  ok: boolean;
  files: FileSummary[];
  /** Records read across all files. */
  records: number;
  /** Valid records with visibility `public` (or none). */
  publicRecords: number;
  /** Issues kept (capped, see MAX_KEPT_ISSUES) in discovery order. */
  issues: DataIssue[];
  /** All issues found, including any beyond the cap. */
  issueCount: number;
  /** Source data that records could not hold (capped like issues); they never fail an import unless strict. */
  warnings: DataIssue[];
  warningCount: number;
  /** Zones derived from coordinates, with how many records got each. */
  timezones: DerivedZoneCount[];
  /**
   * Rejected files read with the format their extension picked that look like another one
   * (format-hint.ts): which --format to add. Only when the report is not ok and no format was given.
   */
  formatHints?: FileFormatHint[];
}

export interface FileFormatHint extends FormatHint {
  file: string;
}

export interface ImportReport extends ImportResult {
  files: FileSummary[];
  records: number;
  warnings: DataIssue[];
  warningCount: number;
}

/** Hints for the files with problems that look like another format than the one their extension picked. */
async function formatHints(plans: readonly Plan[], issues: readonly { file: string }[]): Promise<FileFormatHint[]> {
  const rejected = new Set(issues.map((i) => i.file));
  const out: FileFormatHint[] = [];
  for (const { file, format } of plans) {
    if (!rejected.has(file)) continue;
    const hint = await formatHint(file, format);
    if (hint !== undefined) out.push({ file, ...hint });
  }
  return out;
}

/** The plans a report was validated with, for the pass that writes (or diffs) the same records. */
const plansOf = new WeakMap<ValidationReport, Plan[]>();

const PROGRESS_EVERY = 500;
/** Below this, starting worker threads (~0.1 s each) costs more than it saves. */
const PARALLEL_MIN_BYTES = 4 << 20;

/** Threads to use for inputs of `bytes` (this one included), or 0 for no worker threads. */
async function workersFor(bytes: number, options: ImportOptions): Promise<number> {
  if (bytes < (options.parallelMinBytes ?? PARALLEL_MIN_BYTES)) return 0;
  const workers = options.workers ?? (await defaultWorkers());
  return workers > 1 ? workers : 0;
}

/** Resolves formats and checks that every file exists before any reading starts. */
async function plan(files: readonly string[], options: ImportOptions): Promise<Plan[]> {
  if (files.length === 0) throw new ConfigError('no input file given');
  const horizon = options.holidayHorizonDays ?? DEFAULT_HOLIDAY_HORIZON_DAYS;
  if (!Number.isInteger(horizon) || horizon < 0 || horizon > 3660) throw new ConfigError(`--holiday-horizon must be a whole number of days from 0 to 3660, got ${horizon}`);
  // One instant for both passes, so they compute the same records.
  const source: SourceOptions = {
    osm: {
      now: options.now ?? Date.now(),
      holidayHorizonDays: horizon,
      ...(options.idTag !== undefined ? { idTag: options.idTag } : {}),
      amenityMap: options.amenityMap ?? defaultOsmAmenities(options.amenityNamespace),
    },
    ...(options.amenityNamespace !== undefined ? { amenityNamespace: options.amenityNamespace } : {}),
  };
  const plans: Plan[] = [];
  for (const path of files) {
    const f = detectFormat(path, options.format);
    const deriveTimezone = options.deriveTimezone ?? FORMATS_DERIVING_TIMEZONE.has(f);
    for (const file of await inputFiles(path, f)) {
      await assertReadableFile(file);
      plans.push({ file, format: f, deriveTimezone, source });
    }
  }
  return plans;
}

/** Valid records of `plans`; ends by throwing DataValidationError if any problem was found. */
async function* checkedRecords(plans: readonly Plan[]): AsyncGenerator<LocationRecord> {
  for await (const batch of checkedBatches(plans)) yield* batch;
}

/**
 * Streams the valid records of the files (after the same checks as an import). The stream ends
 * by throwing DataValidationError when any problem was found, so a consumer must not act on
 * what it received until the stream has finished.
 */
export async function* readRecords(files: readonly string[], options: ImportOptions = {}): AsyncGenerator<LocationRecord> {
  yield* checkedRecords(await plan(files, options));
}

/** The pass settings `options` ask for. */
function passOptions(options: ImportOptions): PassOptions {
  return { strict: options.strict === true, defaultNamespaces: options.amenityNamespace === undefined };
}

/** A pass's report as validateFiles returns it (with format hints for rejected files), remembered with its plans. */
async function validationReport(found: PassReport, plans: Plan[], options: ImportOptions): Promise<ValidationReport> {
  const report: ValidationReport = {
    ok: found.issueCount === 0,
    files: found.files,
    records: found.files.reduce((n, s) => n + s.records, 0),
    publicRecords: found.publicRecords,
    issues: found.issues,
    issueCount: found.issueCount,
    warnings: found.warnings,
    warningCount: found.warningCount,
    timezones: found.timezones,
  };
  if (!report.ok && options.format === undefined) {
    const hints = await formatHints(plans, report.issues);
    if (hints.length > 0) report.formatHints = hints;
  }
  plansOf.set(report, plans);
  return report;
}

/** Validates the files without writing anything. Data problems are returned, not thrown. */
export async function validateFiles(files: readonly string[], options: ImportOptions = {}): Promise<ValidationReport> {
  const plans = await plan(files, options);
  const issues = new IssueCollector();
  const warnings = new IssueCollector();
  const summaries: FileSummary[] = [];
  let read = 0;
  const progress = options.onProgress;
  const tick = (): void => {
    read += 1;
    if (progress !== undefined && read % PROGRESS_EVERY === 0) progress({ phase: 'reading', done: read });
  };
  const settings = passOptions(options);
  const pass = new PassOne(issues, tick, { warnings, strict: settings.strict === true });
  for (const p of plans) {
    const { file, format, deriveTimezone, source: sourceOptions } = p;
    const summary: FileSummary = { file, format, records: 0 };
    summaries.push(summary);
    const size = (await stat(file)).size;
    startFile(pass, p, settings);
    // Range workers validate without the pass's derivation step: such files are read here.
    const workers = format === 'ndjson' && deriveTimezone !== true ? await workersFor(size, options) : 0;
    if (workers > 0) {
      // NDJSON names fields as they are; the workers did the parsing and record checks.
      pass.setFieldNames(file, (f) => f);
      for await (const { lineOffset, list } of parallelNdjsonOutcomes(file, size, workers)) {
        for (const o of list) pass.outcome(o, lineOffset, summary);
      }
    } else {
      const source = openSource(file, format, sourceOptions);
      pass.setFieldNames(file, source.fieldName);
      for await (const batch of source.batches) for (const entry of batch) pass.entry(entry, summary);
    }
  }
  pass.finish();
  progress?.({ phase: 'reading', done: read, total: read });
  return validationReport(passReport(pass, summaries, issues, warnings), plans, options);
}

/** The plans `checked` was validated with (or plain ones from its file list). */
function replanned(checked: ValidationReport): Plan[] {
  return plansOf.get(checked) ?? checked.files.map(({ file, format }) => ({ file, format }));
}

/**
 * What importing the validated files would change in `store`'s dataset (import --dry-run):
 * reads the records again (as the writing pass would) and compares them with the store's
 * Locations. Nothing is written.
 */
export async function diffValidated(store: Pick<LocationStore, 'storedLocations'>, checked: ValidationReport): Promise<DatasetDiff> {
  if (!checked.ok) throw new DataValidationError(checked.issues);
  return diffDataset(await store.storedLocations(), checkedBatches(replanned(checked)));
}

/** Whether the inputs are parsed and validated on a worker while this thread writes. */
async function writesBesideWorker(plans: readonly Plan[], options: ImportOptions): Promise<boolean> {
  let bytes = 0;
  for (const p of plans) bytes += (await stat(p.file)).size;
  return plans.every((p) => decodesOnWorker(p.format, p.source)) && (await workersFor(bytes, options)) > 0;
}

/** The store's notes of an import of `files` with `warnings`. */
function importNotes(files: readonly FileSummary[], warnings: readonly DataIssue[], warningCount: number, options: ImportOptions): ImportNotes {
  const shown = options.displayName ?? ((file: string): string => file);
  // Kept by the store with the dataset, so whoever reads the store later sees what this import warned about.
  return {
    at: new Date(options.now ?? Date.now()).toISOString(),
    files: files.map((f) => ({ file: shown(f.file), format: f.format, records: f.records })),
    warnings: warnings.slice(0, MAX_KEPT_IMPORT_WARNINGS).map((w) => ({ ...w, file: shown(w.file) })),
    warningCount,
  };
}

/** An import's outcome: its validation report, and what was written when the report is ok. */
export interface ImportOutcome {
  report: ValidationReport;
  /** Absent when the report is not ok: then nothing was written and the previous dataset is intact. */
  written?: ImportReport;
}

/**
 * Imports the files in one pass (see the top of this file): validates each record as it is read
 * while the store writes, and replaces the store's dataset atomically when every record and the
 * dataset as a whole are valid. Data problems are returned in the report, not thrown; the store
 * is then exactly as before. ConfigError for unreadable files or unknown formats.
 */
export async function importValidating(store: LocationStore, files: readonly string[], options: ImportOptions = {}): Promise<ImportOutcome> {
  const plans = await plan(files, options);
  const settings = passOptions(options);
  const end: { report?: PassReport } = {};
  const onEnd = (r: PassReport): void => {
    end.report = r;
  };
  const batches = (await writesBesideWorker(plans, options))
    ? recordsFromWorker(plans, settings, onEnd)
    : validatingBatches(plans, settings, () => undefined, onEnd);

  // Thrown from inside the record stream, so the store rolls back; caught below.
  const rejected = new DataValidationError([]);
  async function* records(): AsyncGenerator<LocationRecord> {
    for await (const batch of batches) yield* batch;
    if (end.report === undefined || end.report.issueCount > 0) throw rejected;
  }
  const notes = (): ImportNotes => {
    const r = end.report;
    return r === undefined ? importNotes([], [], 0, options) : importNotes(r.files, r.warnings, r.warningCount, options);
  };
  let result: ImportResult;
  try {
    result = await store.replaceAll(records(), options.onProgress, notes);
  } catch (error) {
    if (error === rejected && end.report !== undefined) return { report: await validationReport(end.report, plans, options) };
    throw error;
  }
  const found = end.report;
  if (found === undefined) throw new Error('the import ended without a validation report');
  const report = await validationReport(found, plans, options);
  return {
    report,
    written: { ...result, files: report.files, records: report.records, warnings: report.warnings, warningCount: report.warningCount },
  };
}

/**
 * Validates the files while replacing the store's dataset with their records in one atomic
 * step. Throws DataValidationError (nothing written, previous dataset intact) when any problem
 * is found; ConfigError for unreadable files or unknown formats.
 */
export async function importFiles(store: LocationStore, files: readonly string[], options: ImportOptions = {}): Promise<ImportReport> {
  const { report, written } = await importValidating(store, files, options);
  if (written === undefined) throw new DataValidationError(report.issues);
  return written;
}

/**
 * Writes the files of a validation that succeeded (the console's preview, then commit): streams
 * them again into `store.replaceAll`. Should a file have changed since, the stream throws, the
 * store rolls back and the previous dataset stays as it was.
 */
export async function writeValidated(store: LocationStore, checked: ValidationReport, options: ImportOptions = {}): Promise<ImportReport> {
  if (!checked.ok) throw new DataValidationError(checked.issues);
  const plans = replanned(checked);
  const expected = checked.records;
  const end: { report?: PassReport } = {};
  // Large inputs are parsed and validated on a worker while this thread writes.
  const batches = (await writesBesideWorker(plans, options)) ? recordsFromWorker(plans, {}, (r) => (end.report = r)) : checkedBatches(plans);

  // Throwing from inside this stream (the files changed after validation) makes the store roll back.
  async function* secondPass(): AsyncGenerator<LocationRecord> {
    let count = 0;
    for await (const batch of batches) {
      for (const record of batch) {
        count += 1;
        yield record;
      }
    }
    if (end.report !== undefined && end.report.issueCount > 0) throw new DataValidationError(end.report.issues);
    if (count !== expected) {
      const message = `the input changed while importing (${expected} records validated, ${count} read); nothing was written, run the import again`;
      throw new DataValidationError([{ file: plans[0]?.file ?? '', line: 0, field: '', message }]);
    }
  }

  // The record count is known from validation, so the writing phase can show a percentage.
  const progress = options.onProgress;
  const onProgress = progress === undefined ? undefined : (p: ImportProgress): void => progress(p.phase === 'writing' && p.total === undefined ? { ...p, total: expected } : p);
  const notes = importNotes(checked.files, checked.warnings, checked.warningCount, options);
  const result = await store.replaceAll(secondPass(), onProgress, notes);
  return { ...result, files: checked.files, records: checked.records, warnings: checked.warnings, warningCount: checked.warningCount };
}
