/**
 * The query mix. Every instance is drawn from a seeded generator: centres from the same
 * population-weighted places the Locations come from (so a query lands where shops are, as real
 * traffic does), instants spread over the second half of 2026 with extra weight on the dates the
 * dataset has exceptions for, and lookup ids from the dataset itself (canonical ids, aliases,
 * duplicates and unknown ids).
 */
import type { Geo } from '../../src/domain/location.js';
import type { LookupRequest, SearchRequest } from '../../src/domain/requests.js';
import { AMENITIES, BRANDS, CATEGORIES } from './catalog.js';
import { samplePlace, scatter } from './cities.js';
import { generateRecord } from './dataset.js';
import { Rng, itemAt } from './rng.js';
import type { Instance, QueryDef } from './types.js';

export const QUERIES: readonly QueryDef[] = [
  { name: 'radius-2km', label: 'distance ≤ 2 km', op: 'search', text: false, floor: true },
  { name: 'radius-10km', label: 'distance ≤ 10 km', op: 'search', text: false, floor: true },
  { name: 'radius-50km', label: 'distance ≤ 50 km', op: 'search', text: false, floor: true },
  { name: 'radius-hours-amenity', label: 'distance ≤ 10 km + open_at + 1–2 amenities', op: 'search', text: false, floor: true },
  { name: 'serves-point', label: 'serves.point (radius and area coverage)', op: 'search', text: false, floor: false },
  { name: 'text', label: 'free text only (bounded browse by relevance)', op: 'search', text: true, floor: false },
  { name: 'text-radius', label: 'free text + distance ≤ 10 km', op: 'search', text: true, floor: false },
  { name: 'browse', label: 'bounded browse: amenity + open_at, no spatial operand', op: 'search', text: false, floor: false },
  { name: 'paging-5', label: 'distance ≤ 50 km, 5 pages of 10 via cursors (time for all 5)', op: 'search', text: false, floor: false },
  { name: 'lookup-1', label: 'lookup, 1 id', op: 'lookup', text: false, floor: false },
  { name: 'lookup-10', label: 'lookup, 10 ids (aliases, duplicates, unknown ids)', op: 'lookup', text: false, floor: false },
  { name: 'lookup-50', label: 'lookup, 50 ids (aliases, duplicates, unknown ids)', op: 'lookup', text: false, floor: false },
];

/** The query the headline ratios are about. */
export const HEADLINE_QUERY = 'radius-hours-amenity';
/** The query the growth ratio (10k → 1M) is about. */
export const GROWTH_QUERY = 'radius-10km';

