/**
 * The console's read model of a dataset: every public Location with what the map, the overview
 * and the hours page show, read through the service (LocationService.publicDataset, one snapshot
 * of the data, on every store).
 *
 * Private Locations are never indexed for search (store/store.ts), so only their number is
 * known here (from `stats()`). The model is rebuilt when the store's generation changes.
 */
import type { Coverage, Geo, PostalAddress, Schedule } from '../domain/location.js';
import type { LocationService, PublicDataset } from '../service.js';

export interface ConsoleLocation {
  /** The store's internal key (stable within a generation). */
  key: number;
  id: string;
  name: string;
  geo: Geo | null;
  timezone: string | null;
  country: string | null;
  region: string | null;
  locality: string | null;
  amenities: string[];
  /** The address on one line ("1 Main St, New York, NY 10001, US"); null without a street address. */
  address: string | null;
  /** The coverage the `serves.point` test reads: a geodesic radius and/or areas. */
  coverage: Pick<Coverage, 'radius_m' | 'areas'> | null;
  /** The raw schedule, as the engine compiles it. */
  schedule: Schedule;
}

export interface Dataset {
  generation: number;
  locations: ConsoleLocation[];
  byId: Map<string, ConsoleLocation>;
  /** Amenity id → its description, as the dataset states it (the first one met). */
  amenityText: Map<string, string>;
}

/** One line: street, locality, region and postal code, country — or null when there is no street address. */
function addressLine(a: PostalAddress | undefined): string | null {
  if (a?.street_address === undefined || a.street_address.trim() === '') return null;
  const region = [a.address_region, a.postal_code].filter((p) => p !== undefined && p !== '').join(' ');
  return [a.street_address, a.extended_address, a.address_locality, region, a.address_country]
    .filter((p) => p !== undefined && p !== '')
    .join(', ');
}

function parseJson<T>(text: string | null | undefined): T | null {
  if (text === null || text === undefined) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

function readModel({ generation, rows }: PublicDataset): Dataset {
  const amenityText = new Map<string, string>();
  const locations = rows.map(({ candidate: c, document: doc }): ConsoleLocation => {
    for (const [id, a] of Object.entries(doc?.amenities ?? {})) if (!amenityText.has(id)) amenityText.set(id, a.description);
    const schedule = parseJson<Schedule>(c.schedule) ?? {};
    return {
      key: c.key,
      id: c.id,
      name: doc?.name ?? c.id,
      geo: c.geo,
      timezone: typeof schedule.timezone === 'string' ? schedule.timezone : (doc?.timezone ?? null),
      country: doc?.address?.address_country ?? null,
      region: doc?.address?.address_region ?? null,
      locality: doc?.address?.address_locality ?? null,
      amenities: Object.keys(doc?.amenities ?? {}),
      address: addressLine(doc?.address),
      coverage: parseJson<Pick<Coverage, 'radius_m' | 'areas'>>(c.coverage),
      schedule,
    };
  });
  return { generation, locations, byId: new Map(locations.map((l) => [l.id, l])), amenityText };
}

/** Keeps one read model per store generation (another process may import meanwhile). */
export class DatasetCache {
  private current: Promise<Dataset> | null = null;
  private generation = -1;

  constructor(private readonly service: LocationService) {}

  async get(): Promise<Dataset> {
    const generation = await this.service.generation();
    if (this.current === null || generation !== this.generation) {
      this.generation = generation;
      this.current = this.service.publicDataset().then(readModel);
      // A failed read must not stick: the next call tries again.
      this.current.catch(() => {
        if (this.generation === generation) this.current = null;
      });
    }
    return this.current;
  }
}
