/**
 * Synthetic Location datasets (10k, 100k, 1M, or any size) for the benchmark.
 *
 * Record `i` depends only on (seed, i): each record has its own generator, so the 10k dataset is
 * exactly the first 10 000 records of the 1M one and a size can be regenerated independently.
 * Files are NDJSON in our import format, cached per (generator version, seed, size) in the bench
 * cache directory and written through a temporary name, so an interrupted run never leaves a
 * truncated file that a later run would trust.
 */
import { createWriteStream, existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import {
  DAYS,
  type Coverage,
  type CoverageArea,
  type DailyHour,
  type Day,
  type ExceptionHour,
  type LocationRecord,
  type Position,
} from '../../src/domain/location.js';
import { AMENITIES, BRANDS, CATEGORIES, ITEM_COUNT, STREET_KINDS, STREET_WORDS, itemId } from './catalog.js';
import { round6, samplePlace, scatter, type Place } from './cities.js';
import { AliasTable, Rng, itemAt } from './rng.js';
import { zoneFor } from './timezones.js';

/** Bump when the generator's output changes, so stale cached files are not reused. */
export const GENERATOR_VERSION = 4;

export interface DatasetFile {
  size: number;
  seed: string;
  path: string;
  bytes: number;
}

const categoryTable = new AliasTable(CATEGORIES.map((c) => c.weight));
/** Zipf(1) popularity over the item catalogue: item k is drawn with weight 1/(k+1). */
const itemTable = new AliasTable(Array.from({ length: ITEM_COUNT }, (_, k) => 1 / (k + 1)));

function hhmm(minutes: number): string {
  const m = ((minutes % 1440) + 1440) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

function days(...names: Day[]): Day[] {
  return names;
}

const WEEKDAYS = days('monday', 'tuesday', 'wednesday', 'thursday', 'friday');

function every(list: readonly Day[], opens: number, closes: number): DailyHour[] {
  return list.map((day) => ({ day, opens: hhmm(opens), closes: hhmm(closes) }));
}

/**
 * Weekly schedules in the shapes real directories hold: plain retail days, split shifts,
 * overnight trading (closes < opens), 24/7 (00:00–23:59), late weekends, short weeks, a known
 * but empty week (`[]`) and unknown hours (undefined). Times vary in 30-minute steps.
 */
function weeklyHours(rng: Rng): DailyHour[] | undefined {
  const open = 420 + 30 * rng.int(6); // 07:00 … 09:30
  const close = 1020 + 30 * rng.int(9); // 17:00 … 21:00
  const r = rng.next();
  if (r < 0.3) {
    const sat = rng.chance(0.7) ? every(days('saturday'), open + 60, close - 120) : [];
    return [...every(WEEKDAYS, open, close), ...sat];
  }
  if (r < 0.45) {
    // Split shift: morning and late afternoon, Saturday morning only.
    const lunch = 780 + 30 * rng.int(2); // 13:00 or 13:30
    return [...every(WEEKDAYS, open, lunch), ...every(WEEKDAYS, lunch + 150, close + 60), ...every(days('saturday'), open, lunch)];
  }
  if (r < 0.55) {
    // Overnight every day: opens late morning, closes after midnight.
    return every(DAYS, 600 + 60 * rng.int(3), 60 + 30 * rng.int(5));
  }
  if (r < 0.63) return every(DAYS, 0, 1439); // 00:00–23:59 = whole day
  if (r < 0.78) {
    return [
      ...every(days('monday', 'tuesday', 'wednesday', 'thursday'), open, 1320),
      ...every(days('friday', 'saturday'), open, 60),
      ...every(days('sunday'), 540, 1260),
    ];
  }
  if (r < 0.9) return every(days('tuesday', 'wednesday', 'thursday', 'friday', 'saturday'), 600, close);
  if (r < 0.93) return []; // known: no regular opening (pop-up that trades on exception dates only)
  if (r < 0.95) {
    // Several entries beginning on one day that together reach past midnight.
    return [...every(WEEKDAYS, open, 720), ...every(days('friday', 'saturday'), 1080, 120)];
  }
  return undefined; // unknown schedule
}

/** Date exceptions: holidays (closures), short days, an overnight New Year's Eve, a summer closure. */
function exceptionHours(rng: Rng, weeklyKnown: boolean): ExceptionHour[] | undefined {
  const out: ExceptionHour[] = [];
  if (rng.chance(0.35)) out.push({ title: 'Christmas Day', valid_from: '2026-12-25', valid_through: '2026-12-25' });
  if (rng.chance(0.2))
    out.push({ title: 'Christmas Eve', valid_from: '2026-12-24', valid_through: '2026-12-24', opens: '09:00', closes: '14:00' });
  if (rng.chance(0.1))
    out.push({ title: "New Year's Eve", valid_from: '2026-12-31', valid_through: '2026-12-31', opens: '20:00', closes: '02:00' });
  if (rng.chance(0.05)) out.push({ title: 'Summer break', valid_from: '2026-08-03', valid_through: '2026-08-16' });
  if (rng.chance(0.05)) {
    out.push(
      { title: 'Stocktake', valid_from: '2026-11-26', valid_through: '2026-11-26', opens: '08:00', closes: '12:00' },
      { title: 'Stocktake', valid_from: '2026-11-26', valid_through: '2026-11-26', opens: '14:00', closes: '18:00' },
    );
  }
  if (rng.chance(0.03)) out.push({ valid_from: '2027-01-01', valid_through: '2027-01-01' });
  if (!weeklyKnown && out.length === 0 && rng.chance(0.5)) {
    out.push({ title: 'Winter market', valid_from: '2026-12-01', valid_through: '2026-12-23', opens: '10:00', closes: '19:00' });
  }
  return out.length > 0 ? out : undefined;
}

const KM_PER_DEG = 111.32;

/** A closed ring of `n` vertices around (lon, lat) with radius ~`km`, counter-clockwise when `ccw`. */
function ring(rng: Rng, lon: number, lat: number, km: number, n: number, ccw: boolean): Position[] {
  const cos = Math.max(0.05, Math.cos((lat * Math.PI) / 180));
  const pts: Position[] = [];
  for (let k = 0; k < n; k++) {
    const angle = ((ccw ? k : n - k) / n) * 2 * Math.PI;
    const r = km * (0.8 + 0.4 * rng.next());
    pts.push([round6(lon + (r * Math.cos(angle)) / (KM_PER_DEG * cos)), round6(lat + (r * Math.sin(angle)) / KM_PER_DEG)]);
  }
  const [first] = pts;
  if (first !== undefined) pts.push([first[0], first[1]]);
  return pts;
}

/** A delivery area around a point: an irregular polygon, sometimes with a hole or a second part. */
function area(rng: Rng, lon: number, lat: number): CoverageArea | undefined {
  const km = 2 + 6 * rng.next();
  // Keep every part well away from the antimeridian and the poles (a real feed would split it).
  const cos = Math.max(0.05, Math.cos((lat * Math.PI) / 180));
  const spanDeg = (4 * km * 1.3) / (KM_PER_DEG * cos);
  if (Math.abs(lon) + spanDeg > 179 || Math.abs(lat) > 80) return undefined;
  const outer = ring(rng, lon, lat, km, 6 + rng.int(5), true);
  const polygon: Position[][] = rng.chance(0.15) ? [outer, ring(rng, lon, lat, km * 0.3, 5, false)] : [outer];
  if (!rng.chance(0.25)) return { type: 'Polygon', coordinates: polygon };
  const east = lon + (3 * km) / (KM_PER_DEG * cos);
  return { type: 'MultiPolygon', coordinates: [polygon, [ring(rng, east, lat, km * 0.6, 6, true)]] };
}

function postalCode(place: Place, rng: Rng): string {
  return String(10000 + ((place.cityId * 7919) % 89000) + rng.int(20));
}

/**
 * The `i`-th Location record of dataset `seed`. Roughly: 2% private, 0.5% without geo, 30% with
 * aliases, hours per `weeklyHours`, 45% with exceptions, 55% with a delivery radius, 10% with
 * areas, a few with country/region/postal coverage, ~5 available items from 5 000 (Zipf).
 */
export function generateRecord(seed: string, i: number): LocationRecord {
  const rng = new Rng(`${seed}/${i}`);
  const place = samplePlace(rng);
  const geo = scatter(rng, place);
  const brand = rng.pick(BRANDS);
  const category = itemAt(CATEGORIES, categoryTable.sample(rng));
  const id = `loc-${String(i).padStart(7, '0')}`;
  const record: LocationRecord = {
    id,
    name: rng.chance(0.5) ? `${brand} ${category.title} ${place.name}` : `${brand} ${category.title}`,
  };
  const aliases: string[] = [];
  if (rng.chance(0.3)) aliases.push(`ext-${brand.toLowerCase()}-${i}`);
  if (rng.chance(0.08)) aliases.push(`gln-${String((i * 7919 + 1000003) % 1e9).padStart(9, '0')}`);
  if (aliases.length > 0) record.aliases = aliases;

  record.address = {
    street_address: `${1 + rng.int(300)} ${rng.pick(STREET_WORDS)} ${rng.pick(STREET_KINDS)}`,
    address_locality: place.name,
    ...(place.admin !== '' ? { address_region: place.admin } : {}),
    postal_code: postalCode(place, rng),
    address_country: place.country,
  };
  const hasGeo = !rng.chance(0.005);
  if (hasGeo) record.geo = geo;

  const amenities: Record<string, { description: string }> = {};
  for (const a of AMENITIES) if (rng.chance(a.prevalence)) amenities[a.id] = { description: a.description };
  if (Object.keys(amenities).length > 0) record.amenities = amenities;

  const hours = weeklyHours(rng);
  const exceptions = exceptionHours(rng, hours !== undefined && hours.length > 0);
  if (hours !== undefined || exceptions !== undefined || rng.chance(0.5)) {
    record.timezone = zoneFor(place.country, place.admin, geo.longitude, geo.latitude);
  }
  if (hours !== undefined) record.hours = hours;
  if (exceptions !== undefined) record.exception_hours = exceptions;

  if (rng.chance(0.02)) record.visibility = 'private';
  record.keywords = [...category.keywords, brand.toLowerCase()];

  const serves: Coverage = {};
  if (hasGeo && rng.chance(0.55)) serves.radius_m = rng.pick([1000, 2000, 3000, 5000, 8000, 15000]);
  if (rng.chance(0.1)) {
    const a = area(rng, geo.longitude, geo.latitude);
    if (a !== undefined) serves.areas = [a];
  }
  if (rng.chance(0.04)) serves.countries = [place.country];
  if (place.admin !== '' && rng.chance(0.05)) serves.regions = { [place.country]: [place.admin] };
  if (rng.chance(0.06))
    serves.postal_codes = { [place.country]: [postalCode(place, rng), postalCode(place, rng)].filter((v, k, l) => l.indexOf(v) === k) };
  if (Object.keys(serves).length > 0) record.serves = serves;

  if (record.visibility !== 'private') {
    const k = Math.min(12, Math.max(0, Math.round(5 + 2.5 * rng.normal())));
    const items = new Set<string>();
    for (let n = 0; n < k; n++) items.add(itemId(itemTable.sample(rng)));
    if (items.size > 0) record.items = [...items];
  }
  return record;
}

/** Records 0 … size-1 of dataset `seed`. */
export function* generateRecords(seed: string, size: number): Generator<LocationRecord> {
  for (let i = 0; i < size; i++) yield generateRecord(seed, i);
}

export function datasetPath(cacheDir: string, seed: string, size: number): string {
  return join(cacheDir, `locations-v${GENERATOR_VERSION}-${seed.replace(/[^a-zA-Z0-9_-]/g, '_')}-${size}.ndjson`);
}

/**
 * The NDJSON file of `size` records, generated unless already cached. `onProgress(done, total)`
 * is called every 50 000 records while generating.
 */
export async function ensureDataset(
  cacheDir: string,
  seed: string,
  size: number,
  onProgress?: (done: number, total: number) => void,
): Promise<DatasetFile> {
  mkdirSync(cacheDir, { recursive: true });
  const path = datasetPath(cacheDir, seed, size);
  if (!existsSync(path)) {
    const tmp = `${path}.${process.pid}.tmp`;
    const out = createWriteStream(tmp, { encoding: 'utf8', highWaterMark: 1 << 20 });
    let buffer = '';
    for (let i = 0; i < size; i++) {
      buffer += `${JSON.stringify(generateRecord(seed, i))}\n`;
      if (buffer.length > 1 << 20) {
        if (!out.write(buffer)) await once(out, 'drain');
        buffer = '';
      }
      if (onProgress !== undefined && (i + 1) % 50_000 === 0) onProgress(i + 1, size);
    }
    out.end(buffer);
    await once(out, 'finish');
    renameSync(tmp, path);
  }
  return { size, seed, path, bytes: statSync(path).size };
}
