/**
 * What a model reads about a Location: a compact text block, and the computed fields beside the
 * UCP Location in `structuredContent`.
 *
 * Computed with the domain's own evaluators, never re-implemented: the geodesic distance from
 * `near` on the WGS 84 ellipsoid (the measure `radius` is judged by), and the open/closed state
 * plus the next change evaluated on the Location's own `timezone` (R-H5) — shown in its local
 * time with the zone named, because "closes 18:00" means nothing without it. A Location with no
 * usable schedule is "hours unknown", never "open" (R-S6).
 */
import { DateTime } from 'luxon';
import { geodesicDistanceMeters, isUsableGeo } from '../domain/geodesy.js';
import { compileSchedule, isOpenCompiled, nextChangeCompiled } from '../domain/hours.js';
import type { Geo, Location, LookupLocation } from '../domain/location.js';
import type { DistanceUnit } from './arguments.js';
import { plain } from './plain.js';
import { comingExceptions, compactWeek } from './week.js';

export interface HoursView {
  state: 'open' | 'closed' | 'unknown';
  /** The instant evaluated, RFC 3339 (in the Location's offset when it has a zone). */
  evaluated_at: string;
  /** The Location's IANA zone, when it has one. */
  timezone?: string;
  /** The next opening or closing within 14 days, in the Location's offset. */
  next_change?: { at: string; state: 'open' | 'closed' };
  /** e.g. "Open now; closes 18:00 (Asia/Kathmandu)", "Open 24 hours (America/New_York)", "Hours unknown". */
  text: string;
  /** The regular week in compact form, e.g. "Mon–Fri 08:00–20:00 · Sat 09:00–14:00 · Sun closed". */
  week?: string;
  /** Named exceptions in the next 14 local days, e.g. "Staff Training Day, Fri 4 Dec: closed". */
  coming?: string[];
}

export interface LocationView {
  /** The configured name of the business that returned it. */
  business: string;
  /** The UCP Location as the business returned it. */
  location: Location | LookupLocation;
  /** Geodesic distance from `near`, whole metres. */
  distance_meters?: number;
  /** The same, rounded for people, e.g. "1.2 km". */
  distance?: string;
  hours: HoursView;
  /** Requested items (the business reports them available here: the filter requires it). */
  items?: string[];
}

export interface ViewOptions {
  /** Evaluate hours at this instant, ms. */
  at: number;
  /** True when `at` is the moment of the call ("open now"), false for a requested `open_at`. */
  atIsNow: boolean;
  near?: Geo;
  unit?: DistanceUnit;
  items?: readonly string[];
}

export function viewOf(business: string, location: Location | LookupLocation, options: ViewOptions): LocationView {
  const view: LocationView = { business, location, hours: hoursView(location, options.at, options.atIsNow) };
  const meters = distanceMeters(location, options.near);
  if (meters !== undefined) {
    view.distance_meters = Math.round(meters);
    view.distance = formatDistance(meters, options.unit ?? 'km');
  }
  if (options.items !== undefined && options.items.length > 0) view.items = [...options.items];
  return view;
}

export function distanceMeters(location: Location, near: Geo | undefined): number | undefined {
  if (near === undefined || location.geo === undefined || !isUsableGeo(location.geo)) return undefined;
  return geodesicDistanceMeters(near, location.geo);
}

/** Rounded for people: 10 m steps below 1 km, one decimal below 10 km (or mi), whole units beyond. */
export function formatDistance(meters: number, unit: DistanceUnit): string {
  if (unit === 'mi') {
    const miles = meters / 1609.344;
    if (miles < 0.1) return `${Math.max(10, Math.round(meters / 0.3048 / 10) * 10)} ft`;
    return miles < 10 ? `${miles.toFixed(1)} mi` : `${Math.round(miles)} mi`;
  }
  if (meters < 1000) return `${Math.max(10, Math.round(meters / 10) * 10)} m`;
  const km = meters / 1000;
  return km < 10 ? `${km.toFixed(1)} km` : `${Math.round(km)} km`;
}

/** A radius as the model would say it: "5 km", "3 mi", "800 m" (up to two decimals, no trailing zeros). */
export function formatRadius(meters: number, unit: DistanceUnit): string {
  const value = unit === 'mi' ? meters / 1609.344 : unit === 'km' ? meters / 1000 : meters;
  return `${Number(value.toFixed(2))} ${unit}`;
}

