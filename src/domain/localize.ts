/**
 * Answers in the buyer's language (R-C3). A request names the languages it prefers — `context.language`
 * on either binding, else the REST `Accept-Language` header — and each buyer-facing string of a
 * Location (its name, every amenity description, every exception title) is chosen by the RFC 4647
 * §3.4 *lookup* scheme among the languages that string exists in: the record's own language and its
 * translations. `fr-CA` falls back to `fr`, then to the next preferred language, then to the record's
 * own strings. A language preference never changes which Locations are returned or their order.
 *
 * Tags are well-formed BCP 47 as `Intl.getCanonicalLocales` accepts them (Unicode locale
 * identifiers: no grandfathered or private-use-only tags) and are compared in that canonical form,
 * so `EN-us` and `en-US` (or `iw` and `he`) are one language.
 */
import type { ExceptionHour, Location, LocalizedStrings, RecordLanguages } from './location.js';

/** The canonical form of a well-formed BCP 47 language tag, or null when it is not one. */
export function canonicalLanguageTag(tag: string): string | null {
  if (tag.trim() !== tag || tag === '') return null;
  try {
    const [canonical] = Intl.getCanonicalLocales(tag);
    return canonical ?? null;
  } catch {
    return null;
  }
}

/** Why `value` is no BCP 47 tag (for import messages), or null when it is one. */
export function languageTagProblem(value: unknown): string | null {
  if (typeof value !== 'string') return `must be a BCP 47 language tag such as "en" or "de-CH", got ${typeof value}`;
  if (canonicalLanguageTag(value) !== null) return null;
  const hint = value.includes('_') ? ` (subtags are joined with "-": ${JSON.stringify(value.replace(/_/g, '-'))})` : '';
  return `${JSON.stringify(value)} is not a well-formed BCP 47 language tag${hint}; write e.g. "en", "fr-CA" or "zh-Hant"`;
}

/** Longest Accept-Language header read; the rest is ignored (a preference list is a few entries). */
const MAX_PREFERENCE_HEADER = 4096;
const MAX_PREFERENCES = 32;

/**
 * An `Accept-Language` value (RFC 9110 §12.5.4) as a priority list of canonical tags, most preferred
 * first (stable for equal weights). Ranges with `q=0` (not acceptable), the wildcard `*` (it names
 * no language to look up, RFC 4647 §3.4) and ill-formed entries are dropped, never an error: a
 * preference the server cannot read only means the record's own strings.
 */
