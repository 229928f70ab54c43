/**
 * The compact cell syntaxes of the CSV format (docs/data-format.md), both ways:
 *
 *   hours            `mon 09:00-12:00,13:00-17:00; tue-fri 09:00-21:00; sat 22:00-02:00`
 *                    (`closed` alone = known schedule without regular opening, i.e. `[]`)
 *   exception_hours  `2026-12-25 closed; 2026-12-24 09:00-14:00 "Christmas Eve"; 2026-12-31..2027-01-01 closed`
 *   lists            `a|b|c` — `\|` and `\\` escape a literal bar / backslash
 *   amenities        `dev.ucp.amenity.parking=Parking|dev.ucp.amenity.wi_fi=Free Wi-Fi`
 *   per-country      `US:NY|US:NJ`
 *
 * Parsers only split text into the record's shape; the values themselves (HH:MM, dates, ids) are
 * then checked by validateRecord like any other record, so CSV and NDJSON obey one rule set.
 * Formatters are the exact inverse: format → parse returns the same entries in the same order.
 */
import { DAYS, type Amenities, type DailyHour, type Day, type ExceptionHour } from '../domain/location.js';
import { group } from './match-group.js';

export type Parsed<T> = { value: T } | { error: string };

const DAY_BY_NAME = new Map<string, Day>(DAYS.flatMap((d) => [[d, d] as const, [d.slice(0, 3), d] as const]));

/** Splits on `sep`, honouring backslash escapes; items are trimmed. */
export function splitEscaped(text: string, sep: string): string[] {
  const items: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (c === '\\' && i + 1 < text.length) {
      current += text[i + 1];
      i++;
    } else if (c === sep) {
      items.push(current.trim());
      current = '';
    } else {
      current += c;
    }
  }
  items.push(current.trim());
  return items;
}

export function escapeItem(value: string, sep: string): string {
  let out = '';
  for (const c of value) out += c === '\\' || c === sep ? `\\${c}` : c;
  return out;
}

/** `a|b|c` → ['a','b','c']; empty items are an error (a stray or doubled bar). */
export function parseList(text: string): Parsed<string[]> {
  const items = splitEscaped(text, '|');
  const empty = items.findIndex((s) => s === '');
  if (empty !== -1) return { error: `item ${empty + 1} of ${JSON.stringify(text)} is empty (stray "|"?)` };
  return { value: items };
}

export function formatList(items: readonly string[]): string {
  return items.map((s) => escapeItem(s, '|')).join('|');
}

function parseDays(spec: string): Parsed<Day[]> {
  const lower = spec.toLowerCase();
  if (lower === 'daily') return { value: [...DAYS] };
  const days: Day[] = [];
  for (const part of lower.split(',')) {
    const [a, b, extra] = part.split('-');
    const from = DAY_BY_NAME.get(a ?? '');
    const to = b === undefined ? from : DAY_BY_NAME.get(b);
    if (from === undefined || to === undefined || extra !== undefined) {
      return { error: `${JSON.stringify(part)} is not a day or day range (mon … sun, e.g. "mon", "tue-fri", "sat,sun" or "daily")` };
    }
    // Ranges may wrap the week ("fri-mon"); they expand in week order from the first day.
    const start = DAYS.indexOf(from);
    for (const day of [...DAYS.slice(start), ...DAYS.slice(0, start)]) {
      days.push(day);
      if (day === to) break;
    }
  }
  return { value: days };
}

function parseInterval(token: string): Parsed<{ opens: string; closes: string }> {
  const m = /^([^-\s]+)\s*-\s*([^-\s]+)$/.exec(token.trim());
  if (m === null) return { error: `${JSON.stringify(token.trim())} is not an interval "HH:MM-HH:MM"` };
  return { value: { opens: group(m, 1), closes: group(m, 2) } };
}

