/**
 * Country and subdivision names → ISO 3166 codes, from maintained datasets rather than a
 * hand-typed table:
 *  - `iso-3166` (ISO 3166-1 / 3166-2 code lists; subdivision names as ISO publishes them, i.e.
 *    mostly in the country's own language: "Bayern", "Île-de-France");
 *  - `cldr-subdivisions-full` (Unicode CLDR display names of subdivisions in ~90 languages:
 *    "California", "Bavaria", "Baviera", "バイエルン州");
 *  - `i18n-iso-countries` (country names and common aliases in ~80 languages: "USA",
 *    "Deutschland", "Allemagne").
 *
 * Names compare after folding (compatibility decomposition, diacritics and punctuation dropped,
 * lower case), so "baden-wurttemberg" finds "Baden-Württemberg". A folded name that two
 * different codes claim (within one country, for subdivisions) is dropped rather than guessed.
 * The indexes are built lazily on first use (~30 ms) and kept for the process.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { iso31661, iso31661Alpha3ToAlpha2, iso31662 } from 'iso-3166';

const require = createRequire(import.meta.url);

/** Folded form used to compare names: "Île-de-France" → "ile de france". */
export function foldName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

interface Indexes {
  countries: ReadonlySet<string>;
  countryNames: ReadonlyMap<string, string>;
  /** Country → subdivision codes without the country prefix ("CA" for US-CA). */
  subdivisions: ReadonlyMap<string, ReadonlySet<string>>;
  /** Country → folded name → subdivision code without prefix. */
  subdivisionNames: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

let indexes: Indexes | null = null;

/** Adds `name → code` unless another code already claimed that folded name (then the name is ambiguous). */
function claim(map: Map<string, string>, ambiguous: Set<string>, name: string, code: string): void {
  const key = foldName(name);
  if (key === '' || ambiguous.has(key)) return;
  const prior = map.get(key);
  if (prior === undefined) map.set(key, code);
  else if (prior !== code) {
    map.delete(key);
    ambiguous.add(key);
  }
}

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'));
}

function build(): Indexes {
  const countries = new Set(iso31661.map((c) => c.alpha2));

  const countryNames = new Map<string, string>();
  const countryAmbiguous = new Set<string>();
  for (const c of iso31661) claim(countryNames, countryAmbiguous, c.name, c.alpha2);
  const langDir = dirname(require.resolve('i18n-iso-countries/langs/en.json'));
  for (const file of readdirSync(langDir).filter((f) => f.endsWith('.json'))) {
    const data = readJson(join(langDir, file)) as { countries?: Record<string, string | string[]> };
    for (const [code, names] of Object.entries(data.countries ?? {})) {
      if (!countries.has(code)) continue;
      for (const n of Array.isArray(names) ? names : [names]) claim(countryNames, countryAmbiguous, n, code);
    }
  }

  const subdivisions = new Map<string, Set<string>>();
  const names = new Map<string, Map<string, string>>();
  const ambiguous = new Map<string, Set<string>>();
  const nameSlot = (country: string): [Map<string, string>, Set<string>] => {
    let m = names.get(country);
    let a = ambiguous.get(country);
    if (m === undefined || a === undefined) {
      m = new Map();
      a = new Set();
      names.set(country, m);
      ambiguous.set(country, a);
    }
    return [m, a];
  };
  /** CLDR keys are the lower-case ISO 3166-2 code without the hyphen ("usca" for US-CA). */
  const byCldrKey = new Map<string, [country: string, code: string]>();
  for (const s of iso31662) {
    const country = s.parent.slice(0, 2);
    const code = s.code.slice(country.length + 1);
    let set = subdivisions.get(country);
    if (set === undefined) subdivisions.set(country, (set = new Set()));
    set.add(code);
    byCldrKey.set(`${country}${code}`.toLowerCase(), [country, code]);
    claim(...nameSlot(country), s.name, code);
  }
  const cldrDir = join(dirname(require.resolve('cldr-subdivisions-full/package.json')), 'subdivisions');
  for (const locale of readdirSync(cldrDir)) {
    // One JSON file per locale directory (named with "_" where the directory has "-").
    const file = readdirSync(join(cldrDir, locale)).find((f) => f.endsWith('.json'));
    if (file === undefined) continue;
    const data = readJson(join(cldrDir, locale, file)) as {
      subdivisions?: { localeDisplayNames?: { subdivisions?: Record<string, string> } };
    };
    for (const [key, name] of Object.entries(data.subdivisions?.localeDisplayNames?.subdivisions ?? {})) {
      const hit = byCldrKey.get(key);
      if (hit !== undefined) claim(...nameSlot(hit[0]), name, hit[1]);
    }
  }
  return { countries, countryNames, subdivisions, subdivisionNames: names };
}

function data(): Indexes {
  indexes ??= build();
  return indexes;
}

/**
 * ISO 3166-1 alpha-2 code for a country given as an alpha-2 or alpha-3 code (any letter case)
 * or a name in English or another language ("Deutschland", "United States"); null when unknown.
 */
export function resolveCountry(value: string): string | null {
  const trimmed = value.normalize('NFC').trim();
  const upper = trimmed.toUpperCase();
  const d = data();
  if (/^[A-Z]{2}$/.test(upper)) return d.countries.has(upper) ? upper : null;
  if (/^[A-Z]{3}$/.test(upper)) {
    const a2 = iso31661Alpha3ToAlpha2[upper];
    if (a2 !== undefined) return a2;
  }
  return d.countryNames.get(foldName(trimmed)) ?? null;
}

/**
 * ISO 3166-2 subdivision code of `country`, without the country prefix ("CA" for US-CA), for a
 * region given as the code (with or without the "US-" prefix, any letter case) or a name in
 * English or the local language ("California", "Bayern", "Bavaria"); null when unknown.
 */
export function resolveSubdivision(value: string, country: string): string | null {
  const d = data();
  const cc = country.toUpperCase();
  const known = d.subdivisions.get(cc);
  if (known === undefined) return null;
  const trimmed = value.normalize('NFC').trim();
  const prefixed = trimmed.toUpperCase().startsWith(`${cc}-`);
  const bare = prefixed ? trimmed.slice(cc.length + 1).trim() : trimmed;
  if (known.has(bare.toUpperCase())) return bare.toUpperCase();
  const names = d.subdivisionNames.get(cc);
  // "US-New York" reads as the name after the prefix; a name that itself starts like a prefix is tried whole too.
  return names?.get(foldName(bare)) ?? (prefixed ? (names?.get(foldName(trimmed)) ?? null) : null);
}

/** True when the dataset lists at least one subdivision for `country`. */
export function hasSubdivisions(country: string): boolean {
  return data().subdivisions.has(country.toUpperCase());
}