export function hoursView(location: Location, at: number, atIsNow: boolean): HoursView {
  const zone = location.timezone;
  const compiled = compileSchedule(location);
  // Whole seconds: the instant is shown to people and models, not used for arithmetic.
  const second = Math.floor(at / 1000) * 1000;
  const local = zone === undefined ? undefined : DateTime.fromMillis(second, { zone }).setLocale('en');
  const usableZone = local?.isValid === true ? local : undefined;
  const evaluated_at =
    (usableZone ?? DateTime.fromMillis(second, { zone: 'utc' })).toISO({ suppressMilliseconds: true }) ?? new Date(second).toISOString();
  const base = { evaluated_at, ...(zone !== undefined ? { timezone: zone } : {}) };
  if (usableZone === undefined || !compiled.valid || (location.hours === undefined && location.exception_hours === undefined)) {
    return { ...base, state: 'unknown', text: 'Hours unknown' };
  }
  const week = compactWeek(location.hours);
  const coming = comingExceptions(location.exception_hours, usableZone);
  const schedule = { ...(week !== undefined ? { week } : {}), ...(coming.length > 0 ? { coming } : {}) };
  const open = isOpenCompiled(compiled, at);
  const change = nextChangeCompiled(compiled, at);
  const state = open ? 'open' : 'closed';
  const when = atIsNow ? 'now' : `at the requested time (${usableZone.toFormat('ccc d LLL HH:mm')} local)`;
  const head = `${open ? 'Open' : 'Closed'} ${when}`;
  const zoneNote = ` (${zone})`;
  if (change === null) {
    // Open through the whole horizon on a round-the-clock week: say it the way a buyer would.
    const text =
      open && week === 'Open 24 hours'
        ? `Open 24 hours${zoneNote}`
        : `${head}; ${open ? 'no closing' : 'no opening'} within the next 14 days${zoneNote}`;
    return { ...base, state, text, ...schedule };
  }
  const changeLocal = DateTime.fromMillis(change.epochMs, { zone }).setLocale('en');
  const verb = change.state === 'open' ? 'opens' : 'closes';
  return {
    ...base,
    state,
    next_change: { at: change.at, state: change.state },
    text: `${head}; ${verb} ${relativeLocal(usableZone, changeLocal, atIsNow)}${zoneNote}`,
    ...schedule,
  };
}

/** "18:00", "tomorrow 09:00", "Tue 09:00" or "Tue 8 Dec 09:00", relative to the evaluated instant's local day. */
function relativeLocal(from: DateTime, to: DateTime, atIsNow: boolean): string {
  const time = to.toFormat('HH:mm');
  const days = Math.round(to.startOf('day').diff(from.startOf('day'), 'days').days);
  if (days === 0) return time;
  if (days === 1 && atIsNow) return `tomorrow ${time}`;
  if (days < 7) return `${to.toFormat('ccc')} ${time}`;
  return `${to.toFormat('ccc d LLL')} ${time}`;
}

export function formatAddress(location: Location): string | undefined {
  const a = location.address;
  if (a === undefined) return undefined;
  const parts = [
    a.street_address,
    a.extended_address,
    a.address_locality,
    [a.address_region, a.postal_code].filter(Boolean).join(' '),
    a.address_country,
  ];
  const text = parts
    .filter((p): p is string => typeof p === 'string')
    .map((p) => plain(p, 120))
    .filter((p) => p !== '')
    .join(', ');
  return text === '' ? undefined : text;
}

/** The text block of one Location, numbered `n`. Business strings are made plain lines (#37 N10). */
export function renderView(view: LocationView, n: number): string {
  const l = view.location;
  const lines = [
    `${n}. ${plain(l.name)} — ${view.business}, id ${JSON.stringify(plain(l.id))}${view.distance === undefined ? '' : `, ${view.distance} away`}`,
  ];
  const address = formatAddress(l);
  const phone = l.address?.phone_number === undefined ? '' : plain(l.address.phone_number, 40);
  const contact = [address, phone === '' ? undefined : `phone ${phone}`].filter((p): p is string => p !== undefined);
  if (contact.length > 0) lines.push(`   ${contact.join(' · ')}`);
  const hours = view.hours;
  lines.push(`   ${hours.text}`);
  if (hours.week !== undefined && !hours.text.startsWith(hours.week)) lines.push(`   Hours: ${hours.week}`);
  if (hours.coming !== undefined) lines.push(`   Coming: ${hours.coming.join(' · ')}`);
  const amenities = Object.values(l.amenities ?? {}).map((a) => plain(a.description, 80));
  if (amenities.length > 0) lines.push(`   Amenities: ${amenities.join(', ')}`);
  if (view.items !== undefined) lines.push(`   Has the requested items: ${view.items.map((i) => plain(i, 80)).join(', ')}`);
  if ('inputs' in l && Array.isArray(l.inputs)) {
    const asked = l.inputs.map((i) => i.id).filter((id) => id !== l.id);
    if (asked.length > 0) lines.push(`   Asked for as: ${asked.map((id) => JSON.stringify(plain(id))).join(', ')}`);
  }
  return lines.join('\n');
}
