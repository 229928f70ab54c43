/**
 * The demo's holidays and closures, relative to the day the demo is loaded. A file with fixed
 * dates goes stale: a closure on a date that has passed is no longer shown, and examples that
 * showed it change. So `data/demo.ndjson` carries no exception dates at all, and the server adds
 * the coming public holidays of each store's country (and a refit closure at a few stores) when it
 * loads the demo (`withComingHolidays`). The rules are the usual ones of each country (fixed dates,
 * "fourth Thursday of November", Easter-based days); titles are in the store's own language, with
 * translations for the languages its record is translated into.
 */
import type { ExceptionHour, LocalizedStrings, LocationRecord } from '../domain/location.js';

/** Days ahead whose holidays are added: long enough that every store has some at any date. */
export const DEMO_HOLIDAY_HORIZON_DAYS = 120;

const LANGS = ['en', 'de', 'fr', 'es', 'ja'] as const;
type Lang = (typeof LANGS)[number];
const isLang = (tag: string | undefined): tag is Lang => LANGS.some((l) => l === tag);
type Title = Partial<Record<Lang, string>> & { en: string };

/** Which day of a year a rule falls on (days since 1970-01-01, UTC calendar). */
type DayOf = (year: number) => number;

interface Rule {
  day: DayOf;
  /** Extra days the closure lasts (0 = one day). */
  extraDays?: number;
  /** Opening times that day; absent = closed. */
  hours?: readonly [string, string];
  title: Title;
}

const DAY_MS = 86_400_000;
const dayNumber = (year: number, month: number, day: number): number => Date.UTC(year, month - 1, day) / DAY_MS;
const isoDate = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

const fixed =
  (month: number, day: number): DayOf =>
  (year) =>
    dayNumber(year, month, day);

/** The `n`th `weekday` (0 = Sunday) of the month; n = -1 is the last one. */
const nthWeekday =
  (n: number, weekday: number, month: number): DayOf =>
  (year) => {
    if (n > 0) {
      const first = dayNumber(year, month, 1);
      const shift = (weekday - new Date(first * DAY_MS).getUTCDay() + 7) % 7;
      return first + shift + (n - 1) * 7;
    }
    const last = dayNumber(year, month + 1, 0);
    return last - ((new Date(last * DAY_MS).getUTCDay() - weekday + 7) % 7);
  };

/** Easter Sunday (anonymous Gregorian algorithm), shifted by `offset` days. */
const easter =
  (offset: number): DayOf =>
  (year) => {
    const a = year % 19;
    const b = Math.floor(year / 100);
    const c = year % 100;
    const d = Math.floor(b / 4);
    const e = b % 4;
    const f = Math.floor((b + 8) / 25);
    const g = Math.floor((b - f + 1) / 3);
    const h = (19 * a + b - d - g + 15) % 30;
    const i = Math.floor(c / 4);
    const k = c % 4;
    const l = (32 + 2 * e + 2 * i - h - k) % 7;
    const m = Math.floor((a + 11 * h + 22 * l) / 451);
    const month = Math.floor((h + l - 7 * m + 114) / 31);
    const day = ((h + l - 7 * m + 114) % 31) + 1;
    return dayNumber(year, month, day) + offset;
  };

