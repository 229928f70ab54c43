/**
 * The validation pass shared by every import path: decode → validate each record → dataset-wide
 * rules, with every problem reported in file order. Used in this thread (all formats) and inside
 * the import worker threads (workers.ts), so both give the same records and the same issues.
 *
 * Two ways in, one bookkeeping (`PassOne`):
 *  - `entry()` takes a decoded entry and validates it here;
 *  - `outcome()` replays what a worker found for one NDJSON line of a byte range: the worker did
 *    the costly part (JSON parsing, record validation) in parallel, and the replay applies the
 *    order-dependent part (positions, dataset rules, issue order and cap) exactly as `entry()`.
 */
import type { DataIssue } from '../errors.js';
import type { LocationRecord } from '../domain/location.js';
import {
  defaultNamespaceWarning,
  firstUnder,
  OSM_AMENITY_NAMESPACE,
  SCHEMA_ORG_AMENITY_NAMESPACE,
  undefinedUcpAmenities,
} from './amenity-namespace.js';
import { DatasetChecker, identityOf, type Identity } from './dataset-checks.js';
import { atPosition, type FieldIssue, IssueCollector, type SourcePosition } from './issues.js';
import { readNdjsonBatches, type ByteRange } from './ndjson.js';
import { openSource, type DataFormat, type RawEntry, type SourceOptions } from './sources.js';
import { withDerivedTimezone } from './timezone-derivation.js';
import { validateRecord } from './validate-record.js';

export interface Plan {
  file: string;
  format: DataFormat;
  /** Fill in a missing `timezone` from `geo` (timezone-derivation.ts). */
  deriveTimezone?: boolean;
  source?: SourceOptions;
}

/** How many records of an import got each derived time zone. */
export interface DerivedZoneCount {
  timezone: string;
  records: number;
}

export interface FileSummary {
  file: string;
  format: DataFormat;
  /** Records read (valid or not). */
  records: number;
}

/** What validation found for one NDJSON line, without its absolute position. */
export interface RecordOutcome {
  /** Line within the range (1-based). */
  line: number;
  /** Decoding problem (broken JSON); then nothing else was checked. */
  decodeIssues?: FieldIssue[];
  /** Record validation problems. */
  issues?: FieldIssue[];
  /** Usable id and aliases, for the dataset rules; absent when the line did not decode. */
  identity?: Identity;
  /** Valid, and public (visibility absent or "public"). */
  validPublic?: true;
  /** Warnings about the valid record (amenity ids under dev.ucp that UCP does not define). */
  warnings?: FieldIssue[];
}

function fieldIssues(issues: readonly DataIssue[]): FieldIssue[] {
  return issues.map((i) => ({ field: i.field, message: i.message }));
}

/**
 * Validates the NDJSON lines in `range` of `file` (line numbers relative to the range), chunk by
 * chunk. `onEnd` receives the number of lines in the range, blank ones included.
 */
export async function* ndjsonRangeOutcomes(file: string, range: ByteRange, onEnd: (lines: number) => void): AsyncGenerator<RecordOutcome[]> {
  for await (const batch of readNdjsonBatches(file, range, onEnd)) {
    const out: RecordOutcome[] = [];
    for (const e of batch) {
      if ('issue' in e) {
        out.push({ line: e.line, decodeIssues: [e.issue] });
        continue;
      }
      const checked = validateRecord(e.value, { file, line: e.line });
      const o: RecordOutcome = { line: e.line, identity: identityOf(e.value) };
      if (checked.issues.length > 0) o.issues = fieldIssues(checked.issues);
      if (checked.record !== undefined && checked.record.visibility !== 'private') o.validPublic = true;
      const warnings = undefinedUcpAmenities(checked.record?.amenities);
      if (warnings.length > 0) o.warnings = warnings;
      out.push(o);
    }
    yield out;
  }
}

/**
 * The one warnings mechanism of every format: decoders put what the source said that a record
 * cannot hold in `RawEntry.warnings`, the pipeline adds its own (a doubtful derived zone), and
 * `PassOne` sends them all here — kept beside the issues, or made issues by `strict`.
 */
export interface PassSettings {
  /** Where warnings go; without one they are dropped (pass 2 already had them in pass 1). */
  warnings?: IssueCollector;
  /** Warnings are reported as problems instead (`import --strict`). */
  strict?: boolean;
}

/** Validation problems, less those with a field a decoding problem already stands for (FieldIssue.about). */
function withoutRepeats(issues: readonly DataIssue[], decoding: readonly FieldIssue[]): readonly DataIssue[] {
  const about = new Set(decoding.map((i) => i.about).filter((f) => f !== undefined));
  return about.size === 0 ? issues : issues.filter((i) => !about.has(i.field));
}

