/**
 * Buyer-locality tiers from the request's `context` (R-C1, R-C2): which Locations are "closer" to
 * the buyer by the Location's own postal address, and the buyer's saved store first. Context is
 * provisional: it only orders results (see ranking.ts), never adds or removes one, and a value we
 * cannot read (an unknown country, a region that is no subdivision, a non-string) is ignored, never
 * an error.
 */
import { resolveCountry, resolveSubdivision } from './locality-names.js';
import type { Locality } from './location.js';
import { normalizePostalCode } from './serves.js';

/** Tier numbers, smaller ranks first. */
export const LOCALITY_TIER = {
  /** The Location `context.location` names (an id or alias of a public Location). */
  savedLocation: 0,
  samePostalCode: 1,
  sameRegion: 2,
  sameCountry: 3,
  elsewhere: 4,
} as const;

/** The buyer's locality as read from `context`, normalised like Location addresses. */
export interface BuyerLocality {
  /** ISO 3166-1 alpha-2. */
  country: string;
  /** ISO 3166-2 subdivision code without the country prefix. */
  region?: string;
  /** As `postalComparable` produces. */
  postal?: string;
}

/**
 * The form two postal codes of one country are compared in for "same postal code": normalised,
 * and for the US reduced to the 5-digit ZIP (a buyer in 94043 and a store at 94043-1351 share a
 * ZIP code).
 */
export function postalComparable(code: string, country: string): string {
  const n = normalizePostalCode(code, country);
  return country === 'US' && /^\d{5}-\d{4}$/.test(n) ? n.slice(0, 5) : n;
}

function stringMember(context: Record<string, unknown> | undefined, name: string): string | null {
  const v = context?.[name];
  return typeof v === 'string' && v.trim() !== '' ? v : null;
}

/**
 * `context.address_country` / `address_region` / `postal_code`, or null when no country can be
 * read (a region or postal code means nothing without its country). A region that is no known
 * subdivision of the country, or a blank value, is left out; the rest still counts.
 */
export function buyerLocality(context: Record<string, unknown> | undefined): BuyerLocality | null {
  const countryRaw = stringMember(context, 'address_country');
  const country = countryRaw === null ? null : resolveCountry(countryRaw);
  if (country === null) return null;
  const out: BuyerLocality = { country };
  const regionRaw = stringMember(context, 'address_region');
  const region = regionRaw === null ? null : resolveSubdivision(regionRaw, country);
  if (region !== null) out.region = region;
  const postalRaw = stringMember(context, 'postal_code');
  if (postalRaw !== null) {
    const postal = postalComparable(postalRaw, country);
    if (postal !== '') out.postal = postal;
  }
  return out;
}

/** `context.location` when it is a non-blank string (resolving it is the store's job). */
export function savedLocationRef(context: Record<string, unknown> | undefined): string | null {
  const v = stringMember(context, 'location');
  return v === null ? null : v.trim();
}

/** A Location's address as tiers compare it: resolved country, subdivision code, comparable postal code. */
export interface AddressLocality {
  country: string | null;
  region: string | null;
  postal: string | null;
}

/** Reads a Location's `address` once, so ranking many requests does not re-resolve names. */
export function addressLocality(address: Locality | undefined): AddressLocality {
  const countryRaw = address?.address_country;
  const country = typeof countryRaw === 'string' ? resolveCountry(countryRaw) : null;
  const region = address?.address_region;
  const postal = address?.postal_code;
  return {
    country,
    region: country !== null && typeof region === 'string' ? resolveSubdivision(region, country) : null,
    postal: country !== null && typeof postal === 'string' ? postalComparable(postal, country) : null,
  };
}

/**
 * Tier of a Location whose postal address is `address` for a buyer at `buyer`: same postal code
 * (same country) > same region > same country > elsewhere. A Location without an address, or
 * whose country cannot be read, is "elsewhere".
 */
export function localityTier(buyer: BuyerLocality, address: Locality | AddressLocality | undefined): number {
  const a = address !== undefined && 'country' in address ? address : addressLocality(address);
  if (a.country === null || a.country !== buyer.country) return LOCALITY_TIER.elsewhere;
  if (buyer.postal !== undefined && a.postal === buyer.postal) return LOCALITY_TIER.samePostalCode;
  if (buyer.region !== undefined && a.region === buyer.region) return LOCALITY_TIER.sameRegion;
  return LOCALITY_TIER.sameCountry;
}
