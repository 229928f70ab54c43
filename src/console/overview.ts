/** The overview page: what the dataset holds, by the numbers. */
import type { LocationStore, StoreStats } from '../store/store.js';
import type { Dataset } from './dataset.js';

export interface Tally {
  key: string;
  count: number;
}

export interface LastImport {
  at: string;
  source: string;
  locations: number;
  publicLocations: number;
  availability: number;
  generation: number;
  files: { file: string; format: string; records: number }[];
}

export interface Overview {
  store: string;
  stats: StoreStats;
  counts: { public: number; private: number; withoutGeo: number };
  countries: Tally[];
  timezones: Tally[];
  coverage: { radius: number; areas: number; none: number; postalCountries: string[]; regionCountries: string[] };
  amenities: Tally[];
  inventory: { items: number; availableRows: number; generation: number };
  lastImport: LastImport | null;
}

function tally(values: Iterable<string | null>): Tally[] {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v ?? '(none)', (counts.get(v ?? '(none)') ?? 0) + 1);
  return [...counts].map(([key, count]) => ({ key, count })).sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : 1));
}

export async function overview(store: LocationStore, dataset: Dataset, lastImport: LastImport | null): Promise<Overview> {
  const stats = await store.stats();
  const model = await store.localityModel();
  const locs = dataset.locations;
  return {
    store: store.kind,
    stats,
    counts: {
      public: stats.publicLocations,
      private: stats.locations - stats.publicLocations,
      withoutGeo: locs.filter((l) => l.geo === null).length,
    },
    countries: tally(locs.map((l) => l.country)),
    timezones: tally(locs.map((l) => l.timezone)),
    coverage: {
      radius: locs.filter((l) => l.coverage?.radius_m !== undefined).length,
      areas: locs.filter((l) => (l.coverage?.areas?.length ?? 0) > 0).length,
      none: locs.filter((l) => l.coverage === null).length,
      postalCountries: [...model.postalCountries].sort(),
      regionCountries: [...model.regionCountries].sort(),
    },
    amenities: tally(locs.flatMap((l) => l.amenities)),
    inventory: { items: stats.items, availableRows: stats.availableRows, generation: stats.generation },
    lastImport,
  };
}