/** Dataset rules, issue positions and order, record counts: the bookkeeping of one pass. */
export class PassOne {
  readonly #dataset = new DatasetChecker();
  readonly #fieldNames = new Map<string, (f: string) => string>();
  readonly #deriving = new Set<string>();
  readonly #zones = new Map<string, number>();
  /** Files whose features UCP does not define were named under a source vocabulary's namespace, by file. */
  readonly #defaultNamespaces = new Map<string, string>();
  #namespaceWarned = false;
  publicRecords = 0;

  constructor(
    private readonly issues: IssueCollector,
    private readonly onRecord: () => void,
    private readonly settings: PassSettings = {},
  ) {}

  /** Records of `file` without a timezone get one derived from their geo. */
  deriveTimezones(file: string): void {
    this.#deriving.add(file);
  }

  /**
   * Records of `file` name features UCP does not define under `namespace` because no
   * --amenity-namespace was given: the first such record of the pass gets the one warning that says so.
   */
  watchDefaultNamespace(file: string, namespace: string): void {
    this.#defaultNamespaces.set(file, namespace);
  }

  /** Warnings about a valid record's amenity ids. */
  private amenityWarnings(record: LocationRecord, file: string): FieldIssue[] {
    const out = undefinedUcpAmenities(record.amenities);
    const namespace = this.#defaultNamespaces.get(file);
    if (namespace !== undefined && !this.#namespaceWarned) {
      const example = firstUnder(record.amenities, namespace);
      if (example !== undefined) {
        this.#namespaceWarned = true;
        out.push(defaultNamespaceWarning(namespace, example));
      }
    }
    return out;
  }

