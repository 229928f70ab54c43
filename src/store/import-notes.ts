/**
 * The stored form of the last import (LastImportRecord), shared by the SQLite and PostgreSQL
 * stores: one JSON text beside the dataset. Reading it back checks its shape, so a row written by
 * another release (or edited by hand) reads as "no record" instead of as wrong numbers.
 */
import type { DataIssue } from '../errors.js';
import type { ImportNotes, ImportNotesSource, ImportResult, LastImportRecord } from './store.js';

/** The notes of an import that was given none (a library call, a test). */
function emptyNotes(nowMs: number): ImportNotes {
  return { at: new Date(nowMs).toISOString(), files: [], warnings: [], warningCount: 0 };
}

/** Call once the record stream has ended: a function source is asked for its notes then. */
export function importRecordJson(result: ImportResult, notes: ImportNotesSource | undefined, nowMs = Date.now()): string {
  const n = (typeof notes === 'function' ? notes() : notes) ?? emptyNotes(nowMs);
  const record: LastImportRecord = {
    at: n.at,
    files: n.files,
    warnings: n.warnings,
    warningCount: n.warningCount,
    locations: result.locations,
    publicLocations: result.publicLocations,
    availability: result.availability,
    generation: result.generation,
  };
  return JSON.stringify(record);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

function issueOf(v: unknown): DataIssue | null {
  if (!isRecord(v)) return null;
  const { file, line, field, message, unit } = v;
  if (typeof file !== 'string' || !isCount(line) || typeof field !== 'string' || typeof message !== 'string') return null;
  const issue: DataIssue = { file, line, field, message };
  if (unit === 'line' || unit === 'feature' || unit === 'node') issue.unit = unit;
  return issue;
}

function fileOf(v: unknown): ImportNotes['files'][number] | null {
  if (!isRecord(v)) return null;
  const { file, format, records } = v;
  return typeof file === 'string' && typeof format === 'string' && isCount(records) ? { file, format, records } : null;
}

function all<T>(values: unknown, read: (v: unknown) => T | null): T[] | null {
  if (!Array.isArray(values)) return null;
  const out: T[] = [];
  for (const v of values) {
    const x = read(v);
    if (x === null) return null;
    out.push(x);
  }
  return out;
}

/** The record a store wrote with importRecordJson, or null when the text is not one. */
export function parseImportRecord(text: string): LastImportRecord | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(value)) return null;
  const { at, warningCount, locations, publicLocations, availability, generation } = value;
  const files = all(value['files'], fileOf);
  const warnings = all(value['warnings'], issueOf);
  if (typeof at !== 'string' || files === null || warnings === null) return null;
  if (!isCount(warningCount) || !isCount(locations) || !isCount(publicLocations) || !isCount(availability) || !isCount(generation))
    return null;
  return { at, files, warnings, warningCount, locations, publicLocations, availability, generation };
}