const T = {
  newYear: { en: "New Year's Day", de: 'Neujahr', fr: "Jour de l'an", es: 'Año Nuevo', ja: '元日' },
  newYearsEve: { en: "New Year's Eve", de: 'Silvester', fr: 'Saint-Sylvestre', es: 'Nochevieja', ja: '大晦日' },
  christmasEve: { en: 'Christmas Eve', de: 'Heiligabend', fr: 'Réveillon de Noël', es: 'Nochebuena', ja: 'クリスマスイブ' },
  christmas: { en: 'Christmas Day', de: 'Erster Weihnachtstag', fr: 'Noël', es: 'Navidad', ja: 'クリスマス' },
  boxingDay: { en: 'Boxing Day', de: 'Zweiter Weihnachtstag' },
  goodFriday: { en: 'Good Friday', de: 'Karfreitag', es: 'Viernes Santo', fr: 'Vendredi saint' },
  easterMonday: { en: 'Easter Monday', de: 'Ostermontag', fr: 'Lundi de Pâques' },
  labourDay: { en: 'Labour Day', de: 'Tag der Arbeit', fr: 'Fête du Travail', es: 'Día del Trabajo' },
  ascension: { en: 'Ascension Day', de: 'Christi Himmelfahrt', fr: 'Ascension' },
  whitMonday: { en: 'Whit Monday', de: 'Pfingstmontag', fr: 'Lundi de Pentecôte' },
  thanksgiving: { en: 'Thanksgiving', de: 'Thanksgiving', fr: 'Thanksgiving', ja: '感謝祭' },
  shogatsu: { en: 'New Year holidays', ja: '正月休み' },
} satisfies Record<string, Title>;

const closed = (day: DayOf, title: Title, extraDays = 0): Rule => ({ day, title, extraDays });
const short = (day: DayOf, opens: string, closes: string, title: Title): Rule => ({ day, title, hours: [opens, closes] });

const WESTERN_CHRISTMAS = [
  short(fixed(12, 24), '08:00', '16:00', T.christmasEve),
  closed(fixed(12, 25), T.christmas),
  short(fixed(12, 31), '08:00', '18:00', T.newYearsEve),
  closed(fixed(1, 1), T.newYear),
];
const COMMONWEALTH = [
  closed(fixed(1, 1), T.newYear),
  closed(easter(-2), T.goodFriday),
  short(easter(1), '09:00', '17:00', T.easterMonday),
  short(fixed(12, 24), '07:00', '18:00', T.christmasEve),
  closed(fixed(12, 25), T.christmas),
  short(fixed(12, 26), '10:00', '16:00', T.boxingDay),
];

