/**
 * schema.org `amenityFeature` (LocationFeatureSpecification) → UCP amenities.
 *
 * A feature counts when its `value` is true (`true`, `"true"`, or absent — the feature is then
 * simply listed); `false` says the amenity is absent and is skipped. Its id comes from
 * `propertyID` when that is a reverse-domain name (`com.example.amenity.car_wash`), otherwise from
 * its `name` through the table below (matched ignoring case, spaces and punctuation). The
 * description is the feature's name as written. A feature that maps to no id is skipped with a
 * warning naming it, so an operator can add a `propertyID`.
 */
import type { Amenities } from '../domain/location.js';
import { isReverseDomainName } from '../protocol/names.js';
import { describeType, isPlainObject } from './fields.js';
import type { FieldIssue } from './issues.js';

/** Folded feature name → UCP amenity id. Documented in docs/data-format.md (JSON-LD). */
export const FEATURE_AMENITIES: Readonly<Record<string, string>> = {
  parking: 'dev.ucp.amenity.parking',
  freeparking: 'dev.ucp.amenity.parking',
  parkinglot: 'dev.ucp.amenity.parking',
  carpark: 'dev.ucp.amenity.parking',
  wifi: 'dev.ucp.amenity.wi_fi',
  freewifi: 'dev.ucp.amenity.wi_fi',
  wirelessinternet: 'dev.ucp.amenity.wi_fi',
  wheelchairaccessible: 'dev.ucp.amenity.wheelchair_accessible',
  wheelchairaccessibility: 'dev.ucp.amenity.wheelchair_accessible',
  wheelchairaccessibleentrance: 'dev.ucp.amenity.wheelchair_accessible',
  restroom: 'dev.ucp.amenity.restroom',
  restrooms: 'dev.ucp.amenity.restroom',
  toilets: 'dev.ucp.amenity.restroom',
  drivethrough: 'dev.ucp.amenity.drive_through',
  drivethru: 'dev.ucp.amenity.drive_through',
  evcharging: 'dev.ucp.amenity.ev_charging',
  electricvehiclecharging: 'dev.ucp.amenity.ev_charging',
  atm: 'dev.ucp.amenity.atm',
  curbsidepickup: 'dev.ucp.amenity.curbside_pickup',
};

function fold(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

function isTrue(value: unknown): boolean | undefined {
  if (value === undefined || value === true) return true;
  if (value === false) return false;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true';
  return undefined;
}

export function amenitiesOf(value: unknown, issues: FieldIssue[], warnings: FieldIssue[]): Amenities | undefined {
  if (value === undefined) return undefined;
  const features = Array.isArray(value) ? value : [value];
  const out: Amenities = {};
  features.forEach((feature, i) => {
    const field = Array.isArray(value) ? `amenityFeature[${i}]` : 'amenityFeature';
    if (!isPlainObject(feature)) {
      issues.push({ field, message: `must be a LocationFeatureSpecification object {"name": …, "value": true}, got ${describeType(feature)}` });
      return;
    }
    const name = typeof feature['name'] === 'string' ? feature['name'].trim() : '';
    const present = isTrue(feature['value']);
    if (present === undefined) {
      warnings.push({ field: `${field}.value`, message: `${describeType(feature['value'])} is not true or false; the feature is skipped` });
      return;
    }
    if (!present) return;
    const property = typeof feature['propertyID'] === 'string' ? feature['propertyID'].trim() : '';
    const id = isReverseDomainName(property) ? property : FEATURE_AMENITIES[fold(name)];
    if (id === undefined) {
      warnings.push({ field, message: `no amenity id for the feature ${JSON.stringify(name || property)}; it is skipped (give a propertyID such as "com.example.amenity.${fold(name) || 'name'}")` });
      return;
    }
    if (name === '' && out[id] !== undefined) return;
    out[id] = { description: name || id };
  });
  return Object.keys(out).length > 0 ? out : undefined;
}
