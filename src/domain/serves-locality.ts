/**
 * `serves.address` (R-S5): coarse locality — whole countries, regions, postal codes — matched
 * against the Business's per-country lists, after the normalisation both sides share.
 */
import { UcpRequestError } from '../errors.js';
import type { Coverage, Locality } from './location.js';
import { resolveCountry, resolveSubdivision } from './locality-names.js';
import { normalizePostalCode, postalCodeKeys, postalForms } from './serves-postal.js';

const ALPHA2 = /^[A-Z]{2}$/;

/** Normalised `serves.address` target; throws UcpRequestError naming the field when not evaluable. */
export interface LocalityTarget {
  /** ISO 3166-1 alpha-2, upper case. */
  country: string;
  /** ISO 3166-2 subdivision code without the country prefix ("CA" for US-CA), as `normalizeRegion` produces. */
  region?: string;
  /** As `normalizePostalCode` produces. */
  postalCode?: string;
  /**
   * Listed codes that contain the target: `postalCode` itself first, then the coarser forms it
   * nests in for countries where that is well defined (see `postalCodeKeys`). Set with `postalCode`.
   */
  postalKeys?: string[];
}

/** Which countries the Business holds region / postal-code data for (see LocationStore.localityModel). */
export interface LocalityModel {
  postalCountries: ReadonlySet<string>;
  regionCountries: ReadonlySet<string>;
}

/**
 * Canonical region, applied identically to the Business's lists and to request targets: the
 * ISO 3166-2 subdivision code without its country prefix when the value names a subdivision of
 * `country` by code ("us-ca", "CA") or by English or local name ("California", "Bayern",
 * "Bavaria"), see `resolveSubdivision`; otherwise NFC, trimmed, inner whitespace collapsed, upper
 * case, with a "CC-" prefix of the same country removed. Idempotent.
 */
export function normalizeRegion(region: string, country: string): string {
  const cc = normalizeCountryCode(country);
  if (cc !== null) {
    const code = resolveSubdivision(region, cc);
    if (code !== null) return code;
  }
  let r = region.normalize('NFC').trim().replace(/\s+/gu, ' ').toUpperCase();
  const prefix = `${country.trim().toUpperCase()}-`;
  while (prefix.length === 3 && r.startsWith(prefix)) r = r.slice(prefix.length).trim();
  // "US-California": only the stripped form names the subdivision; resolving it keeps this idempotent.
  return cc === null ? r : (resolveSubdivision(r, cc) ?? r);
}

/** Upper-case ISO 3166-1 alpha-2 code, or null when `value` is not two ASCII letters. */
export function normalizeCountryCode(value: string): string | null {
  const c = value.trim().toUpperCase();
  return ALPHA2.test(c) ? c : null;
}

/**
 * Validates and normalises a `serves.address` target (R-S5). Errors carry the JSON pointer of
 * the offending field under `pointer` (default `/serves/address`, relative to the domain request):
 *  - `invalid_request`: no non-blank `address_country` / `address_region` / `postal_code`; a field
 *    that is not a string; or a field sent blank next to others (dropping it would broaden the
 *    target, which R-S5 forbids);
 *  - `serves_target_unsupported`: region or postal code without `address_country` (not
 *    interpretable); a country that is neither an ISO 3166-1 code nor a known country name; a
 *    region that is not a known subdivision of that country; a postal code that is not well
 *    formed for a country whose format is known (US, GB, CA, NL); a postal code / region for a
 *    country the Business holds no postal / region data for. Never degraded to a coarser target,
 *    and every message lists the accepted forms.
 * Messages never echo the buyer's postal code or region.
 */
export function normalizeLocalityTarget(address: Locality, model: LocalityModel, pointer = '/serves/address'): LocalityTarget {
  const values = addressFields(address, pointer);
  const countryRaw = values.address_country;
  if (countryRaw === undefined) {
    const f = values.postal_code !== undefined ? 'postal_code' : 'address_region';
    throw new UcpRequestError(
      'serves_target_unsupported',
      `serves.address.${f} cannot be interpreted without address_country; add the ISO 3166-1 alpha-2 country code (e.g. "US")`,
      `${pointer}/address_country`,
    );
  }
  const country = resolveCountry(countryRaw);
  if (country === null) {
    throw new UcpRequestError(
      'serves_target_unsupported',
      `serves.address.address_country ${JSON.stringify(truncate(countryRaw.trim()))} is not a known country; send an ISO 3166-1 alpha-2 code ("US", "DE"; any letter case), an alpha-3 code ("USA") or the country's English or local name ("Germany", "Deutschland")`,
      `${pointer}/address_country`,
    );
  }
  const target: LocalityTarget = { country };
  if (values.address_region !== undefined) target.region = regionTarget(values.address_region, country, model, pointer);
  if (values.postal_code !== undefined) {
    const { code, keys } = postalTarget(values.postal_code, country, model, pointer);
    target.postalCode = code;
    target.postalKeys = keys;
  }
  return target;
}