/** The public holidays a store keeps, by country (ISO 3166-1 alpha-2). */
const HOLIDAYS: Readonly<Record<string, readonly Rule[]>> = {
  US: [
    ...WESTERN_CHRISTMAS,
    short(nthWeekday(-1, 1, 5), '09:00', '18:00', { en: 'Memorial Day' }),
    short(fixed(7, 4), '10:00', '18:00', { en: 'Independence Day' }),
    short(nthWeekday(1, 1, 9), '09:00', '18:00', { en: 'Labor Day' }),
    closed(nthWeekday(4, 4, 11), T.thanksgiving),
  ],
  CA: [
    ...COMMONWEALTH,
    short(fixed(7, 1), '10:00', '18:00', { en: 'Canada Day' }),
    short(nthWeekday(1, 1, 9), '09:00', '18:00', { en: 'Labour Day' }),
    closed(nthWeekday(2, 1, 10), { en: 'Thanksgiving' }),
  ],
  GB: [
    ...COMMONWEALTH,
    short(nthWeekday(1, 1, 5), '09:00', '18:00', { en: 'Early May bank holiday' }),
    short(nthWeekday(-1, 1, 5), '09:00', '18:00', { en: 'Spring bank holiday' }),
    short(nthWeekday(-1, 1, 8), '09:00', '18:00', { en: 'Summer bank holiday' }),
  ],
  IE: [...COMMONWEALTH, closed(fixed(3, 17), { en: "St Patrick's Day" })],
  AU: [...COMMONWEALTH, short(fixed(1, 26), '09:00', '17:00', { en: 'Australia Day' }), closed(fixed(4, 25), { en: 'Anzac Day' })],
  NZ: [...COMMONWEALTH, closed(fixed(2, 6), { en: 'Waitangi Day' }), closed(fixed(4, 25), { en: 'Anzac Day' })],
  ZA: [
    ...COMMONWEALTH,
    closed(fixed(4, 27), { en: 'Freedom Day' }),
    short(fixed(6, 16), '09:00', '17:00', { en: 'Youth Day' }),
    short(fixed(9, 24), '09:00', '17:00', { en: 'Heritage Day' }),
  ],
  FJ: [closed(fixed(1, 1), T.newYear), closed(easter(-2), T.goodFriday), closed(fixed(12, 25), T.christmas, 1)],
  WS: [closed(fixed(1, 1), T.newYear), closed(easter(-2), T.goodFriday), closed(fixed(12, 25), T.christmas, 1)],
  DE: [
    closed(fixed(1, 1), T.newYear),
    closed(easter(-2), T.goodFriday),
    closed(easter(1), T.easterMonday),
    closed(fixed(5, 1), T.labourDay),
    closed(easter(39), T.ascension),
    closed(easter(50), T.whitMonday),
    closed(fixed(10, 3), { en: 'German Unity Day', de: 'Tag der Deutschen Einheit' }),
    short(fixed(12, 24), '07:00', '14:00', T.christmasEve),
    closed(fixed(12, 25), { en: 'Christmas', de: 'Weihnachten' }, 1),
    short(fixed(12, 31), '07:00', '14:00', T.newYearsEve),
  ],
  FR: [
    closed(fixed(1, 1), T.newYear),
    closed(easter(1), T.easterMonday),
    closed(fixed(5, 1), T.labourDay),
    closed(easter(39), T.ascension),
    short(fixed(7, 14), '09:00', '13:00', { en: 'Bastille Day', fr: 'Fête nationale' }),
    closed(fixed(11, 1), { en: "All Saints' Day", fr: 'Toussaint' }),
    short(fixed(12, 24), '08:30', '18:00', T.christmasEve),
    closed(fixed(12, 25), T.christmas),
    short(fixed(12, 31), '08:30', '18:00', T.newYearsEve),
  ],
  ES: [
    closed(fixed(1, 1), T.newYear),
    short(fixed(1, 6), '10:00', '14:00', { en: 'Epiphany', es: 'Reyes' }),
    closed(easter(-2), T.goodFriday),
    closed(fixed(5, 1), T.labourDay),
    closed(fixed(10, 12), { en: 'National Day', es: 'Fiesta Nacional' }),
    short(fixed(12, 24), '09:00', '14:00', T.christmasEve),
    closed(fixed(12, 25), T.christmas),
    short(fixed(12, 31), '09:00', '14:00', T.newYearsEve),
  ],
  NL: [
    closed(fixed(1, 1), T.newYear),
    short(fixed(4, 27), '10:00', '17:00', { en: "King's Day" }),
    closed(easter(1), T.easterMonday),
    closed(fixed(12, 25), { en: 'Christmas' }, 1),
  ],
  JP: [short(fixed(12, 31), '09:00', '18:00', T.newYearsEve), closed(fixed(1, 1), T.shogatsu, 2)],
  IN: [
    short(fixed(1, 26), '14:00', '22:00', { en: 'Republic Day' }),
    short(fixed(8, 15), '14:00', '22:00', { en: 'Independence Day' }),
    short(fixed(10, 2), '14:00', '22:00', { en: 'Gandhi Jayanti' }),
    short(fixed(12, 25), '12:00', '22:00', { en: 'Christmas' }),
  ],
  SG: [closed(fixed(1, 1), T.newYear), short(fixed(8, 9), '10:00', '18:00', { en: 'National Day' }), short(fixed(12, 25), '10:00', '18:00', T.christmas)],
  BR: [
    closed(fixed(1, 1), T.newYear),
    closed(fixed(4, 21), { en: 'Tiradentes', es: 'Tiradentes' }),
    closed(fixed(9, 7), { en: 'Independence Day', es: 'Día de la Independencia' }),
    closed(fixed(12, 25), T.christmas),
  ],
  MX: [
    closed(fixed(1, 1), T.newYear),
    closed(fixed(5, 1), T.labourDay),
    closed(fixed(9, 16), { en: 'Independence Day', es: 'Día de la Independencia' }),
    closed(fixed(12, 25), T.christmas),
  ],
};