function parseIntervals(text: string): Parsed<{ opens: string; closes: string }[]> {
  const out: { opens: string; closes: string }[] = [];
  for (const token of text.split(',')) {
    const r = parseInterval(token);
    if ('error' in r) return r;
    out.push(r.value);
  }
  return { value: out };
}

export function parseHours(text: string): Parsed<DailyHour[]> {
  const trimmed = text.trim();
  if (trimmed.toLowerCase() === 'closed') return { value: [] };
  const hours: DailyHour[] = [];
  for (const segment of trimmed.split(';')) {
    const s = segment.trim();
    if (s === '') continue;
    const m = /^(\S+)\s+(.+)$/.exec(s);
    if (m === null) return { error: `segment ${JSON.stringify(s)} needs days and intervals, e.g. "mon-fri 09:00-17:00"` };
    const days = parseDays(group(m, 1));
    if ('error' in days) return { error: `in ${JSON.stringify(s)}: ${days.error}` };
    const intervals = parseIntervals(group(m, 2));
    if ('error' in intervals) return { error: `in ${JSON.stringify(s)}: ${intervals.error}` };
    for (const day of days.value) for (const iv of intervals.value) hours.push({ day, ...iv });
  }
  return { value: hours };
}

/**
 * Consecutive entries of one day become one segment; consecutive days (Mon→Sun, no wrap) with
 * identical interval lists become a range. Expansion order equals input order, so this inverts
 * parseHours exactly.
 */
export function formatHours(hours: readonly DailyHour[]): string {
  if (hours.length === 0) return 'closed';
  // Consecutive entries of one day first, then runs of consecutive days with the same intervals.
  const perDay: { day: Day; parts: string[] }[] = [];
  for (const h of hours) {
    const run = perDay.at(-1);
    if (run !== undefined && run.day === h.day) run.parts.push(`${h.opens}-${h.closes}`);
    else perDay.push({ day: h.day, parts: [`${h.opens}-${h.closes}`] });
  }
  const groups: { first: Day; last: Day; intervals: string }[] = [];
  for (const { day, parts } of perDay) {
    const intervals = parts.join(',');
    const last = groups.at(-1);
    if (last !== undefined && last.intervals === intervals && DAYS.indexOf(last.last) + 1 === DAYS.indexOf(day)) {
      last.last = day;
    } else {
      groups.push({ first: day, last: day, intervals });
    }
  }
  return groups
    .map((g) => {
      const first = g.first.slice(0, 3);
      const span = g.first === g.last ? first : `${first}-${g.last.slice(0, 3)}`;
      return `${span} ${g.intervals}`;
    })
    .join('; ');
}

/** Splits on `;` outside double-quoted titles. */
function splitSegments(text: string): Parsed<string[]> {
  const segments: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (quoted && c === '\\' && i + 1 < text.length) {
      current += c + text.charAt(i + 1);
      i++;
      continue;
    }
    if (c === '"') quoted = !quoted;
    if (c === ';' && !quoted) {
      segments.push(current);
      current = '';
    } else {
      current += c;
    }
  }
  if (quoted) return { error: `a title in ${JSON.stringify(text)} has no closing quote` };
  segments.push(current);
  return { value: segments.map((s) => s.trim()).filter((s) => s !== '') };
}

function unquoteTitle(quoted: string): string {
  return quoted.slice(1, -1).replace(/\\(.)/g, '$1');
}