const ADDRESS_FIELDS = ['address_country', 'address_region', 'postal_code'] as const;
type AddressField = (typeof ADDRESS_FIELDS)[number];

/** The target's fields as strings: each a string, at least one not blank, and none blank beside others. */
function addressFields(address: Locality, pointer: string): Partial<Record<AddressField, string>> {
  const raw = address as Record<string, unknown>;
  const values: Partial<Record<AddressField, string>> = {};
  for (const f of ADDRESS_FIELDS) {
    const v = raw[f];
    if (v === undefined) continue;
    if (typeof v !== 'string') {
      throw new UcpRequestError('invalid_request', `serves.address.${f} must be a string`, `${pointer}/${f}`);
    }
    values[f] = v;
  }
  const present = ADDRESS_FIELDS.filter((f) => values[f] !== undefined);
  if (present.every((f) => values[f]?.trim() === '')) {
    throw new UcpRequestError(
      'invalid_request',
      'serves.address needs at least one non-empty field among address_country, address_region and postal_code',
      pointer,
    );
  }
  const blank = present.find((f) => values[f]?.trim() === '');
  if (blank !== undefined) {
    throw new UcpRequestError(
      'invalid_request',
      `serves.address.${blank} is empty; omit the field or give a value (an empty field is not ignored, as that would broaden the target)`,
      `${pointer}/${blank}`,
    );
  }
  return values;
}

/** The region as an ISO 3166-2 code of `country`, when the Business holds region data for it. */
function regionTarget(value: string, country: string, model: LocalityModel, pointer: string): string {
  if (!model.regionCountries.has(country)) {
    throw new UcpRequestError(
      'serves_target_unsupported',
      `This Business has no region coverage data for country ${country}, so serves.address.address_region cannot be evaluated; omit address_region (to ask about the whole country) or use serves.point`,
      `${pointer}/address_region`,
    );
  }
  const region = resolveSubdivision(value, country);
  if (region === null) {
    throw new UcpRequestError(
      'serves_target_unsupported',
      `serves.address.address_region is not a known ISO 3166-2 subdivision of ${country}; send the subdivision code ("${country}-XX" or "XX", any letter case) or its English or local name (e.g. "California" or "CA" for US-CA)`,
      `${pointer}/address_region`,
    );
  }
  return region;
}

/** The postal code, normalised, and the listed codes that contain it, when the Business holds postal data for `country`. */
function postalTarget(value: string, country: string, model: LocalityModel, pointer: string): { code: string; keys: string[] } {
  if (!model.postalCountries.has(country)) {
    throw new UcpRequestError(
      'serves_target_unsupported',
      `This Business has no postal-code coverage data for country ${country}, so serves.address.postal_code cannot be evaluated; omit postal_code or use serves.point`,
      `${pointer}/postal_code`,
    );
  }
  const code = normalizePostalCode(value, country);
  const keys = postalCodeKeys(code, country);
  if (keys === null) {
    throw new UcpRequestError(
      'serves_target_unsupported',
      `serves.address.postal_code is not a well-formed postal code for ${country}; send ${postalForms(country)}`,
      `${pointer}/postal_code`,
    );
  }
  return { code, keys };
}

/**
 * Reference semantics of `serves.address` that every store reproduces (in SQL): a Location
 * matches when it lists the target's postal code (or a coarser code it nests in, `postalKeys`) for
 * that country, or the target's region of
 * that country, or covers the whole country. A country-only target therefore matches only
 * whole-country coverage: serving part of a country does not serve "the country".
 * Coverage lists are normalised here too, so un-normalised data still compares correctly.
 */
export function localityMatches(coverage: Coverage, target: LocalityTarget): boolean {
  const { country } = target;
  if (coverage.countries?.some((c) => normalizeCountryCode(c) === country)) return true;
  if (target.region !== undefined) {
    const regions = listFor(coverage.regions, country);
    if (regions.some((r) => normalizeRegion(r, country) === target.region)) return true;
  }
  if (target.postalCode !== undefined) {
    const keys = target.postalKeys ?? [target.postalCode];
    const codes = listFor(coverage.postal_codes, country);
    if (codes.some((p) => keys.includes(normalizePostalCode(p, country)))) return true;
  }
  return false;
}

function listFor(map: Record<string, string[]> | undefined, country: string): readonly string[] {
  if (map === undefined) return [];
  // Own keys only: a country code never resolves to an inherited property.
  return Object.hasOwn(map, country) ? (map[country] ?? []) : [];
}

/** `s`, cut to `max` characters with an ellipsis: quoted input never floods a message. */
export function truncate(s: string, max = 40): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}
