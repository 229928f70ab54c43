/**
 * The inventory feed: rows of `location_id, item_id, available` that update item availability.
 * CSV (header required, columns in any order) or NDJSON (one object per line with those keys).
 * A batch is all or nothing: any malformed row rejects the whole file before the store is
 * touched, and the store rejects (atomically) rows naming unknown locations.
 */
import { ConfigError } from '../errors.js';
import type { InventoryRow, LocationStore } from '../store/store.js';
import { elementAt, isOneOf } from '../protocol/guards.js';
import { readCsv } from './csv.js';
import { describeType, identifierProblem, isPlainObject } from './fields.js';
import { IssueCollector } from './issues.js';
import { readNdjson } from './ndjson.js';
import { assertReadableFile, detectFormat } from './sources.js';

export const INVENTORY_COLUMNS = ['location_id', 'item_id', 'available'] as const;
type InventoryColumn = (typeof INVENTORY_COLUMNS)[number];

const TRUE_WORDS = new Set(['true', '1', 'yes']);
const FALSE_WORDS = new Set(['false', '0', 'no']);

/** true/false/1/0/yes/no (any letter case, surrounding blanks ignored); JSON booleans too. */
export function parseAvailable(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value !== 'string') return null;
  const word = value.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return null;
}

export interface InventoryFile {
  rows: InventoryRow[];
  format: 'csv' | 'ndjson';
}

/** Collects rows and per-row problems; also catches one pair given two different values. */
class RowSink {
  readonly rows: InventoryRow[] = [];
  readonly issues = new IssueCollector();
  readonly #seen = new Map<string, { line: number; available: boolean }>();

  constructor(readonly file: string) {}

  issue(line: number, field: string, message: string): void {
    this.issues.add({ file: this.file, line, field, message });
  }

  add(line: number, values: Record<InventoryColumn, unknown>): void {
    const before = this.issues.total;
    const { location_id, item_id } = values;
    const idProblem = identifierProblem(location_id);
    if (idProblem !== null) this.issue(line, 'location_id', idProblem);
    const itemProblem = identifierProblem(item_id);
    if (itemProblem !== null) this.issue(line, 'item_id', itemProblem);
    const available = parseAvailable(values.available);
    if (available === null) {
      this.issue(line, 'available', `must be true/false, 1/0 or yes/no, got ${values.available === undefined ? 'nothing' : describeType(values.available)}`);
    }
    // No new issue means both ids are strings; the typeof checks say so to the compiler.
    if (this.issues.total !== before || available === null || typeof location_id !== 'string' || typeof item_id !== 'string') return;
    const row: InventoryRow = { line, location_id, item_id, available };
    // The key joins with a character identifierProblem forbids, so it cannot be ambiguous.
    const key = `${row.location_id}\u0000${row.item_id}`;
    const prior = this.#seen.get(key);
    if (prior !== undefined && prior.available !== available) {
      this.issue(line, 'available', `${row.item_id} at ${row.location_id} is set to ${available} here but to ${prior.available} on line ${prior.line}; a batch must not contradict itself`);
      return;
    }
    this.#seen.set(key, { line, available });
    this.rows.push(row);
  }
}

async function readCsvRows(file: string, sink: RowSink): Promise<void> {
  let columns: (InventoryColumn | null)[] | undefined;
  for await (const e of readCsv(file)) {
    if ('error' in e) {
      sink.issue(e.line, '', `malformed CSV: ${e.error}`);
      continue;
    }
    if (columns === undefined) {
      columns = e.fields.map((f) => {
        const name = f.trim().toLowerCase();
        if (isOneOf(INVENTORY_COLUMNS, name)) return name;
        sink.issue(e.line, f, `unknown column ${JSON.stringify(f)}; an inventory CSV has exactly the columns ${INVENTORY_COLUMNS.join(',')}`);
        return null;
      });
      const missing = INVENTORY_COLUMNS.filter((c) => !columns?.includes(c));
      if (missing.length > 0) {
        sink.issue(e.line, missing.join(','), `the header lacks ${missing.join(', ')}; the first line must be the header location_id,item_id,available`);
        return;
      }
      continue;
    }
    if (e.fields.length !== columns.length) {
      sink.issue(e.line, '', `this row has ${e.fields.length} field(s) but the header has ${columns.length}`);
      continue;
    }
    const values: Record<InventoryColumn, unknown> = { location_id: undefined, item_id: undefined, available: undefined };
    columns.forEach((c, i) => {
      if (c !== null) values[c] = elementAt(e.fields, i).trim();
    });
    sink.add(e.line, values);
  }
  if (columns === undefined) sink.issue(1, '', 'the file is empty; the first line must be the header location_id,item_id,available');
}

async function readNdjsonRows(file: string, sink: RowSink): Promise<void> {
  for await (const e of readNdjson(file)) {
    if ('issue' in e) {
      sink.issue(e.line, e.issue.field, e.issue.message);
      continue;
    }
    if (!isPlainObject(e.value)) {
      sink.issue(e.line, '', `each line must be an object {"location_id", "item_id", "available"}, got ${describeType(e.value)}`);
      continue;
    }
    for (const key of Object.keys(e.value)) {
      if (!isOneOf(INVENTORY_COLUMNS, key)) {
        sink.issue(e.line, key, `unknown field ${JSON.stringify(key)}; the fields are ${INVENTORY_COLUMNS.join(', ')}`);
      }
    }
    const v = e.value;
    sink.add(e.line, { location_id: v['location_id'], item_id: v['item_id'], available: v['available'] });
  }
}

/**
 * Reads and checks a whole inventory batch. Throws DataValidationError listing every malformed
 * row, or ConfigError for an unreadable file or an unsupported format.
 */
export async function readInventory(file: string, format?: string): Promise<InventoryFile> {
  const detected = detectFormat(file, format);
  if (detected !== 'csv' && detected !== 'ndjson') {
    const name = { geojson: 'GeoJSON', osm: 'OpenStreetMap GeoJSON', jsonld: 'JSON-LD', gbp: 'a Business Profile sheet' }[detected];
    throw new ConfigError(`an inventory feed is CSV or NDJSON, not ${name} (${JSON.stringify(file)}); pass --format csv|ndjson if the extension misleads`);
  }
  await assertReadableFile(file);
  const sink = new RowSink(file);
  if (detected === 'csv') await readCsvRows(file, sink);
  else await readNdjsonRows(file, sink);
  sink.issues.throwIfAny();
  return { rows: sink.rows, format: detected };
}

export interface InventoryReport {
  file: string;
  rows: number;
  applied: number;
  generation: number;
}

/** Reads, checks and applies one feed atomically (the store rejects unknown locations). */
export async function applyInventoryFile(store: LocationStore, file: string, format?: string): Promise<InventoryReport> {
  const { rows } = await readInventory(file, format);
  const result = await store.applyInventory(rows, file);
  return { file, rows: rows.length, ...result };
}
