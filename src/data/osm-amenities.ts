/**
 * Which OpenStreetMap tags become which UCP amenities. The default table maps only tags whose
 * meaning is a plain yes/no feature a buyer filters by: Wi-Fi to the id UCP defines, the rest
 * under an amenity namespace (amenity-namespace.ts; `org.openstreetmap` unless the operator names
 * their own). `--amenity-map <file>` adds entries, replaces them, or switches one off with `null`.
 */
import { readFile } from 'node:fs/promises';
import { ConfigError } from '../errors.js';
import { isReverseDomainName } from '../protocol/names.js';
import { namespacedAmenity, OSM_AMENITY_NAMESPACE, UCP_AMENITIES } from './amenity-namespace.js';
import { describeType, isPlainObject } from './fields.js';

export interface AmenityTarget {
  id: string;
  description: string;
}

/** `tag=value` → amenity, or null for "never map this one". */
export type AmenityMap = Readonly<Record<string, AmenityTarget | null>>;

/** `tag=value` → the UCP id, or the feature named under the namespace. Documented in docs/data-format.md (OpenStreetMap). */
const OSM_FEATURES: Readonly<Record<string, { ucp: string; description: string } | { feature: string; description: string }>> = {
  'internet_access=wlan': { ucp: UCP_AMENITIES.wi_fi, description: 'Wi-Fi' },
  'internet_access=yes': { ucp: UCP_AMENITIES.wi_fi, description: 'Wi-Fi' },
  'wheelchair=yes': { feature: 'wheelchair_accessible', description: 'Wheelchair accessible' },
  'drive_through=yes': { feature: 'drive_through', description: 'Drive-through' },
  'toilets=yes': { feature: 'restroom', description: 'Restrooms' },
  'atm=yes': { feature: 'atm', description: 'ATM' },
  'takeaway=yes': { feature: 'takeaway', description: 'Takeaway' },
  'delivery=yes': { feature: 'delivery', description: 'Delivery' },
};

/** The default table, with features UCP does not define named under `namespace`. */
export function defaultOsmAmenities(namespace: string = OSM_AMENITY_NAMESPACE): AmenityMap {
  return Object.fromEntries(
    Object.entries(OSM_FEATURES).map(([tag, t]) => [
      tag,
      { id: 'ucp' in t ? t.ucp : namespacedAmenity(namespace, t.feature), description: t.description },
    ]),
  );
}

export const DEFAULT_OSM_AMENITIES: AmenityMap = defaultOsmAmenities();

/** A table by tag key, then value: a feature's tags are looked up, not every tag split and joined. */
type AmenityIndex = ReadonlyMap<string, ReadonlyMap<string, AmenityTarget>>;
const indexes = new WeakMap<AmenityMap, AmenityIndex>();

function indexOf(map: AmenityMap): AmenityIndex {
  let index = indexes.get(map);
  if (index === undefined) {
    const built = new Map<string, Map<string, AmenityTarget>>();
    for (const [entry, target] of Object.entries(map)) {
      if (target === null) continue;
      const at = entry.indexOf('=');
      const key = entry.slice(0, at);
      let values = built.get(key);
      if (values === undefined) built.set(key, (values = new Map<string, AmenityTarget>()));
      values.set(entry.slice(at + 1), target);
    }
    index = built;
    indexes.set(map, index);
  }
  return index;
}

/** The amenities of a feature's tags; a tag value list (`wlan;terminal`) matches on any member. */
export function amenitiesOf(tags: Readonly<Record<string, string>>, map: AmenityMap): Record<string, { description: string }> | undefined {
  let out: Record<string, { description: string }> | undefined;
  for (const [key, values] of indexOf(map)) {
    const raw = tags[key];
    if (raw === undefined) continue;
    for (const value of raw.includes(';') ? raw.split(';').map((v) => v.trim()) : [raw]) {
      const target = values.get(value);
      if (target === undefined) continue;
      out ??= {};
      out[target.id] ??= { description: target.description };
    }
  }
  return out;
}

/**
 * The default table with a JSON file's entries on top: `{"tag=value": {"id": "…", "description": "…"}
 * | null}`. Every problem is a usage error naming the file and the entry.
 */
export async function loadAmenityMap(file: string, namespace: string = OSM_AMENITY_NAMESPACE): Promise<AmenityMap> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(`--amenity-map ${JSON.stringify(file)}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const where = `--amenity-map ${JSON.stringify(file)}`;
  if (!isPlainObject(parsed)) throw new ConfigError(`${where}: must be a JSON object of "tag=value" keys, got ${describeType(parsed)}`);
  const map: Record<string, AmenityTarget | null> = { ...defaultOsmAmenities(namespace) };
  for (const [key, entry] of Object.entries(parsed)) {
    if (!/^[^=\s]+=[^=;]+$/.test(key)) throw new ConfigError(`${where}: key ${JSON.stringify(key)} must be "tag=value", e.g. "wheelchair=yes"`);
    if (entry === null) {
      map[key] = null;
      continue;
    }
    if (!isPlainObject(entry) || typeof entry['id'] !== 'string' || typeof entry['description'] !== 'string' || entry['description'].trim() === '') {
      throw new ConfigError(`${where}: ${JSON.stringify(key)} must be {"id": "com.example.amenity.x", "description": "…"} or null, got ${describeType(entry)}`);
    }
    if (!isReverseDomainName(entry['id'])) {
      throw new ConfigError(`${where}: ${JSON.stringify(key)} id ${JSON.stringify(entry['id'])} is not a reverse-domain name such as "com.example.amenity.car_wash"`);
    }
    map[key] = { id: entry['id'], description: entry['description'] };
  }
  return map;
}
