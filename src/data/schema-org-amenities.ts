/**
 * schema.org `amenityFeature` (LocationFeatureSpecification) → UCP amenities.
 *
 * A feature counts when its `value` is true (`true`, `"true"`, or absent — the feature is then
 * simply listed); `false` says the amenity is absent and is skipped. Its id comes from
 * `propertyID` when that is a reverse-domain name (`com.example.amenity.car_wash`), otherwise from
 * its `name` through the table below (matched ignoring case, spaces and punctuation): the id UCP
 * defines for that feature, or the feature named under the amenity namespace (`org.schema` unless
 * the operator gives their own, amenity-namespace.ts). The
 * description is the feature's name as written. A feature that maps to no id is skipped with a
 * warning naming it, so an operator can add a `propertyID`.
 */
import type { Amenities } from '../domain/location.js';
import { isReverseDomainName } from '../protocol/names.js';
import { namespacedAmenity, SCHEMA_ORG_AMENITY_NAMESPACE, UCP_AMENITIES } from './amenity-namespace.js';
import { describeType, isPlainObject } from './fields.js';
import type { FieldIssue } from './issues.js';

/**
 * Folded feature name → the id UCP defines (`dev.ucp…`), or the feature's name under the
 * namespace. Documented in docs/data-format.md (JSON-LD).
 */
export const FEATURE_AMENITIES: Readonly<Record<string, string>> = {
  parking: UCP_AMENITIES.parking,
  freeparking: UCP_AMENITIES.parking,
  parkinglot: UCP_AMENITIES.parking,
  carpark: UCP_AMENITIES.parking,
  wifi: UCP_AMENITIES.wi_fi,
  freewifi: UCP_AMENITIES.wi_fi,
  wirelessinternet: UCP_AMENITIES.wi_fi,
  curbsidepickup: UCP_AMENITIES.curbside_pickup,
  instorepickup: UCP_AMENITIES.in_store_pickup,
  wheelchairaccessible: 'wheelchair_accessible',
  wheelchairaccessibility: 'wheelchair_accessible',
  wheelchairaccessibleentrance: 'wheelchair_accessible',
  restroom: 'restroom',
  restrooms: 'restroom',
  toilets: 'restroom',
  drivethrough: 'drive_through',
  drivethru: 'drive_through',
  evcharging: 'ev_charging',
  electricvehiclecharging: 'ev_charging',
  atm: 'atm',
};

/** The amenity id of a folded feature name, or undefined when the table has none. */
function featureId(folded: string, namespace: string): string | undefined {
  const entry = FEATURE_AMENITIES[folded];
  if (entry === undefined) return undefined;
  return entry.startsWith('dev.ucp.') ? entry : namespacedAmenity(namespace, entry);
}

function fold(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

function isTrue(value: unknown): boolean | undefined {
  if (value === undefined || value === true) return true;
  if (value === false) return false;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true';
  return undefined;
}

export function amenitiesOf(
  value: unknown,
  issues: FieldIssue[],
  warnings: FieldIssue[],
  namespace: string = SCHEMA_ORG_AMENITY_NAMESPACE,
): Amenities | undefined {
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
    const id = isReverseDomainName(property) ? property : featureId(fold(name), namespace);
    if (id === undefined) {
      warnings.push({ field, message: `no amenity id for the feature ${JSON.stringify(name || property)}; it is skipped (give a propertyID such as "com.example.amenity.${fold(name) || 'name'}")` });
      return;
    }
    if (name === '' && out[id] !== undefined) return;
    out[id] = { description: name || id };
  });
  return Object.keys(out).length > 0 ? out : undefined;
}
