/**
 * Import rate per input format (docs/benchmarks.md, "Import rate per format"): the first `size`
 * records of the bench dataset written in each format we import, then each file imported by
 * bench/import-child.ts in a child of its own (rate, CPU seconds, peak RSS), one after another.
 *
 *   node --import tsx bench/import-formats.ts [size=100000] [--workers <n>] [--only ndjson,osm,…]
 *
 * The converted files keep what each format can say of a record: NDJSON all of it; GeoJSON all
 * but moves geo into the geometry; CSV drops coverage areas; OpenStreetMap, schema.org JSON-LD and
 * Business Profile sheets carry the name, address, point and weekly hours, with the time zone
 * derived from the point as those imports always do. Files are cached beside the dataset.
 */
import { createWriteStream, existsSync, renameSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { DailyHour, Day, LocationRecord } from '../src/domain/location.js';
import { toFeature } from '../src/data/export.js';
import { csvHeaderRow, recordToRow } from '../src/data/csv-records.js';
import { csvRow } from '../src/data/csv.js';
import { ensureDataset, generateRecord, GENERATOR_VERSION } from './lib/dataset.js';
import { startChild } from './lib/children.js';
import type { ImportChildReport } from './import-child.js';

const CACHE = '/tmp/ucp-location-bench';
const SEED = 'ucp-bench-1';

const OSM_DAYS: Record<Day, string> = {
  monday: 'Mo',
  tuesday: 'Tu',
  wednesday: 'We',
  thursday: 'Th',
  friday: 'Fr',
  saturday: 'Sa',
  sunday: 'Su',
};
const DAY_ORDER: Day[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

function byDay(hours: readonly DailyHour[]): Map<Day, string[]> {
  const out = new Map<Day, string[]>();
  for (const h of hours) out.set(h.day, [...(out.get(h.day) ?? []), `${h.opens}-${h.closes}`]);
  return out;
}

/** `Mo 08:00-17:00; Tu …` (an unknown week: no tag; a known empty week: `off`). */
function openingHours(hours: readonly DailyHour[] | undefined): string | undefined {
  if (hours === undefined) return undefined;
  if (hours.length === 0) return 'off';
  const days = byDay(hours);
  return DAY_ORDER.filter((d) => days.has(d))
    .map((d) => `${OSM_DAYS[d]} ${(days.get(d) ?? []).join(',')}`)
    .join('; ');
}

function osmFeature(r: LocationRecord, i: number): unknown {
  const a = r.address ?? {};
  const tags: Record<string, string> = { '@id': `node/${i + 1}`, name: r.name };
  if (a.street_address !== undefined) tags['addr:street'] = a.street_address;
  if (a.address_locality !== undefined) tags['addr:city'] = a.address_locality;
  if (a.postal_code !== undefined) tags['addr:postcode'] = a.postal_code;
  if (a.address_country !== undefined) tags['addr:country'] = a.address_country;
  const oh = openingHours(r.hours);
  // Hours need a zone, which an OSM import derives from the point.
  if (oh !== undefined && r.geo !== undefined) tags['opening_hours'] = oh;
  if (r.amenities?.['dev.ucp.amenity.wheelchair_accessible'] !== undefined) tags['wheelchair'] = 'yes';
  if (r.amenities?.['dev.ucp.amenity.wifi'] !== undefined) tags['internet_access'] = 'wlan';
  const geometry = r.geo === undefined ? null : { type: 'Point', coordinates: [r.geo.longitude, r.geo.latitude] };
  return { type: 'Feature', id: `node/${i + 1}`, geometry, properties: tags };
}

function jsonLdNode(r: LocationRecord): unknown {
  const a = r.address ?? {};
  const node: Record<string, unknown> = { '@type': 'Store', branchCode: r.id, name: r.name };
  node['address'] = {
    '@type': 'PostalAddress',
    streetAddress: a.street_address,
    addressLocality: a.address_locality,
    postalCode: a.postal_code,
    addressCountry: a.address_country,
  };
  if (r.geo !== undefined) node['geo'] = { '@type': 'GeoCoordinates', latitude: r.geo.latitude, longitude: r.geo.longitude };
  if (r.hours !== undefined && r.geo !== undefined) {
    node['openingHoursSpecification'] = r.hours.map((h) => ({
      '@type': 'OpeningHoursSpecification',
      dayOfWeek: h.day,
      opens: h.opens,
      closes: h.closes,
    }));
  }
  return node;
}

const GBP_HEADER = [
  'Store code',
  'Business name',
  'Address line 1',
  'Locality',
  'Country / Region',
  'Postal code',
  'Latitude',
  'Longitude',
];
const GBP_DAYS: Day[] = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

function gbpRow(r: LocationRecord): string {
  const a = r.address ?? {};
  const days = byDay(r.hours ?? []);
  const hours = GBP_DAYS.map((d) => (r.hours === undefined || r.geo === undefined ? '' : (days.get(d) ?? ['x']).join(', ')));
  const geo = r.geo === undefined ? ['', ''] : [String(r.geo.latitude), String(r.geo.longitude)];
  return csvRow([
    r.id,
    r.name,
    a.street_address ?? '',
    a.address_locality ?? '',
    a.address_country ?? '',
    a.postal_code ?? '',
    ...geo,
    ...hours,
  ]);
}

interface Format {
  name: string;
  ext: string;
  /** The file's text as pieces: head, one piece per record (with its separator), tail. */
  head: string;
  piece: (r: LocationRecord, i: number) => string;
  tail: string;
}

const FORMATS: Format[] = [
  { name: 'ndjson', ext: 'ndjson', head: '', piece: (r) => `${JSON.stringify(r)}\n`, tail: '' },
  {
    name: 'geojson',
    ext: 'geojson',
    head: '{"type":"FeatureCollection","features":[\n',
    piece: (r, i) => `${i === 0 ? '' : ',\n'}${JSON.stringify(toFeature(r))}`,
    tail: '\n]}\n',
  },
  { name: 'csv', ext: 'csv', head: `${csvHeaderRow()}\n`, piece: (r) => `${recordToRow(r, { dropAreas: true })}\n`, tail: '' },
  {
    name: 'osm',
    ext: 'geojson',
    head: '{"type":"FeatureCollection","features":[\n',
    piece: (r, i) => `${i === 0 ? '' : ',\n'}${JSON.stringify(osmFeature(r, i))}`,
    tail: '\n]}\n',
  },
  {
    name: 'jsonld',
    ext: 'jsonld',
    head: '{"@context":"https://schema.org","@graph":[\n',
    piece: (r, i) => `${i === 0 ? '' : ',\n'}${JSON.stringify(jsonLdNode(r))}`,
    tail: '\n]}\n',
  },
  {
    name: 'gbp',
    ext: 'csv',
    head: `${csvRow([...GBP_HEADER, ...GBP_DAYS.map((d) => `${d[0]?.toUpperCase()}${d.slice(1)} hours`)])}\n`,
    piece: (r) => `${gbpRow(r)}\n`,
    tail: '',
  },
];

async function ensureFormatFile(f: Format, size: number): Promise<string> {
  if (f.name === 'ndjson') return (await ensureDataset(CACHE, SEED, size)).path;
  const path = join(CACHE, `locations-v${GENERATOR_VERSION}-${SEED}-${size}.${f.name}.${f.ext}`);
  if (existsSync(path)) return path;
  const tmp = `${path}.${process.pid}.tmp`;
  const out = createWriteStream(tmp, { encoding: 'utf8' });
  let buffer = f.head;
  for (let i = 0; i < size; i++) {
    buffer += f.piece(generateRecord(SEED, i), i);
    if (buffer.length > 1 << 20) {
      if (!out.write(buffer)) await once(out, 'drain');
      buffer = '';
    }
  }
  out.end(buffer + f.tail);
  await once(out, 'finish');
  renameSync(tmp, path);
  return path;
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({ allowPositionals: true, options: { workers: { type: 'string' }, only: { type: 'string' } } });
  const size = Number(positionals[0] ?? 100_000);
  const only = values.only?.split(',');
  const rows: string[] = [
    '| format | records | seconds | Locations/s | CPU s | peak RSS MiB |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const f of FORMATS) {
    if (only !== undefined && !only.includes(f.name)) continue;
    const file = await ensureFormatFile(f, size);
    const db = join(CACHE, `import-formats-${process.pid}.db`);
    const args = [file, db, '--format', f.name, ...(values.workers !== undefined ? ['--workers', values.workers] : [])];
    // The same child and heap limit as the bench's import (bench/run.ts runImport).
    const child = startChild('bench/import-child.ts', args, ['--max-old-space-size=4096']);
    const r = (await child.next()) as unknown as ImportChildReport;
    await child.exited;
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${db}${suffix}`, { force: true });
    const row = `| ${f.name} | ${r.records.toLocaleString('en-US')} | ${r.seconds.toFixed(1)} | ${Math.round(r.locationsPerSecond).toLocaleString('en-US')} | ${r.cpuSeconds.toFixed(1)} | ${(r.maxRssKiB / 1024).toFixed(0)} |`;
    process.stdout.write(`${row}\n`);
    rows.push(row);
  }
  process.stdout.write(`\n${rows.join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