const REFIT: Title = { en: 'Closed for refit', de: 'Wegen Umbau geschlossen', fr: 'Fermé pour travaux', es: 'Cerrado por reformas', ja: '改装のため休業' };

/** A stable small number from a store id, so the same stores close for a refit on every load. */
function hashOf(id: string): number {
  let h = 2166136261;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 16777619) >>> 0;
  return h;
}

interface Dated {
  from: number;
  through: number;
  rule: Pick<Rule, 'hours' | 'title'>;
}

/**
 * The dated exceptions of `country` from the day before `now`'s UTC date (so "today" is covered in
 * every zone) through `horizonDays` after it, plus a week-long refit closure two weeks ahead at
 * about one store in twenty (`id`). Ranges never overlap (R-H4): a holiday inside the refit is left out.
 */
function datedExceptions(id: string, country: string, now: number, horizonDays: number): Dated[] {
  const today = Math.floor(now / DAY_MS);
  const first = today - 1;
  const last = today + horizonDays;
  const year = new Date(now).getUTCFullYear();
  const out: Dated[] = [];
  for (const rule of HOLIDAYS[country] ?? []) {
    for (const y of [year - 1, year, year + 1]) {
      const from = rule.day(y);
      const through = from + (rule.extraDays ?? 0);
      // Two holidays on one day (Easter Monday on Anzac Day): the first rule listed keeps it (R-H4).
      const taken = out.some((d) => d.from <= through && from <= d.through);
      if (through >= first && from <= last && !taken) out.push({ from, through, rule });
    }
  }
  if (hashOf(id) % 20 === 0) {
    const refit = { from: today + 14, through: today + 20, rule: { title: REFIT } };
    return [...out.filter((d) => d.through < refit.from || d.from > refit.through), refit].sort((a, b) => a.from - b.from);
  }
  return out.sort((a, b) => a.from - b.from);
}

function titleIn(title: Title, lang: string | undefined): string {
  return (isLang(lang) ? title[lang] : undefined) ?? title.en;
}

/**
 * `record` with the coming holidays of its country as `exception_hours` (replacing any it had),
 * titled in its `language`, with title translations for its `localized` languages. Records
 * without a country or a time zone are returned as they are.
 */
export function withComingHolidays(record: LocationRecord, now: number, horizonDays = DEMO_HOLIDAY_HORIZON_DAYS): LocationRecord {
  const country = record.address?.address_country;
  if (country === undefined || record.timezone === undefined) return record;
  const dated = datedExceptions(record.id, country, now, horizonDays);
  const { exception_hours: _previous, ...rest } = record;
  if (dated.length === 0) return rest;
  const exceptions: ExceptionHour[] = dated.map(({ from, through, rule }) => ({
    title: titleIn(rule.title, record.language),
    valid_from: isoDate(from),
    valid_through: isoDate(through),
    ...(rule.hours === undefined ? {} : { opens: rule.hours[0], closes: rule.hours[1] }),
  }));
  if (record.localized === undefined) return { ...rest, exception_hours: exceptions };
  const localized: Record<string, LocalizedStrings> = {};
  for (const [tag, strings] of Object.entries(record.localized)) {
    const { exception_hours: _old, ...other } = strings;
    const titles: Record<string, { title: string }> = {};
    for (const { from, rule } of dated) {
      const text = isLang(tag) ? rule.title[tag] : undefined;
      if (text !== undefined) titles[isoDate(from)] = { title: text };
    }
    localized[tag] = Object.keys(titles).length > 0 ? { ...other, exception_hours: titles } : other;
  }
  return { ...rest, exception_hours: exceptions, localized };
}
