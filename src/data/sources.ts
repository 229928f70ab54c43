/**
 * One interface over the import formats (our own NDJSON, GeoJSON and CSV; OpenStreetMap GeoJSON,
 * schema.org JSON-LD and Google Business Profile sheets, converted on the way in): a stream of raw
 * records, each with its position
 * and the problems found while decoding it, plus the mapping from record field paths to what
 * the author of that format sees (CSV column, GeoJSON coordinate).
 */
import { readdir, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { ConfigError } from '../errors.js';
import { isOneOf } from '../protocol/guards.js';
import { csvColumnOf, readHeader, rowToRaw, type CsvHeader } from './csv-records.js';
import { readCsv } from './csv.js';
import { gbpColumnOf, gbpRowToRaw, readGbpHeader, type GbpHeader } from './gbp.js';
import { featureToRaw, geoJsonFieldOf, readGeoJson } from './geojson.js';
import { jsonLdEntries, jsonLdFieldOf } from './jsonld.js';
import type { FieldIssue, RawEntry, SourcePosition } from './issues.js';
import { readNdjsonBatches } from './ndjson.js';
import { DEFAULT_HOLIDAY_HORIZON_DAYS, osmFeatureToRaw, osmFieldOf, osmStartDay, type OsmOptions } from './osm.js';
import { evaluatesOnAnyThread } from './osm-hours.js';
import { errorCodeOf } from '../protocol/error-code.js';

export const DATA_FORMATS = ['ndjson', 'geojson', 'csv', 'osm', 'jsonld', 'gbp'] as const;
export type DataFormat = (typeof DATA_FORMATS)[number];

/** Formats whose sources carry coordinates but never a time zone: it is derived from `geo` unless told otherwise. */
export const FORMATS_DERIVING_TIMEZONE: ReadonlySet<string> = new Set(['osm', 'jsonld', 'gbp']);

/**
 * Whether a file of `format` may be decoded on an import worker thread. osm may not when its
 * opening_hours evaluation needs to switch the process zone (osm-hours.ts), which a worker cannot.
 */
export function decodesOnWorker(format: DataFormat, options: SourceOptions = {}): boolean {
  if (format !== 'osm') return true;
  const osm = osmOptionsOf(options);
  return evaluatesOnAnyThread(osmStartDay(osm.now) - 1, osm.holidayHorizonDays + 4);
}

/** Settings of the formats that need some (structured-cloneable: they travel to import workers). */
export interface SourceOptions {
  osm?: OsmOptions;
  /** jsonld: the namespace of features UCP does not define (amenity-namespace.ts; default org.schema). */
  amenityNamespace?: string;
}

function osmOptionsOf(options: SourceOptions): OsmOptions {
  return options.osm ?? { now: Date.now(), holidayHorizonDays: DEFAULT_HOLIDAY_HORIZON_DAYS };
}

const BY_EXTENSION: Record<string, DataFormat> = {
  '.ndjson': 'ndjson',
  '.jsonl': 'ndjson',
  '.geojson': 'geojson',
  '.json': 'geojson',
  '.csv': 'csv',
  '.jsonld': 'jsonld',
};

/** The format named by `override`, else by the file extension; a usage error otherwise. */
export function detectFormat(file: string, override?: string): DataFormat {
  if (override !== undefined) {
    const f = override.toLowerCase();
    if (isOneOf(DATA_FORMATS, f)) return f;
    throw new ConfigError(`unknown format ${JSON.stringify(override)}; use one of: ${DATA_FORMATS.join(', ')}`);
  }
  const format = BY_EXTENSION[extname(file).toLowerCase()];
  if (format === undefined) {
    throw new ConfigError(
      `cannot tell the format of ${JSON.stringify(file)} from its extension; name it .ndjson/.jsonl, .geojson/.json, .csv or .jsonld, or pass --format ${DATA_FORMATS.join('|')}`,
    );
  }
  return format;
}

/** Files of a JSON-LD directory: documents and store-locator pages, read in name order. */
const JSONLD_DIRECTORY_FILES = /\.(jsonld|json|html?)$/i;

/**
 * The input files `path` stands for: itself, or — for `jsonld`, where a site's pages are often
 * saved one business per file — the matching files of a directory (not its subdirectories).
 */
export async function inputFiles(path: string, format: DataFormat): Promise<string[]> {
  const info = await stat(path).catch(() => undefined);
  if (info?.isDirectory() !== true) return [path];
  if (format !== 'jsonld') throw new ConfigError(`${JSON.stringify(path)} is a directory; only --format jsonld reads directories (of .jsonld, .json and .html files)`);
  const names = (await readdir(path, { withFileTypes: true })).filter((d) => d.isFile() && JSONLD_DIRECTORY_FILES.test(d.name)).map((d) => d.name);
  if (names.length === 0) throw new ConfigError(`the directory ${JSON.stringify(path)} has no .jsonld, .json or .html file`);
  return names.sort().map((n) => join(path, n));
}

/** A usage error (ConfigError) unless `file` is an existing regular file. */
export async function assertReadableFile(file: string): Promise<void> {
  const info = await stat(file).catch((error: unknown) => {
    const code = errorCodeOf(error);
    throw new ConfigError(`cannot read ${JSON.stringify(file)}: ${code === 'ENOENT' ? 'no such file' : String(error)}`, { cause: error });
  });
  if (!info.isFile()) throw new ConfigError(`${JSON.stringify(file)} is not a regular file`);
}

export type { RawEntry } from './issues.js';

export interface RecordSource {
  /** Entries in file order, a chunk at a time (one await per chunk, not per record). */
  batches: AsyncIterable<readonly RawEntry[]>;
  /** Record field path → the name the author of this format knows it by (a plain function, no `this`). */
  fieldName: (field: string) => string;
}

async function* ndjsonBatches(file: string): AsyncGenerator<RawEntry[]> {
  for await (const batch of readNdjsonBatches(file)) {
    yield batch.map((e): RawEntry => {
      const pos = { file, line: e.line };
      return 'value' in e ? { pos, raw: e.value, issues: [] } : { pos, issues: [e.issue] };
    });
  }
}

/** Groups a one-entry-at-a-time source into batches of up to `size`. */
async function* batched(entries: AsyncIterable<RawEntry>, size = 256): AsyncGenerator<RawEntry[]> {
  let batch: RawEntry[] = [];
  for await (const e of entries) {
    batch.push(e);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** Entries of a FeatureCollection, each feature turned into a raw record by `convert`. */
async function* featureEntries(file: string, convert: (feature: unknown) => { raw?: unknown; issues: FieldIssue[]; warnings?: FieldIssue[] }): AsyncGenerator<RawEntry> {
  for await (const e of readGeoJson(file)) {
    if ('line' in e) {
      yield { pos: { file, line: e.line }, issues: [e.issue], envelope: true };
      continue;
    }
    const pos: SourcePosition = { file, line: e.feature, unit: 'feature' };
    if ('issue' in e) {
      yield { pos, issues: [e.issue] };
      continue;
    }
    const { raw, issues, warnings } = convert(e.value);
    const entry: RawEntry = raw === undefined ? { pos, issues } : { pos, raw, issues };
    if (warnings !== undefined && warnings.length > 0) entry.warnings = warnings;
    yield entry;
  }
}

/** How one CSV dialect (ours, Business Profile sheets) reads its header and its rows. */
interface CsvDialect<H extends { issues: FieldIssue[]; warnings?: FieldIssue[]; unusable: boolean }> {
  header: (fields: readonly string[]) => H;
  row: (header: H, fields: readonly string[]) => { raw: Record<string, unknown>; issues: FieldIssue[]; warnings?: FieldIssue[] };
  /** What an empty file should have started with. */
  empty: string;
}

async function* csvEntries<H extends { issues: FieldIssue[]; warnings?: FieldIssue[]; unusable: boolean }>(file: string, dialect: CsvDialect<H>): AsyncGenerator<RawEntry> {
  let header: H | undefined;
  for await (const e of readCsv(file)) {
    const pos = { file, line: e.line };
    if ('error' in e) {
      yield { pos, issues: [{ field: '', message: `malformed CSV: ${e.error}` }] };
      continue;
    }
    if (header === undefined) {
      header = dialect.header(e.fields);
      const warnings = header.warnings ?? [];
      if (header.issues.length > 0 || warnings.length > 0) yield { pos, issues: header.issues, ...(warnings.length > 0 ? { warnings } : {}), envelope: true };
      // Without id/name every row would fail the same way; the header issue says it once.
      if (header.unusable) return;
      continue;
    }
    const { raw, issues, warnings } = dialect.row(header, e.fields);
    const entry: RawEntry = issues.length > 0 && Object.keys(raw).length === 0 ? { pos, issues } : { pos, raw, issues };
    if (warnings !== undefined && warnings.length > 0) entry.warnings = warnings;
    yield entry;
  }
  if (header === undefined) {
    yield { pos: { file, line: 1 }, issues: [{ field: '', message: `the CSV file is empty; its first line must ${dialect.empty}` }], envelope: true };
  }
}

const OUR_CSV: CsvDialect<CsvHeader> = { header: readHeader, row: rowToRaw, empty: 'name the columns (id,name,…)' };
const GBP_SHEET: CsvDialect<GbpHeader> = { header: readGbpHeader, row: gbpRowToRaw, empty: "be the sheet's header row (Store code, Business name, …)" };

export function openSource(file: string, format: DataFormat, options: SourceOptions = {}): RecordSource {
  switch (format) {
    case 'ndjson':
      return { batches: ndjsonBatches(file), fieldName: (f) => f };
    case 'geojson':
      return { batches: batched(featureEntries(file, featureToRaw)), fieldName: geoJsonFieldOf };
    case 'csv':
      return { batches: batched(csvEntries(file, OUR_CSV)), fieldName: csvColumnOf };
    case 'osm': {
      const osm = osmOptionsOf(options);
      return { batches: batched(featureEntries(file, (feature) => osmFeatureToRaw(feature, osm))), fieldName: osmFieldOf };
    }
    case 'jsonld':
      return { batches: batched(jsonLdEntries(file, options.amenityNamespace)), fieldName: jsonLdFieldOf };
    case 'gbp':
      return { batches: batched(csvEntries(file, GBP_SHEET)), fieldName: gbpColumnOf };
  }
}
