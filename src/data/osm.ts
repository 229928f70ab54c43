/**
 * `--format osm`: a GeoJSON FeatureCollection of OpenStreetMap elements (an Overpass turbo or
 * osmtogeojson export, an osmium export) turned into location records.
 *
 * Tags are read from `properties.tags` when it is an object (osmtogeojson's nested shape), else
 * from `properties` itself (the flat shape, where keys starting with "@" are metadata). The element
 * id comes from the feature `id`, `properties["@id"]`, `properties.type` + `properties.id` or
 * `properties.osm_type` + `properties.osm_id`, in `node/123`, `n123` or numeric form.
 *
 * Ids: `osm-<type>-<number>` (`osm-node-123`), stable for as long as the element exists in
 * OpenStreetMap; with `idTag` the value of that tag instead (every feature must carry it), and the
 * OSM-derived id becomes an alias so it still resolves.
 *
 * The time zone is not set here: the import pipeline derives it from `geo` for this format.
 */
import type { DailyHour, ExceptionHour, PostalAddress } from '../domain/location.js';
import { elementAt } from '../protocol/guards.js';
import { describeType, isPlainObject } from './fields.js';
import type { FieldIssue } from './issues.js';
import { amenitiesOf, DEFAULT_OSM_AMENITIES, type AmenityMap } from './osm-amenities.js';
import { osmOpeningHours } from './osm-hours.js';
import { group } from './match-group.js';

export interface OsmOptions {
  /** Tag whose value is the Location id (e.g. `ref:store`); default: the OSM element id. */
  idTag?: string;
  amenityMap?: AmenityMap;
  /** Epoch ms of the import; the holiday horizon starts on its date. */
  now: number;
  /** Days of public holidays and dated rules written as exception_hours. */
  holidayHorizonDays: number;
}

export const DEFAULT_HOLIDAY_HORIZON_DAYS = 365;

export interface OsmConversion {
  raw?: Record<string, unknown>;
  issues: FieldIssue[];
  warnings: FieldIssue[];
}

const ELEMENT_TYPES: Readonly<Record<string, string>> = { n: 'node', w: 'way', r: 'relation', node: 'node', way: 'way', relation: 'relation' };

/** `node/123`, `n123`, `way/5` … → `node/123`; numbers need the type given beside them. */
function elementId(value: unknown, type?: unknown): string | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && typeof type === 'string') {
    const t = ELEMENT_TYPES[type.toLowerCase()];
    return t === undefined ? undefined : `${t}/${Math.abs(value)}`;
  }
  if (typeof value !== 'string') return undefined;
  const m = /^(node|way|relation|[nwr])\/?(\d+)$/i.exec(value.trim());
  if (m === null) return /^\d+$/.test(value.trim()) && typeof type === 'string' ? elementId(Number(value), type) : undefined;
  return `${ELEMENT_TYPES[group(m, 1).toLowerCase()]}/${m[2]}`;
}

function elementOf(feature: Record<string, unknown>, props: Record<string, unknown>): string | undefined {
  return (
    elementId(feature['id']) ??
    elementId(props['@id'], props['@type']) ??
    elementId(props['id'], props['type']) ??
    elementId(props['osm_id'], props['osm_type'])
  );
}

/** Countries whose street addresses put the house number first ("100 Broadway"); elsewhere it follows the street. */
const NUMBER_FIRST = new Set(['US', 'CA', 'GB', 'IE', 'AU', 'NZ', 'FR', 'ZA', 'IN', 'SG', 'MY', 'PH']);

function firstOf(value: string | undefined): string | undefined {
  const v = value?.split(';')[0]?.trim();
  return v === undefined || v === '' ? undefined : v;
}

function addressOf(tags: Readonly<Record<string, string>>): PostalAddress | undefined {
  const country = firstOf(tags['addr:country'])?.toUpperCase();
  const street = firstOf(tags['addr:street']) ?? firstOf(tags['addr:place']);
  const number = firstOf(tags['addr:housenumber']);
  const address: PostalAddress = {};
  if (street !== undefined) {
    address.street_address = number === undefined ? street : NUMBER_FIRST.has(country ?? '') ? `${number} ${street}` : `${street} ${number}`;
  }
  const unit = firstOf(tags['addr:unit']);
  if (unit !== undefined) address.extended_address = unit;
  const locality = firstOf(tags['addr:city']) ?? firstOf(tags['addr:town']) ?? firstOf(tags['addr:village']);
  if (locality !== undefined) address.address_locality = locality;
  const region = firstOf(tags['addr:state']) ?? firstOf(tags['addr:province']);
  if (region !== undefined) address.address_region = region;
  const postcode = firstOf(tags['addr:postcode']);
  if (postcode !== undefined) address.postal_code = postcode;
  if (country !== undefined) address.address_country = country;
  const phone = firstOf(tags['phone']) ?? firstOf(tags['contact:phone']);
  if (phone !== undefined) address.phone_number = phone;
  return Object.keys(address).length > 0 ? address : undefined;
}