const DAY_MS = 86_400_000;
const WINDOW_START = Date.UTC(2026, 5, 1); // 2026-06-01
const WINDOW_END = Date.UTC(2027, 0, 10); // 2027-01-10
/** Dates the dataset has exceptions on (UTC midnight; local dates differ by up to a day). */
const SPECIAL_DATES = ['2026-08-05', '2026-11-26', '2026-12-24', '2026-12-25', '2026-12-31', '2027-01-01'].map((d) =>
  Date.parse(`${d}T00:00:00Z`),
);
const OFFSETS_MIN = [0, 0, 60, -300, 330, 540, -180];

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** RFC 3339 with the given offset from UTC in minutes (0 → `Z`). Whole seconds. */
export function formatInstant(epochMs: number, offsetMin: number): string {
  const local = new Date(epochMs + offsetMin * 60_000);
  const date = `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}`;
  const time = `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`;
  if (offsetMin === 0) return `${date}T${time}Z`;
  const sign = offsetMin < 0 ? '-' : '+';
  const abs = Math.abs(offsetMin);
  return `${date}T${time}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

function openAt(rng: Rng): string {
  const base = rng.chance(0.3)
    ? rng.pick(SPECIAL_DATES) + rng.int(DAY_MS / 1000) * 1000
    : WINDOW_START + rng.int((WINDOW_END - WINDOW_START) / 1000) * 1000;
  return formatInstant(base, rng.pick(OFFSETS_MIN));
}

function center(rng: Rng): Geo {
  return scatter(rng, samplePlace(rng));
}

function amenities(rng: Rng, max: number): string[] {
  // Draw from the commoner half so a filtered radius query still has work to do.
  const common = AMENITIES.filter((a) => a.prevalence >= 0.15);
  const n = 1 + rng.int(max);
  return rng.distinct(n, common.length).map((k) => itemAt(common, k).id);
}

/** A word with one edit (drop, swap or double a letter) for typo-tolerant text queries. */
function typo(rng: Rng, word: string): string {
  if (word.length < 6) return word;
  const i = 1 + rng.int(word.length - 3);
  switch (rng.int(3)) {
    case 0:
      return word.slice(0, i) + word.slice(i + 1);
    case 1:
      return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
    default:
      return word.slice(0, i) + word[i] + word.slice(i);
  }
}

function textQuery(rng: Rng): string {
  const category = rng.pick(CATEGORIES);
  const word = rng.pick(category.keywords);
  switch (rng.int(5)) {
    case 0:
      return word;
    case 1:
      return `${rng.pick(BRANDS)} ${category.title}`.toLowerCase();
    case 2:
      return typo(rng, word);
    case 3:
      return `${word} ${samplePlace(rng).name}`;
    default:
      return category.title;
  }
}

/** Request ids for a lookup of `n` entries against a dataset of `size` records. */
function lookupIds(rng: Rng, seed: string, size: number, n: number): string[] {
  const ids: string[] = [];
  while (ids.length < n) {
    const r = rng.next();
    if (r < 0.08) {
      ids.push(`loc-missing-${rng.int(1e6)}`);
      continue;
    }
    if (r < 0.14 && ids.length > 0) {
      ids.push(rng.pick(ids)); // duplicate
      continue;
    }
    const record = generateRecord(seed, rng.int(size));
    const aliases = record.aliases ?? [];
    ids.push(aliases.length > 0 && rng.chance(0.5) ? rng.pick(aliases) : record.id);
  }
  return ids;
}

function makeInstance(query: QueryDef, rng: Rng, seed: string, size: number): Instance {
  const search = (request: SearchRequest, pages = 1): Instance => ({ op: 'search', request, pages });
  const lookup = (request: LookupRequest): Instance => ({ op: 'lookup', request });
  switch (query.name) {
    case 'radius-2km':
      return search({ distance: { center: center(rng), max: 2000 } });
    case 'radius-10km':
      return search({ distance: { center: center(rng), max: 10_000 } });
    case 'radius-50km':
      return search({ distance: { center: center(rng), max: 50_000 } });
    case 'radius-hours-amenity':
      return search({
        distance: { center: center(rng), max: 10_000 },
        filters: { hours: { open_at: openAt(rng) }, amenities: amenities(rng, 2) },
      });
    case 'serves-point':
      return search({ serves: { point: center(rng) } });
    case 'text':
      return search({ query: textQuery(rng) });
    case 'text-radius':
      return search({ query: textQuery(rng), distance: { center: center(rng), max: 10_000 } });
    case 'browse':
      return search({ filters: { amenities: amenities(rng, 1), hours: { open_at: openAt(rng) } } });
    case 'paging-5':
      return search({ distance: { center: center(rng), max: 50_000 }, pagination: { limit: 10 } }, 5);
    case 'lookup-1':
      return lookup({ ids: lookupIds(rng, seed, size, 1) });
    case 'lookup-10':
      return lookup({ ids: lookupIds(rng, seed, size, 10) });
    case 'lookup-50':
      return lookup({ ids: lookupIds(rng, seed, size, 50) });
    default:
      throw new Error(`unknown query kind ${query.name}`);
  }
}

/**
 * `count` instances of `query` for a dataset of `size` records. The same (seed, query, size)
 * always gives the same instances; centres do not depend on the size, ids do.
 */
export function makeInstances(query: QueryDef, seed: string, size: number, count: number): Instance[] {
  const rng = new Rng(`${seed}/queries/${query.name}`);
  return Array.from({ length: count }, () => makeInstance(query, rng, seed, size));
}
