/**
 * Postal codes in `serves.address` (R-S5), country by country: how a code is spelled canonically,
 * which coarser codes it nests in, and the forms a refusal quotes. A country without an entry
 * compares codes as written (after the shared normalisation) and nests nothing.
 */

/** What this module knows of one country's postal codes. */
interface PostalCountry {
  /** The accepted spellings, quoted when a target is not well formed. */
  readonly forms: string;
  /**
   * The listed codes that contain a normalised code, finest first (the code itself, then the
   * coarser units it nests in); null when it is not well formed for the country.
   */
  nesting(normalized: string): string[] | null;
  /** A canonical spelling beyond the shared normalisation (US ZIP+4 keeps its hyphen). */
  canonical?(normalized: string): string;
}

const US_ZIP = /^(\d{5})(?:-?(\d{4}))?$/;
const GB_FULL = /^([A-Z]{1,2})(\d[A-Z\d]?)(\d[A-Z]{2})$/;
const GB_OUTWARD = /^([A-Z]{1,2})\d[A-Z\d]?$/;
const GB_AREA = /^[A-Z]{1,2}$/;
const CA_FULL = /^[ABCEGHJ-NPRSTVXY]\d[A-Z]\d[A-Z]\d$/;
const CA_FSA = /^[ABCEGHJ-NPRSTVXY]\d[A-Z]$/;
const NL_FULL = /^[1-9]\d{3}[A-Z]{2}$/;
const NL_DIGITS = /^[1-9]\d{3}$/;

const POSTAL_COUNTRIES: Readonly<Record<string, PostalCountry>> = {
  // ZIP+4 → ZIP; "10005-1234" is spelled with its hyphen whether sent with it or not.
  US: {
    forms: 'a 5-digit ZIP code ("10005") or ZIP+4 ("10005-1234", answered for its ZIP code)',
    nesting: (code) => {
      const m = US_ZIP.exec(code);
      if (m === null) return null;
      return m[2] === undefined ? [code] : [code, m[1] ?? ''];
    },
    canonical: (code) => {
      const m = US_ZIP.exec(code);
      if (m === null) return code;
      return m[2] === undefined ? (m[1] ?? code) : `${m[1]}-${m[2]}`;
    },
  },
  // Full postcode → outward code → area ("SW1A1AA" → "SW1A" → "SW"). Sectors are left out: once
  // spaces are dropped, "E11" could be the outward code E11 or the sector "E1 1".
  GB: {
    forms: 'a full postcode ("SW1A 1AA"), an outward code ("SW1A") or a postcode area ("SW")',
    nesting: (code) => {
      const full = GB_FULL.exec(code);
      if (full !== null) {
        const [, area = '', district = ''] = full;
        return [code, `${area}${district}`, area];
      }
      const outward = GB_OUTWARD.exec(code);
      if (outward !== null) return [code, outward[1] ?? ''];
      return GB_AREA.test(code) ? [code] : null;
    },
  },
  // Postal code → forward sortation area.
  CA: {
    forms: 'a postal code ("K1A 0B1") or its forward sortation area ("K1A")',
    nesting: (code) => {
      if (CA_FULL.test(code)) return [code, code.slice(0, 3)];
      return CA_FSA.test(code) ? [code] : null;
    },
  },
  // Postcode → its four digits.
  NL: {
    forms: 'a postcode ("1012 AB") or its four digits ("1012")',
    nesting: (code) => {
      if (NL_FULL.test(code)) return [code, code.slice(0, 4)];
      return NL_DIGITS.test(code) ? [code] : null;
    },
  },
};

function postalCountry(country: string | undefined): PostalCountry | undefined {
  if (country === undefined) return undefined;
  const cc = country.toUpperCase();
  return Object.hasOwn(POSTAL_COUNTRIES, cc) ? POSTAL_COUNTRIES[cc] : undefined;
}

/**
 * Canonical postal code, applied identically to the Business's lists at import and to request
 * targets: Unicode NFC, upper case, every whitespace character removed ("sw1a 1aa" → "SW1A1AA"),
 * then the country's own spelling (US: ZIP+4 as "10005-1234" with or without the hyphen sent; it
 * stays a different, finer code than "10005" — `postalCodeKeys` relates the two). Idempotent.
 */
export function normalizePostalCode(code: string, country?: string): string {
  const c = code.normalize('NFC').replace(/\s+/gu, '').toUpperCase();
  return postalCountry(country)?.canonical?.(c) ?? c;
}

/**
 * The listed codes that contain a normalised postal code of `country`, finest first: the code
 * itself, then the coarser units it nests in (see POSTAL_COUNTRIES). Elsewhere the code only
 * matches itself. Returns null when the code is not well formed for a country whose format is known.
 */
export function postalCodeKeys(normalized: string, country: string): string[] | null {
  const known = postalCountry(country);
  return known === undefined ? [normalized] : known.nesting(normalized);
}

/** The spellings of a postal code a refusal quotes for `country`. */
export function postalForms(country: string): string {
  return postalCountry(country)?.forms ?? 'the postal code as written locally';
}