/** Search terms: brand and the element's categories (`shop=supermarket` → "supermarket"). */
function keywordsOf(tags: Readonly<Record<string, string>>): string[] | undefined {
  const out = new Set<string>();
  const brand = firstOf(tags['brand']);
  if (brand !== undefined) out.add(brand);
  for (const key of ['shop', 'amenity', 'craft', 'cuisine']) {
    for (const v of (tags[key] ?? '').split(';')) {
      const word = v.trim().replace(/_/g, ' ');
      if (word !== '' && word !== 'yes') out.add(word);
    }
  }
  return out.size > 0 ? [...out] : undefined;
}

/**
 * Planar centroid of a closed ring in lon/lat (shoelace), computed relative to the first vertex so
 * that a building-sized ring keeps its precision; the vertex mean when the ring has no area.
 */
function ringCentroid(ring: readonly (readonly [number, number])[]): { lon: number; lat: number; area: number } | undefined {
  const origin = ring[0];
  if (origin === undefined) return undefined;
  const [ox, oy] = origin;
  let a = 0;
  let cx = 0;
  let cy = 0;
  let sx = 0;
  let sy = 0;
  for (const [i, [px, py]] of ring.entries()) {
    const [qx, qy] = elementAt(ring, (i + 1) % ring.length);
    const x0 = px - ox;
    const y0 = py - oy;
    const x1 = qx - ox;
    const y1 = qy - oy;
    const cross = x0 * y1 - x1 * y0;
    a += cross;
    cx += (x0 + x1) * cross;
    cy += (y0 + y1) * cross;
    sx += x0;
    sy += y0;
  }
  if (a === 0) return { lon: ox + sx / ring.length, lat: oy + sy / ring.length, area: 0 };
  return { lon: ox + cx / (3 * a), lat: oy + cy / (3 * a), area: Math.abs(a / 2) };
}

function isPosition(p: unknown): p is [number, number] {
  return Array.isArray(p) && p.length >= 2 && typeof p[0] === 'number' && typeof p[1] === 'number' && Number.isFinite(p[0]) && Number.isFinite(p[1]);
}

function outerRing(polygon: unknown): [number, number][] | undefined {
  if (!Array.isArray(polygon)) return undefined;
  const ring: unknown = polygon[0];
  if (!Array.isArray(ring) || ring.length < 4 || !ring.every(isPosition)) return undefined;
  return ring;
}

/**
 * A representative point: the Point itself, or the area-weighted centroid of the outer rings of a
 * (Multi)Polygon (a building's footprint). Holes are ignored: for a footprint they move the point
 * by little, and the point only has to stand for where the Location is.
 */
function pointOf(geometry: unknown): { geo?: { latitude: number; longitude: number }; issue?: FieldIssue } {
  if (geometry === null || geometry === undefined) return {};
  if (!isPlainObject(geometry)) return { issue: { field: 'geometry', message: `must be a GeoJSON geometry object or null, got ${describeType(geometry)}` } };
  const type = geometry['type'];
  const coords = geometry['coordinates'];
  if (type === 'Point') {
    if (!isPosition(coords)) return { issue: { field: 'geometry.coordinates', message: `must be [longitude, latitude], got ${describeType(coords)}` } };
    return { geo: { latitude: coords[1], longitude: coords[0] } };
  }
  if (type === 'Polygon' || type === 'MultiPolygon') {
    const polygons: unknown[] = type === 'Polygon' ? [coords] : Array.isArray(coords) ? coords : [];
    let area = 0;
    let lon = 0;
    let lat = 0;
    let fallback: { lon: number; lat: number } | undefined;
    for (const polygon of polygons) {
      const ring = outerRing(polygon);
      const c = ring === undefined ? undefined : ringCentroid(ring);
      if (c === undefined) return { issue: { field: 'geometry.coordinates', message: `each ${type} ring must be a closed list of at least 4 [longitude, latitude] positions` } };
      fallback ??= c;
      area += c.area;
      lon += c.lon * c.area;
      lat += c.lat * c.area;
    }
    if (fallback === undefined) return { issue: { field: 'geometry.coordinates', message: `a ${type} needs at least one ring` } };
    return { geo: area > 0 ? { latitude: lat / area, longitude: lon / area } : { latitude: fallback.lat, longitude: fallback.lon } };
  }
  return { issue: { field: 'geometry', message: `must be a Point, Polygon or MultiPolygon (or null), got type ${describeType(type)}` } };
}