export function parseLanguagePriorityList(header: string): string[] {
  const entries: { tag: string; q: number; at: number }[] = [];
  const parts = header.slice(0, MAX_PREFERENCE_HEADER).split(',');
  for (const [at, part] of parts.entries()) {
    const [range = '', ...params] = part.split(';').map((p) => p.trim());
    let q = 1;
    for (const param of params) {
      const m = /^q\s*=\s*(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/i.exec(param);
      if (m === null) {
        q = Number.NaN;
        break;
      }
      q = Number(m[1]);
    }
    if (!(q > 0) || range === '*') continue;
    const tag = canonicalLanguageTag(range);
    if (tag !== null && !entries.some((e) => e.tag === tag)) entries.push({ tag, q, at });
  }
  entries.sort((a, b) => b.q - a.q || a.at - b.at);
  return entries.slice(0, MAX_PREFERENCES).map((e) => e.tag);
}

/**
 * The request's language priority list: `context.language` when it can be read (a tag, or a list in
 * Accept-Language syntax), else the `Accept-Language` header (REST only), else none. Like every
 * context value, an unreadable `context.language` is ignored rather than refused.
 */
export function requestedLanguages(context: Record<string, unknown> | undefined, acceptLanguage?: string): string[] {
  const fromContext = context?.['language'];
  if (typeof fromContext === 'string') {
    const list = parseLanguagePriorityList(fromContext);
    if (list.length > 0) return list;
  }
  return acceptLanguage === undefined ? [] : parseLanguagePriorityList(acceptLanguage);
}

/** The next shorter range of RFC 4647 §3.4 lookup, or null after the primary subtag. */
function truncate(range: string): string | null {
  const subtags = range.split('-');
  subtags.pop();
  // A singleton left at the end (an extension or private-use introducer) goes with its subtag.
  if (subtags.at(-1)?.length === 1) subtags.pop();
  return subtags.length === 0 ? null : subtags.join('-');
}

/**
 * RFC 4647 §3.4 lookup: for each range in priority order, the available tag equal to it or, failing
 * that, to a progressively truncated form (`zh-Hant-TW` → `zh-Hant` → `zh`); null when no range
 * finds one (the caller's default applies). Case-insensitive; returns the tag as `available` spells it.
 */
export function lookupLanguage(ranges: readonly string[], available: readonly string[]): string | null {
  if (available.length === 0) return null;
  const byLower = new Map(available.map((tag) => [tag.toLowerCase(), tag]));
  for (const range of ranges) {
    for (let r: string | null = range.toLowerCase(); r !== null; r = truncate(r)) {
      const hit = byLower.get(r);
      if (hit !== undefined) return hit;
    }
  }
  return null;
}

/** A Location in the requested language, and the languages its strings came in (for Content-Language). */
export interface LocalizedLocation<T extends Location> {
  location: T;
  /** Tags used by the returned strings, first use first; a string of unknown language adds none. */
  languages: string[];
}

/**
 * `doc` with each translatable string chosen for `ranges`. `strings` is what the store kept of the
 * record (its own language and translations); `defaultLanguage` names the language of records that
 * do not say theirs. The document is not modified.
 */
export function localizeLocation<T extends Location>(
  doc: T,
  strings: RecordLanguages | undefined,
  ranges: readonly string[],
  defaultLanguage?: string,
): LocalizedLocation<T> {
  const own = strings?.language ?? defaultLanguage;
  // Nothing to choose between: every string stays as stored (the common case, and no copy).
  if (ranges.length === 0 || strings?.localized === undefined || Object.keys(strings.localized).length === 0) {
    // The name is always a translatable string, so its language is always in use.
    return { location: doc, languages: own === undefined ? [] : [own] };
  }
  const translations = Object.entries(strings.localized);
  const languages: string[] = [];
  const use = (tag: string | undefined): void => {
    if (tag !== undefined && !languages.includes(tag)) languages.push(tag);
  };
  /** The translation of one string slot chosen for the request, or undefined for the own string. */
  const choose = <V>(slot: (t: LocalizedStrings) => V | undefined): V | undefined => {
    if (ranges.length === 0 || translations.length === 0) {
      use(own);
      return undefined;
    }
    const having = translations.filter(([, t]) => slot(t) !== undefined).map(([tag]) => tag);
    const chosen = lookupLanguage(ranges, own === undefined ? having : [own, ...having]);
    if (chosen === null || chosen === own) {
      use(own);
      return undefined;
    }
    use(chosen);
    return slot(strings?.localized?.[chosen] ?? {});
  };

  const location: T = { ...doc };
  const name = choose((t) => t.name);
  if (name !== undefined) location.name = name;
  if (doc.amenities !== undefined) {
    const amenities: NonNullable<Location['amenities']> = {};
    for (const [id, amenity] of Object.entries(doc.amenities)) {
      const description = choose((t) => t.amenities?.[id]?.description);
      amenities[id] = description === undefined ? amenity : { ...amenity, description };
    }
    location.amenities = amenities;
  }
  if (doc.exception_hours !== undefined) {
    location.exception_hours = doc.exception_hours.map((entry): ExceptionHour => {
      if (entry.title === undefined) return entry;
      const title = choose((t) => t.exception_hours?.[entry.valid_from]?.title);
      return title === undefined ? entry : { ...entry, title };
    });
  }
  return { location, languages };
}
