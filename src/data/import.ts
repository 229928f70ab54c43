/**
 * The import pipeline: read → validate everything → write only a fully valid dataset.
 *
 * Two passes over the files. Pass 1 decodes and validates every record and the dataset-wide
 * rules, keeping only ids and aliases in memory; if anything is wrong the store is never touched.
 * Pass 2 reads the files again and streams the records into `store.replaceAll`, which swaps the
 * dataset in one transaction. Should a file change between the passes, pass 2 throws from inside
 * the record stream, the store rolls back, and the previous dataset stays as it was.
 */
import type { DataIssue } from '../errors.js';
import { ConfigError, DataValidationError } from '../errors.js';
import type { LocationRecord } from '../domain/location.js';
import type { ImportProgress, ImportResult, LocationStore } from '../store/store.js';
import { DatasetChecker, identityOf } from './dataset-checks.js';
import { atPosition, IssueCollector } from './issues.js';
import { assertReadableFile, detectFormat, openSource, type DataFormat } from './sources.js';
import { validateRecord } from './validate-record.js';

export interface ImportOptions {
  /** Forces the format of every file; otherwise it comes from each file's extension. */
  format?: string;
  onProgress?: (p: ImportProgress) => void;
}

export interface FileSummary {
  file: string;
  format: DataFormat;
  /** Records read (valid or not). */
  records: number;
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
}

export interface ImportReport extends ImportResult {
  files: FileSummary[];
  records: number;
}

const PROGRESS_EVERY = 500;

interface Plan {
  file: string;
  format: DataFormat;
}

/** Resolves formats and checks that every file exists before any reading starts. */
async function plan(files: readonly string[], format: string | undefined): Promise<Plan[]> {
  if (files.length === 0) throw new ConfigError('no input file given');
  const plans: Plan[] = [];
  for (const file of files) {
    const f = detectFormat(file, format);
    await assertReadableFile(file);
    plans.push({ file, format: f });
  }
  return plans;
}

/**
 * Reads every file once and yields the valid records of each chunk read (possibly none),
 * reporting every problem (record and dataset level) to `issues`. Invalid records are not
 * yielded. Work is per chunk: one await per chunk of the file rather than per record.
 */
async function* validBatches(
  plans: readonly Plan[],
  issues: IssueCollector,
  summaries: FileSummary[],
  onRecord: () => void,
): AsyncGenerator<LocationRecord[]> {
  const dataset = new DatasetChecker();
  const fieldNames = new Map<string, (f: string) => string>();
  // Issues name fields as the author of their file's format knows them (CSV column, …).
  const report = (list: readonly DataIssue[]): void => {
    for (const i of list) issues.add({ ...i, field: (fieldNames.get(i.file) ?? ((f: string) => f))(i.field) });
  };
  for (const { file, format } of plans) {
    const source = openSource(file, format);
    fieldNames.set(file, source.fieldName);
    const summary: FileSummary = { file, format, records: 0 };
    summaries.push(summary);
    for await (const batch of source.batches) {
      const valid: LocationRecord[] = [];
      for (const entry of batch) {
        if (entry.issues.length > 0) report(entry.issues.map((i) => atPosition(entry.pos, i)));
        if (entry.envelope === true) continue;
        summary.records += 1;
        onRecord();
        if (entry.raw === undefined) continue;
        const checked = validateRecord(entry.raw, entry.pos);
        if (checked.issues.length > 0) report(checked.issues);
        const clashes = dataset.add(identityOf(entry.raw), entry.pos);
        if (clashes.length > 0) report(clashes);
        if (checked.record !== undefined && entry.issues.length === 0) valid.push(checked.record);
      }
      yield valid;
    }
  }
  report(dataset.finish());
}

/** Valid records of `plans`; ends by throwing DataValidationError if any problem was found. */
async function* checkedRecords(plans: readonly Plan[]): AsyncGenerator<LocationRecord> {
  const issues = new IssueCollector();
  for await (const batch of validBatches(plans, issues, [], () => undefined)) yield* batch;
  issues.throwIfAny();
}

/**
 * Streams the valid records of the files (after the same checks as an import). The stream ends
 * by throwing DataValidationError when any problem was found, so a consumer must not act on
 * what it received until the stream has finished.
 */
export async function* readRecords(files: readonly string[], options: Pick<ImportOptions, 'format'> = {}): AsyncGenerator<LocationRecord> {
  yield* checkedRecords(await plan(files, options.format));
}

/** Validates the files without writing anything. Data problems are returned, not thrown. */
export async function validateFiles(files: readonly string[], options: ImportOptions = {}): Promise<ValidationReport> {
  const plans = await plan(files, options.format);
  const issues = new IssueCollector();
  const summaries: FileSummary[] = [];
  let read = 0;
  let publicRecords = 0;
  const progress = options.onProgress;
  const tick = (): void => {
    read += 1;
    if (progress !== undefined && read % PROGRESS_EVERY === 0) progress({ phase: 'reading', done: read });
  };
  for await (const batch of validBatches(plans, issues, summaries, tick)) {
    for (const record of batch) if (record.visibility !== 'private') publicRecords += 1;
  }
  progress?.({ phase: 'reading', done: read, total: read });
  return {
    ok: issues.total === 0,
    files: summaries,
    records: summaries.reduce((n, s) => n + s.records, 0),
    publicRecords,
    issues: issues.list(),
    issueCount: issues.total,
  };
}

/**
 * Validates the files, then replaces the store's dataset with their records in one atomic
 * step. Throws DataValidationError (nothing written, previous dataset intact) when any problem
 * is found; ConfigError for unreadable files or unknown formats.
 */
export async function importFiles(store: LocationStore, files: readonly string[], options: ImportOptions = {}): Promise<ImportReport> {
  const checked = await validateFiles(files, options);
  if (!checked.ok) throw new DataValidationError(checked.issues);
  return writeValidated(store, checked, options);
}

/**
 * Pass 2 of an import whose validation (pass 1) succeeded: streams the same files into
 * `store.replaceAll`. Split out so a caller can validate before opening the store at all.
 */
export async function writeValidated(store: LocationStore, checked: ValidationReport, options: ImportOptions = {}): Promise<ImportReport> {
  if (!checked.ok) throw new DataValidationError(checked.issues);
  const plans: Plan[] = checked.files.map(({ file, format }) => ({ file, format }));
  const expected = checked.records;

  // Throwing from inside this stream (the files changed after validation) makes the store roll back.
  async function* secondPass(): AsyncGenerator<LocationRecord> {
    let count = 0;
    for await (const record of checkedRecords(plans)) {
      count += 1;
      yield record;
    }
    if (count !== expected) {
      const message = `the input changed while importing (${expected} records validated, ${count} read); nothing was written, run the import again`;
      throw new DataValidationError([{ file: plans[0]?.file ?? '', line: 0, field: '', message }]);
    }
  }

  // The record count is known from pass 1, so the writing phase can show a percentage.
  const progress = options.onProgress;
  const onProgress = progress === undefined ? undefined : (p: ImportProgress): void => progress(p.phase === 'writing' && p.total === undefined ? { ...p, total: expected } : p);
  const result = await store.replaceAll(secondPass(), onProgress);
  return { ...result, files: checked.files, records: checked.records };
}