/** Tags as strings; the flat shape's metadata ("@id", "@type", …) and non-string values are not tags. */
function tagsOf(props: Record<string, unknown>): { tags: Record<string, string>; prefix: string } {
  const nested = props['tags'];
  const source = isPlainObject(nested) ? nested : props;
  const tags: Record<string, string> = {};
  for (const [k, v] of Object.entries(source)) {
    if (k.startsWith('@') || (source === props && (k === 'id' || k === 'tags' || k === 'meta'))) continue;
    if (typeof v === 'string' && v.trim() !== '') tags[k] = v.trim();
    else if (typeof v === 'number') tags[k] = String(v);
  }
  return { tags, prefix: isPlainObject(nested) ? 'properties.tags' : 'properties' };
}

/** One feature → a raw record (validated afterwards like any other), with its problems and warnings. */
export function osmFeatureToRaw(feature: unknown, options: OsmOptions): OsmConversion {
  const issues: FieldIssue[] = [];
  const warnings: FieldIssue[] = [];
  if (!isPlainObject(feature) || feature['type'] !== 'Feature') {
    return { issues: [{ field: '', message: `each element of "features" must be a GeoJSON Feature object, got ${isPlainObject(feature) ? `type ${describeType(feature['type'])}` : describeType(feature)}` }], warnings };
  }
  const props = feature['properties'];
  if (!isPlainObject(props)) return { issues: [{ field: 'properties', message: `must be an object of OpenStreetMap tags, got ${describeType(props)}` }], warnings };
  const { tags, prefix } = tagsOf(props);
  const tagField = (tag: string): string => `${prefix}.${tag}`;
  const raw: Record<string, unknown> = {};

  const element = elementOf(feature, props);
  const osmId = element === undefined ? undefined : `osm-${element.replace('/', '-')}`;
  if (options.idTag !== undefined) {
    const id = firstOf(tags[options.idTag]);
    if (id === undefined) issues.push({ field: tagField(options.idTag), about: 'id', message: `is missing; with --id-tag ${options.idTag} every feature needs that tag (it becomes the Location id)` });
    else raw['id'] = id;
    if (osmId !== undefined && osmId !== id) raw['aliases'] = [osmId];
  } else if (osmId === undefined) {
    issues.push({ field: 'id', about: 'id', message: 'the feature names no OpenStreetMap element (a feature id or properties "@id" such as "node/123"); give one, or choose an id tag with --id-tag ref' });
  } else {
    raw['id'] = osmId;
  }

  const name = tags['name'] ?? tags['brand'];
  if (name === undefined) issues.push({ field: tagField('name'), about: 'name', message: 'is missing (and there is no brand tag to use instead); every Location needs a name' });
  else raw['name'] = name;

  const address = addressOf(tags);
  if (address !== undefined) raw['address'] = address;
  const { geo, issue } = pointOf(feature['geometry']);
  if (issue !== undefined) issues.push(issue);
  if (geo !== undefined) raw['geo'] = geo;
  const amenities = amenitiesOf(tags, options.amenityMap ?? DEFAULT_OSM_AMENITIES);
  if (amenities !== undefined) raw['amenities'] = amenities;
  const keywords = keywordsOf(tags);
  if (keywords !== undefined) raw['keywords'] = keywords;

  const value = tags['opening_hours'];
  if (value !== undefined) {
    if (geo === undefined && issue === undefined) {
      issues.push({ field: 'geometry', message: 'is null, but opening_hours needs the Location\'s time zone, which is derived from its coordinates (it is never guessed); give the feature a geometry' });
    } else if (geo !== undefined) {
      const schedule = scheduleOf(value, tags, options);
      if ('reason' in schedule) warnings.push({ field: tagField('opening_hours'), message: `${JSON.stringify(value)} is not imported (${schedule.reason}); the Location is imported without hours` });
      else Object.assign(raw, schedule);
    }
  }
  return { raw, issues, warnings };
}

/** First local date of the holiday horizon: the day before the import's UTC date, so "today" is covered in every zone. */
export function osmStartDay(now: number): number {
  return Math.floor(now / 86_400_000) - 1;
}

function scheduleOf(value: string, tags: Readonly<Record<string, string>>, options: OsmOptions): { hours: DailyHour[]; exception_hours?: ExceptionHour[] } | { reason: string } {
  const startDay = osmStartDay(options.now);
  const result = osmOpeningHours(
    value,
    { country: firstOf(tags['addr:country']), state: firstOf(tags['addr:state']) },
    { startDay, horizonDays: options.holidayHorizonDays + 2 },
  );
  if (!result.ok) return { reason: result.reason };
  return result.exception_hours === undefined ? { hours: result.hours } : { hours: result.hours, exception_hours: result.exception_hours };
}

/** Record paths shown as the OpenStreetMap data they came from. */
export function osmFieldOf(field: string): string {
  if (field === 'geo' || field.startsWith('geo.')) return 'geometry';
  if (field.startsWith('hours') || field.startsWith('exception_hours')) return 'opening_hours';
  if (field === 'timezone') return 'timezone (derived from the geometry)';
  return field;
}