  /** Derived zones, most used first (ties by name). */
  derivedZones(): DerivedZoneCount[] {
    return [...this.#zones]
      .map(([timezone, records]) => ({ timezone, records }))
      .sort((a, b) => b.records - a.records || (a.timezone < b.timezone ? -1 : 1));
  }

  private warn(pos: SourcePosition, list: readonly FieldIssue[]): void {
    if (this.settings.strict === true) {
      this.report(list.map((i) => atPosition(pos, { ...i, message: `${i.message} (an error because of --strict)` })));
      return;
    }
    const out = this.settings.warnings;
    if (out === undefined) return;
    const name = this.#fieldNames.get(pos.file) ?? ((f: string) => f);
    for (const i of list) out.add(atPosition(pos, { ...i, field: name(i.field) }));
  }

  /** Issues name fields as the author of their file's format knows them (CSV column, …). */
  setFieldNames(file: string, fieldName: (f: string) => string): void {
    this.#fieldNames.set(file, fieldName);
  }

  private report(list: readonly DataIssue[]): void {
    for (const i of list) this.issues.add({ ...i, field: (this.#fieldNames.get(i.file) ?? ((f: string) => f))(i.field) });
  }

  /** Validates one decoded entry; returns the record when it is valid. */
  entry(entry: RawEntry, summary: FileSummary): LocationRecord | undefined {
    if (entry.issues.length > 0) this.report(entry.issues.map((i) => atPosition(entry.pos, i)));
    if (entry.warnings !== undefined) this.warn(entry.pos, entry.warnings);
    if (entry.envelope === true) return undefined;
    summary.records += 1;
    this.onRecord();
    if (entry.raw === undefined) return undefined;
    let raw: unknown = entry.raw;
    if (this.#deriving.has(entry.pos.file)) {
      const derived = withDerivedTimezone(raw);
      if (derived.timezone !== undefined) {
        raw = derived.raw;
        this.#zones.set(derived.timezone, (this.#zones.get(derived.timezone) ?? 0) + 1);
        if (derived.warning !== undefined) this.warn(entry.pos, [derived.warning]);
      }
    }
    const checked = validateRecord(raw, entry.pos);
    if (checked.issues.length > 0) this.report(withoutRepeats(checked.issues, entry.issues));
    const clashes = this.#dataset.add(identityOf(raw), entry.pos);
    if (clashes.length > 0) this.report(clashes);
    if (checked.record === undefined || entry.issues.length > 0) return undefined;
    const warnings = this.amenityWarnings(checked.record, entry.pos.file);
    if (warnings.length > 0) this.warn(entry.pos, warnings);
    if (checked.record.visibility !== 'private') this.publicRecords += 1;
    return checked.record;
  }

  /** Applies a worker's outcome for the line `lineOffset + o.line` of `summary.file`. */
  outcome(o: RecordOutcome, lineOffset: number, summary: FileSummary): void {
    const pos: SourcePosition = { file: summary.file, line: lineOffset + o.line };
    if (o.decodeIssues !== undefined) this.report(o.decodeIssues.map((i) => atPosition(pos, i)));
    summary.records += 1;
    this.onRecord();
    if (o.identity === undefined) return;
    if (o.issues !== undefined) this.report(o.issues.map((i) => atPosition(pos, i)));
    const clashes = this.#dataset.add(o.identity, pos);
    if (clashes.length > 0) this.report(clashes);
    if (o.warnings !== undefined) this.warn(pos, o.warnings);
    if (o.validPublic === true && o.decodeIssues === undefined) this.publicRecords += 1;
  }

  /** Dataset rules that need every record (alias = another location's id). Call once, last. */
  finish(): void {
    this.report(this.#dataset.finish());
  }
}

/** How a whole validating pass treats its files (validateFiles and the one-pass import alike). */
export interface PassOptions {
  /** Warnings fail the import like problems (`--strict`). */
  strict?: boolean;
  /**
   * No --amenity-namespace was given: features UCP does not define are named under the source
   * vocabulary's namespace, and the first such record of the pass gets one warning saying so.
   */
  defaultNamespaces?: boolean;
}

/** What a validating pass found: everything a ValidationReport says, less what only the caller knows. */
export interface PassReport {
  files: FileSummary[];
  publicRecords: number;
  issues: DataIssue[];
  issueCount: number;
  warnings: DataIssue[];
  warningCount: number;
  timezones: DerivedZoneCount[];
}

/** Prepares `pass` for the records of `plan` (zone derivation, the default-namespace warning). */
export function startFile(pass: PassOne, plan: Plan, options: PassOptions): void {
  if (plan.deriveTimezone === true) pass.deriveTimezones(plan.file);
  if (options.defaultNamespaces !== true) return;
  const vocabulary = plan.format === 'osm' ? OSM_AMENITY_NAMESPACE : plan.format === 'jsonld' ? SCHEMA_ORG_AMENITY_NAMESPACE : undefined;
  if (vocabulary !== undefined) pass.watchDefaultNamespace(plan.file, vocabulary);
}

/** The report of a finished pass. */
export function passReport(pass: PassOne, files: FileSummary[], issues: IssueCollector, warnings: IssueCollector): PassReport {
  return {
    files,
    publicRecords: pass.publicRecords,
    issues: issues.list(),
    issueCount: issues.total,
    warnings: warnings.list(),
    warningCount: warnings.total,
    timezones: pass.derivedZones(),
  };
}

/**
 * The one pass of an import: reads every file once, validating each record as it streams, and
 * yields the valid records chunk by chunk for the store to write meanwhile. From the first problem
 * on nothing more is yielded (the import is lost; writing more would be wasted work), but reading
 * and validating go on to the end, so the report lists every problem as validateFiles would.
 * `onEnd` receives that report before the stream ends; the consumer decides what an unclean
 * report means (an import throws from the record stream, so the store rolls back).
 */
export async function* validatingBatches(
  plans: readonly Plan[],
  options: PassOptions,
  onRecord: () => void,
  onEnd: (report: PassReport) => void,
): AsyncGenerator<LocationRecord[]> {
  const issues = new IssueCollector();
  const warnings = new IssueCollector();
  const pass = new PassOne(issues, onRecord, { warnings, strict: options.strict === true });
  const files: FileSummary[] = [];
  for (const plan of plans) {
    const source = openSource(plan.file, plan.format, plan.source);
    pass.setFieldNames(plan.file, source.fieldName);
    startFile(pass, plan, options);
    const summary: FileSummary = { file: plan.file, format: plan.format, records: 0 };
    files.push(summary);
    for await (const batch of source.batches) {
      const valid: LocationRecord[] = [];
      for (const entry of batch) {
        const record = pass.entry(entry, summary);
        if (record !== undefined) valid.push(record);
      }
      if (valid.length > 0 && issues.total === 0) yield valid;
    }
  }
  pass.finish();
  onEnd(passReport(pass, files, issues, warnings));
}

/**
 * Reads every file once and yields the valid records of each chunk read (possibly none),
 * reporting every problem (record and dataset level) to `issues`. Invalid records are not
 * yielded. Work is per chunk: one await per chunk of the file rather than per record.
 */
export async function* validBatches(
  plans: readonly Plan[],
  issues: IssueCollector,
  summaries: FileSummary[],
  onRecord: () => void,
): AsyncGenerator<LocationRecord[]> {
  const pass = new PassOne(issues, onRecord);
  for (const { file, format, deriveTimezone, source: options } of plans) {
    const source = openSource(file, format, options);
    pass.setFieldNames(file, source.fieldName);
    if (deriveTimezone === true) pass.deriveTimezones(file);
    const summary: FileSummary = { file, format, records: 0 };
    summaries.push(summary);
    for await (const batch of source.batches) {
      const valid: LocationRecord[] = [];
      for (const entry of batch) {
        const record = pass.entry(entry, summary);
        if (record !== undefined) valid.push(record);
      }
      yield valid;
    }
  }
  pass.finish();
}

/** Valid records of `plans` in batches; ends by throwing DataValidationError if any problem was found. */
export async function* checkedBatches(plans: readonly Plan[]): AsyncGenerator<LocationRecord[]> {
  const issues = new IssueCollector();
  yield* validBatches(plans, issues, [], () => undefined);
  issues.throwIfAny();
}