function quoteTitle(title: string): string {
  return `"${title.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

const EXCEPTION_SEGMENT = /^(\S+?)(?:\.\.(\S+))?\s+(closed|[^"]+?)\s*("(?:[^"\\]|\\.)*")?$/i;

export function parseExceptions(text: string): Parsed<ExceptionHour[]> {
  const segments = splitSegments(text);
  if ('error' in segments) return segments;
  const list: ExceptionHour[] = [];
  for (const s of segments.value) {
    const m = EXCEPTION_SEGMENT.exec(s);
    if (m === null) {
      return { error: `segment ${JSON.stringify(s)} must look like "2026-12-25 closed", "2026-12-24 09:00-14:00 \\"Christmas Eve\\"" or "2026-12-31..2027-01-01 closed"` };
    }
    const from = group(m, 1);
    const base: ExceptionHour = { valid_from: from, valid_through: m[2] ?? from };
    if (m[4] !== undefined) base.title = unquoteTitle(m[4]);
    const what = group(m, 3);
    if (what.toLowerCase() === 'closed') {
      list.push(base);
      continue;
    }
    const intervals = parseIntervals(what);
    if ('error' in intervals) return { error: `in ${JSON.stringify(s)}: ${intervals.error}` };
    for (const iv of intervals.value) list.push({ ...base, ...iv });
  }
  return { value: list };
}

/** Consecutive timed entries with identical bounds and title share one segment. */
export function formatExceptions(list: readonly ExceptionHour[]): string {
  // A closed entry is a segment of its own; a timed one joins the timed segment before it when the
  // bounds and title match.
  const runs: { head: ExceptionHour; intervals: string[] }[] = [];
  for (const e of list) {
    const interval = e.opens !== undefined && e.closes !== undefined ? `${e.opens}-${e.closes}` : undefined;
    const run = runs.at(-1);
    if (interval !== undefined && run !== undefined && run.intervals.length > 0 && run.head.valid_from === e.valid_from && run.head.valid_through === e.valid_through && run.head.title === e.title) {
      run.intervals.push(interval);
    } else {
      runs.push({ head: e, intervals: interval === undefined ? [] : [interval] });
    }
  }
  const segments = runs.map(({ head: e, intervals }) => {
    const range = e.valid_from === e.valid_through ? e.valid_from : `${e.valid_from}..${e.valid_through}`;
    const title = e.title !== undefined ? ` ${quoteTitle(e.title)}` : '';
    return `${range} ${intervals.length === 0 ? 'closed' : intervals.join(',')}${title}`;
  });
  return segments.join('; ');
}

export function parseAmenities(text: string): Parsed<Amenities> {
  const items = parseList(text);
  if ('error' in items) return items;
  const amenities: Amenities = {};
  for (const item of items.value) {
    // Split at the first unescaped '='; parseList already removed escapes, so ids (which cannot
    // contain '=') end at the first '=' and descriptions may contain more.
    const eq = item.indexOf('=');
    if (eq <= 0 || item.slice(eq + 1).trim() === '') {
      return { error: `amenity ${JSON.stringify(item)} must be written id=Description, e.g. dev.ucp.amenity.parking=Parking` };
    }
    const id = item.slice(0, eq).trim();
    if (Object.hasOwn(amenities, id)) return { error: `amenity ${JSON.stringify(id)} is listed twice` };
    amenities[id] = { description: item.slice(eq + 1).trim() };
  }
  return { value: amenities };
}

export function formatAmenities(amenities: Amenities): string {
  return formatList(Object.entries(amenities).map(([id, a]) => `${id}=${a.description}`));
}

/** `US:NY|US:NJ|CA:ON` → {US: [NY, NJ], CA: [ON]} (countries in first-seen order). */
export function parsePerCountry(text: string): Parsed<Record<string, string[]>> {
  const items = parseList(text);
  if ('error' in items) return items;
  const map: Record<string, string[]> = {};
  for (const item of items.value) {
    const colon = item.indexOf(':');
    if (colon <= 0 || colon === item.length - 1) {
      return { error: `${JSON.stringify(item)} must be written COUNTRY:value, e.g. US:NY` };
    }
    const country = item.slice(0, colon).trim();
    (map[country] ??= []).push(item.slice(colon + 1).trim());
  }
  return { value: map };
}

export function formatPerCountry(map: Record<string, readonly string[]>): string {
  return formatList(Object.entries(map).flatMap(([country, values]) => values.map((v) => `${country}:${v}`)));
}
