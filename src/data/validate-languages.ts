/**
 * Import rules of a record's `language` and `localized` members (R-C3, docs/data-format.md):
 * every tag is well-formed BCP 47 (stored in canonical form), and a translation only translates
 * what the record has — an amenity id it lists, an exception entry (by its `valid_from` date) that
 * has a title. A translation of something the record does not hold would never be shown, so it is
 * an error rather than dead data.
 */
import { canonicalLanguageTag, languageTagProblem } from '../domain/localize.js';
import type { Localizations, LocalizedStrings } from '../domain/location.js';
import { describeType, isPlainObject, nonEmptyStringProblem, unknownFieldMessage } from './fields.js';
import type { FieldIssue } from './issues.js';
import { isOneOf } from '../protocol/guards.js';

export const LOCALIZED_FIELDS = ['name', 'amenities', 'exception_hours'] as const;

export interface CheckedLanguages {
  language?: string;
  localized?: Localizations;
  issues: FieldIssue[];
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Validates `raw.language` and `raw.localized` against the rest of the raw record. The references
 * are checked against the raw `amenities` / `exception_hours`, so a problem there is reported once,
 * where it is, and not again for each translation.
 */
export function checkLanguages(raw: Record<string, unknown>): CheckedLanguages {
  const issues: FieldIssue[] = [];
  const add = (field: string, message: string): void => void issues.push({ field, message });
  const out: CheckedLanguages = { issues };

  let own: string | null = null;
  const language = raw['language'];
  if (language !== undefined) {
    // The problem is null only for a string tag; the typeof check says so to the compiler.
    const problem = languageTagProblem(language);
    if (problem !== null) add('language', problem);
    else if (typeof language === 'string') own = canonicalLanguageTag(language);
    if (own !== null) out.language = own;
  }

  const localized = raw['localized'];
  if (localized === undefined) return out;
  if (!isPlainObject(localized)) {
    add('localized', `must be an object keyed by language tag, e.g. {"en": {"name": "…"}}, got ${describeType(localized)}`);
    return out;
  }
  const amenityIds = new Set(isPlainObject(raw['amenities']) ? Object.keys(raw['amenities']) : []);
  const titled = new Set<string>();
  const dated = new Set<string>();
  const exceptions = raw['exception_hours'];
  const exceptionEntries: readonly unknown[] = Array.isArray(exceptions) ? exceptions : [];
  for (const entry of exceptionEntries) {
    if (!isPlainObject(entry) || typeof entry['valid_from'] !== 'string') continue;
    dated.add(entry['valid_from']);
    if (entry['title'] !== undefined) titled.add(entry['valid_from']);
  }

  const before = issues.length;
  const result: Localizations = {};
  const spelledAs = new Map<string, string>();
  for (const [key, value] of Object.entries(localized)) {
    const base = `localized.${key}`;
    const tagProblem = languageTagProblem(key);
    const tag = tagProblem === null ? canonicalLanguageTag(key) : null;
    if (tag === null) {
      add(base, tagProblem ?? `${JSON.stringify(key)} is not a language tag`);
    } else if (spelledAs.has(tag)) {
      add(base, `${JSON.stringify(key)} is the same language as ${JSON.stringify(spelledAs.get(tag))}; give each language once`);
    } else if (tag === own) {
      add(base, `${JSON.stringify(key)} is the record's own language ("language"); keep those strings in the record itself`);
    }
    if (tag !== null && !spelledAs.has(tag)) spelledAs.set(tag, key);
    const strings = checkStrings(value, base, { amenityIds, titled, dated }, add);
    if (tag !== null && strings !== undefined) result[tag] = strings;
  }
  if (issues.length === before) out.localized = result;
  return out;
}

interface RecordRefs {
  amenityIds: ReadonlySet<string>;
  /** valid_from dates of exception entries with a title. */
  titled: ReadonlySet<string>;
  /** valid_from dates of all exception entries. */
  dated: ReadonlySet<string>;
}

function checkStrings(value: unknown, base: string, refs: RecordRefs, add: (field: string, message: string) => void): LocalizedStrings | undefined {
  if (!isPlainObject(value)) {
    add(base, `must be an object with any of ${LOCALIZED_FIELDS.join(', ')}, got ${describeType(value)}`);
    return undefined;
  }
  let ok = true;
  const fail = (field: string, message: string): void => {
    ok = false;
    add(field, message);
  };
  for (const key of Object.keys(value)) {
    if (!isOneOf(LOCALIZED_FIELDS, key)) fail(`${base}.${key}`, unknownFieldMessage(key, LOCALIZED_FIELDS));
  }
  const strings: LocalizedStrings = {};
  const name = value['name'];
  if (name !== undefined) {
    const problem = nonEmptyStringProblem(name);
    if (problem !== null) fail(`${base}.name`, problem);
    else if (typeof name === 'string') strings.name = name;
  }
  const amenities = textMap(value['amenities'], `${base}.amenities`, 'description', fail, (id) =>
    refs.amenityIds.has(id) ? null : `the record has no amenity ${JSON.stringify(id)}; translate only amenities listed in "amenities"`,
  );
  if (amenities !== undefined) strings.amenities = Object.fromEntries([...amenities].map(([id, description]) => [id, { description }]));
  const titles = textMap(value['exception_hours'], `${base}.exception_hours`, 'title', fail, (date) => {
    if (!DATE.test(date)) return `${JSON.stringify(date)} is not a date; key each title by its exception's valid_from (YYYY-MM-DD)`;
    if (!refs.dated.has(date)) return `no exception_hours entry starts on ${date}; key each title by the valid_from of an entry`;
    if (!refs.titled.has(date)) return `the exception_hours entry starting ${date} has no title to translate`;
    return null;
  });
  if (titles !== undefined) strings.exception_hours = Object.fromEntries([...titles].map(([date, title]) => [date, { title }]));
  if (ok && Object.keys(strings).length === 0) fail(base, `holds no strings; give any of ${LOCALIZED_FIELDS.join(', ')}`);
  return ok ? strings : undefined;
}

/** `{key: {<member>: "text"}}` with every key accepted by `keyProblem`; undefined when absent or invalid. */
function textMap(
  value: unknown,
  base: string,
  member: 'description' | 'title',
  fail: (field: string, message: string) => void,
  keyProblem: (key: string) => string | null,
): Map<string, string> | undefined {
  if (value === undefined) return undefined;
  if (!isPlainObject(value)) {
    fail(base, `must be an object, e.g. {"…": {"${member}": "…"}}, got ${describeType(value)}`);
    return undefined;
  }
  const out = new Map<string, string>();
  let ok = true;
  for (const [key, entry] of Object.entries(value)) {
    const field = `${base}.${key}`;
    const problem = keyProblem(key);
    if (problem !== null) {
      ok = false;
      fail(field, problem);
    }
    if (!isPlainObject(entry)) {
      ok = false;
      fail(field, `must be an object {"${member}": "…"}, got ${describeType(entry)}`);
      continue;
    }
    for (const k of Object.keys(entry)) {
      if (k !== member) {
        ok = false;
        fail(`${field}.${k}`, unknownFieldMessage(k, [member]));
      }
    }
    const text = entry[member];
    const textProblem = nonEmptyStringProblem(text);
    if (textProblem !== null) {
      ok = false;
      fail(`${field}.${member}`, text === undefined ? 'is required' : textProblem);
    } else if (typeof text === 'string') out.set(key, text);
  }
  return ok ? out : undefined;
}
