/**
 * Collecting data problems while a file is read. Validation never stops at the first problem:
 * the operator gets the whole list in one run, so a large file is fixed in one go.
 *
 * Warnings use the same shapes and collector: a source format can say things UCP cannot (a
 * schema.org public-holiday rule, a feature without an amenity id, a point in disputed
 * territory). They are reported beside the issues with file, record and field, but never fail an
 * import: the record is imported without the part that could not be expressed.
 */
import { DataValidationError, type DataIssue } from '../errors.js';

/** A problem inside one record, before it is tied to a file position. */
export interface FieldIssue {
  /** Dotted path inside the record (`hours[2].closes`); '' for the record as a whole. */
  field: string;
  message: string;
  /**
   * The record field this decoding problem stands for when `field` names the source instead
   * (`properties.name` → `name`): validation's own problem with that field is then not repeated.
   */
  about?: string;
}

/** Where a record came from: file and 1-based line (or feature number for GeoJSON, node number for JSON-LD). */
export interface SourcePosition {
  file: string;
  line: number;
  unit?: 'line' | 'feature' | 'node';
}

/** One entry a source reader yields: a decoded record (or what stopped its decoding) and where it came from. */
export interface RawEntry {
  pos: SourcePosition;
  /** The decoded record, when decoding got far enough to validate it. */
  raw?: unknown;
  /** Decoding problems (JSON syntax, CSV cell syntax, GeoJSON envelope). */
  issues: FieldIssue[];
  /** Things the source said that the record cannot hold; reported, never fatal unless the import is strict. */
  warnings?: FieldIssue[];
  /** The entry is about the file around the records (CSV header, GeoJSON envelope), not a record. */
  envelope?: true;
}

/**
 * Cap on issues kept in memory. A million-line file with one systematic mistake would otherwise
 * hold a million issues; past the cap only the count grows and one summary issue says so.
 */
export const MAX_KEPT_ISSUES = 10_000;

export function atPosition(pos: SourcePosition, issue: FieldIssue): DataIssue {
  const out: DataIssue = { file: pos.file, line: pos.line, field: issue.field, message: issue.message };
  if (pos.unit !== undefined && pos.unit !== 'line') out.unit = pos.unit;
  return out;
}

export class IssueCollector {
  readonly #kept: DataIssue[] = [];
  #total = 0;

  constructor(private readonly cap: number = MAX_KEPT_ISSUES) {}

  add(issue: DataIssue): void {
    this.#total += 1;
    if (this.#kept.length < this.cap) this.#kept.push(issue);
  }

  /** Every issue found, including those past the cap. */
  get total(): number {
    return this.#total;
  }

  /** Kept issues in discovery order, plus a summary entry when some were dropped. */
  list(): DataIssue[] {
    const dropped = this.#total - this.#kept.length;
    if (dropped === 0) return [...this.#kept];
    return [
      ...this.#kept,
      { file: '', line: 0, field: '', message: `${dropped} more problem(s) not listed (only the first ${this.cap} are kept)` },
    ];
  }

  /** Throws a DataValidationError listing every kept issue when any was found. */
  throwIfAny(): void {
    if (this.#total > 0) throw new DataValidationError(this.list());
  }
}
