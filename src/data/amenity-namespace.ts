/**
 * Who may name an amenity. Only ucp.dev names things under `dev.ucp` (the namespace authority of
 * the UCP overview), and the draft defines four amenities there. An importer maps a source
 * feature to one of those four when it means the same thing; every other feature is named under a
 * namespace: the operator's own (`--amenity-namespace com.example`), or by default the owner of
 * the source vocabulary (`org.openstreetmap`, `org.schema`), so every business imported from the
 * same kind of source shares its ids.
 */
import { ConfigError } from '../errors.js';
import { isReservedUcpName, isReverseDomainName } from '../protocol/names.js';
import type { FieldIssue } from './issues.js';

/** The amenity ids the UCP draft defines, by feature. */
export const UCP_AMENITIES = {
  parking: 'dev.ucp.amenity.parking',
  wi_fi: 'dev.ucp.amenity.wi_fi',
  in_store_pickup: 'dev.ucp.amenity.shopping.in_store_pickup',
  curbside_pickup: 'dev.ucp.amenity.shopping.curbside_pickup',
} as const;

const UCP_AMENITY_IDS: ReadonlySet<string> = new Set(Object.values(UCP_AMENITIES));

/** The default namespace of features read from OpenStreetMap tags. */
export const OSM_AMENITY_NAMESPACE = 'org.openstreetmap';
/** The default namespace of features read from schema.org `amenityFeature`s. */
export const SCHEMA_ORG_AMENITY_NAMESPACE = 'org.schema';

export const AMENITY_NAMESPACE_FLAG = '--amenity-namespace';

/** `<namespace>.amenity.<feature>`. */
export function namespacedAmenity(namespace: string, feature: string): string {
  return `${namespace}.amenity.${feature}`;
}

/** The value of --amenity-namespace, checked: a reverse-domain name the operator owns, never under dev.ucp. */
export function parseAmenityNamespace(value: string): string {
  const ns = value.trim().replace(/\.amenity$/, '');
  if (isReservedUcpName(ns)) {
    throw new ConfigError(
      `${AMENITY_NAMESPACE_FLAG} ${JSON.stringify(value)}: only ucp.dev names things under dev.ucp; give a reverse-domain name you own, e.g. com.example`,
    );
  }
  if (!isReverseDomainName(namespacedAmenity(ns, 'x'))) {
    throw new ConfigError(
      `${AMENITY_NAMESPACE_FLAG} ${JSON.stringify(value)} is not a reverse-domain name; give lower-case dot-separated labels of a domain you own, e.g. com.example (ids become com.example.amenity.restroom)`,
    );
  }
  return ns;
}

/**
 * The warning an import gets once when features were named under a source vocabulary's namespace
 * because no --amenity-namespace was given; `example` is one such id.
 */
export function defaultNamespaceWarning(namespace: string, example: string): FieldIssue {
  return {
    field: 'amenities',
    message:
      `features UCP does not define are named under ${namespace}.amenity.* (e.g. ${example}), the source vocabulary's namespace; ` +
      `pass ${AMENITY_NAMESPACE_FLAG} <your reverse-domain, e.g. com.example> to name them under your own`,
  };
}

/** The first amenity id of `amenities` under `<namespace>.amenity.`, if any. */
export function firstUnder(amenities: Readonly<Record<string, unknown>> | undefined, namespace: string): string | undefined {
  if (amenities === undefined) return undefined;
  const prefix = `${namespace}.amenity.`;
  return Object.keys(amenities).find((id) => id.startsWith(prefix));
}

/** Warnings for amenity ids under dev.ucp that UCP does not define (data written before, or by hand). */
export function undefinedUcpAmenities(amenities: Readonly<Record<string, unknown>> | undefined): FieldIssue[] {
  if (amenities === undefined) return [];
  return Object.keys(amenities)
    .filter((id) => isReservedUcpName(id) && !UCP_AMENITY_IDS.has(id))
    .map((id) => ({
      field: `amenities.${id}`,
      message:
        `${id} is not an amenity UCP defines, and only ucp.dev names things under dev.ucp ` +
        `(UCP defines ${[...UCP_AMENITY_IDS].join(', ')}); name it under a domain you own, e.g. com.example.amenity.${id.split('.').pop() ?? 'feature'}`,
    }));
}
