/**
 * The places of the demo dataset: `data/demo-places.csv`, one row per Location (id, locality,
 * country, neighbourhood, street, postal code, the neighbourhood's centre). Every demo record's
 * address comes from its row and its coordinates lie near the row's centre, so what a model reads
 * back to a buyer ("Meridian Market Harlem, W 125th St, 10027") agrees with itself and with a map.
 * The generator (scripts/generate-demo.ts) reads it; test/scripts/demo-data.test.ts checks the
 * dataset against it.
 */
import { readFileSync } from 'node:fs';

export interface DemoPlace {
  id: string;
  locality: string;
  country: string;
  neighbourhood: string;
  street: string;
  /** '' where the country has no postal codes (Fiji, Samoa). */
  postalCode: string;
  latitude: number;
  longitude: number;
}

export const DEMO_PLACES_FILE = new URL('../data/demo-places.csv', import.meta.url);

const COLUMNS = ['id', 'locality', 'country', 'neighbourhood', 'street', 'postal_code', 'latitude', 'longitude'];

/** The rows of data/demo-places.csv (plain comma-separated cells: the table quotes nothing). */
export function readDemoPlaces(file: URL | string = DEMO_PLACES_FILE): DemoPlace[] {
  const [header, ...lines] = readFileSync(file, 'utf8').trimEnd().split('\n');
  if (header !== COLUMNS.join(',')) throw new Error(`demo-places.csv must start with the header ${COLUMNS.join(',')}`);
  return lines.map((line, i) => {
    const cells = line.split(',');
    const [id, locality, country, neighbourhood, street, postalCode, latitude, longitude] = cells;
    if (
      cells.length !== COLUMNS.length ||
      id === undefined ||
      locality === undefined ||
      country === undefined ||
      neighbourhood === undefined ||
      street === undefined ||
      postalCode === undefined ||
      latitude === undefined ||
      longitude === undefined ||
      line.includes('"')
    ) {
      throw new Error(`demo-places.csv:${i + 2}: expected ${COLUMNS.length} unquoted cells, got ${JSON.stringify(line)}`);
    }
    return { id, locality, country, neighbourhood, street, postalCode, latitude: Number(latitude), longitude: Number(longitude) };
  });
}
