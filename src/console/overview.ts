/** The overview page: what the dataset holds, by the numbers. */
import { compileSchedule } from '../domain/hours.js';
import type { LastImportRecord, LocationStore, StoreStats } from '../store/store.js';
import type { ConsoleLocation, Dataset } from './dataset.js';
import { statesHours } from './hours-status.js';
import { groupIssues, type GroupedIssues } from './issue-groups.js';

export interface Tally {
  key: string;
  count: number;
}

/** The last import, as the store kept it, with its warnings grouped for reading. */
export interface LastImport extends LastImportRecord {
  warningGroups: GroupedIssues;
}

/** A Location the overview points at, with a link target. */
export interface Named {
  id: string;
  name: string;
}

/** Locations needing attention: how many, and the first few by id. */
export interface Attention {
  count: number;
  first: Named[];
}

export interface Overview {
  /** Where the data lives, in words ("SQLite database", "PostgreSQL database"). */
  storage: string;
  stats: StoreStats;
  counts: { public: number; private: number; withoutGeo: number; withoutHours: number; withoutAddress: number };
  /** Public Locations an operator should look at first. */
  attention: { withoutHours: Attention; withoutGeo: Attention; withoutAddress: Attention };
  countries: Tally[];
  timezones: Tally[];
  coverage: { radius: number; areas: number; none: number; postalCountries: string[]; regionCountries: string[] };
  /** Amenity ids with the description the dataset gives them. */
  amenities: (Tally & { description: string | null })[];
  inventory: { items: number; availableRows: number };
  lastImport: LastImport | null;
}

const FIRST_SHOWN = 5;

function attention(locations: readonly ConsoleLocation[], needs: (l: ConsoleLocation) => boolean): Attention {
  const hit = locations.filter(needs);
  return { count: hit.length, first: hit.slice(0, FIRST_SHOWN).map((l) => ({ id: l.id, name: l.name })) };
}

/** No stated hours, or hours the engine cannot evaluate: such a Location never matches an open-at filter. */
function lacksUsableHours(l: ConsoleLocation): boolean {
  return !statesHours(l.schedule) || !compileSchedule(l.schedule).valid;
}

/** Compiling every schedule is the costly part of an overview: done once per dataset (generation). */
const attentionCache = new WeakMap<Dataset, Overview['attention']>();

function attentionOf(dataset: Dataset): Overview['attention'] {
  let found = attentionCache.get(dataset);
  if (found === undefined) {
    const locs = dataset.locations;
    found = {
      withoutHours: attention(locs, lacksUsableHours),
      withoutGeo: attention(locs, (l) => l.geo === null),
      withoutAddress: attention(locs, (l) => l.address === null),
    };
    attentionCache.set(dataset, found);
  }
  return found;
}

const STORAGE: Readonly<Record<string, string>> = { sqlite: 'SQLite database', postgres: 'PostgreSQL database' };

function tally(values: Iterable<string | null>): Tally[] {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v ?? '(none)', (counts.get(v ?? '(none)') ?? 0) + 1);
  return [...counts].map(([key, count]) => ({ key, count })).sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : 1));
}

export async function overview(store: LocationStore, dataset: Dataset, consoleImport: LastImportRecord | null): Promise<Overview> {
  const stats = await store.stats();
  const model = await store.localityModel();
  const locs = dataset.locations;
  // The store's record covers imports made anywhere (CLI, another console); a store without one shows this console's.
  const last = store.lastImport === undefined ? consoleImport : await store.lastImport();
  const { withoutHours, withoutGeo, withoutAddress } = attentionOf(dataset);
  return {
    storage: STORAGE[store.kind] ?? store.kind,
    stats,
    counts: {
      public: stats.publicLocations,
      private: stats.locations - stats.publicLocations,
      withoutGeo: withoutGeo.count,
      withoutHours: withoutHours.count,
      withoutAddress: withoutAddress.count,
    },
    attention: { withoutHours, withoutGeo, withoutAddress },
    countries: tally(locs.map((l) => l.country)),
    timezones: tally(locs.map((l) => l.timezone)),
    coverage: {
      radius: locs.filter((l) => l.coverage?.radius_m !== undefined).length,
      areas: locs.filter((l) => (l.coverage?.areas?.length ?? 0) > 0).length,
      none: locs.filter((l) => l.coverage === null).length,
      postalCountries: [...model.postalCountries].sort(),
      regionCountries: [...model.regionCountries].sort(),
    },
    amenities: tally(locs.flatMap((l) => l.amenities)).map((t) => ({ ...t, description: dataset.amenityText.get(t.key) ?? null })),
    inventory: { items: stats.items, availableRows: stats.availableRows },
    lastImport: last === null ? null : { ...last, warningGroups: groupIssues(last.warnings) },
  };
}
