/**
 * Local civil-time labels for an IANA zone, with the zone's UTC offsets memoised so that
 * evaluating thousands of schedules at one instant costs one Luxon lookup per zone.
 *
 * A "label" is the local wall-clock reading expressed as milliseconds on a zone-less
 * timeline: `label = epochMs + offsetMs(epochMs)`. Local day index = floor(label / DAY_MS)
 * (day 0 = 1970-01-01, a Thursday), time of day = label mod DAY_MS. Offsets come from Luxon
 * (which reads the tz database through Intl); nothing here reads the process's zone.
 */
import { IANAZone } from 'luxon';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/**
 * Offsets are memoised per bucket of this length. Invariant relied upon: a zone never has two
 * offset transitions within one bucket (tzdb transitions are at least days apart), so equal
 * offsets at both bucket edges mean a constant offset inside, and unequal edges mean exactly one
 * transition, located by bisection to the second.
 */
const BUCKET_MS = HOUR_MS;
/** Per-zone memo bound (buckets); cleared wholesale when exceeded — a memo, not a store. */
const MAX_BUCKETS = 20_000;

/** Offset facts for one bucket [k·BUCKET_MS, (k+1)·BUCKET_MS). */
interface Bucket {
  /** Offset (ms) before `transition` (the whole bucket when there is none). */
  readonly before: number;
  /** Offset (ms) from `transition` on. */
  readonly after: number;
  /** First epoch ms with offset `after`; +Infinity when the bucket has no transition. */
  readonly transition: number;
}

/** Monday = 0 … Sunday = 6 for a local day index (1970-01-01 was a Thursday = 3). */
export function weekdayOfDay(dayIndex: number): number {
  return (((dayIndex + 3) % 7) + 7) % 7;
}

/** A constant-offset stretch of time: [start, end) with `offsetMs`. */
export interface OffsetSpan {
  readonly offsetMs: number;
  /** Exclusive end (epoch ms): the next transition, or a bucket edge when none is known yet. */
  readonly end: number;
}

const IANA_SHAPE = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;
/**
 * ICU (hence Intl) also accepts Java-era three-letter ids that the tz database never had
 * ("PST", "IST", "CST", ...). They are ambiguous abbreviations, not IANA ids; of the all-caps
 * three-letter names only these exist in the tz database.
 */
const TZDB_THREE_LETTER = new Set(['EST', 'MST', 'HST', 'UTC', 'UCT', 'GMT', 'CET', 'EET', 'MET', 'WET', 'PRC', 'ROC', 'ROK']);

function looksLikeIana(name: string): boolean {
  if (!IANA_SHAPE.test(name) || name.startsWith('SystemV/')) return false;
  return !/^[A-Z]{3}$/.test(name) || TZDB_THREE_LETTER.has(name);
}
let canonicalIds: ReadonlySet<string> | undefined;

/**
 * Why `name` is not usable as an IANA zone id, or null when it is. Rejects offsets ("+05:00"),
 * ICU-only abbreviations ("PST"), unknown names, and wrong letter case of a canonical id (other software
 * compares ids case-sensitively, so "america/new_york" would be a trap for Platforms).
 */
export function zoneProblem(name: string): string | null {
  // Memoised: Luxon's validity check builds an Intl formatter (tens of µs), and a request may
  // compile thousands of schedules sharing a handful of zones.
  const known = zoneVerdicts.get(name);
  if (known !== undefined) return known;
  const verdict = checkZone(name);
  if (zoneVerdicts.size >= MAX_ZONE_VERDICTS) zoneVerdicts.clear();
  zoneVerdicts.set(name, verdict);
  return verdict;
}

const zoneVerdicts = new Map<string, string | null>();
const MAX_ZONE_VERDICTS = 2_000;

function checkZone(name: string): string | null {
  if (!looksLikeIana(name) || !IANAZone.isValidZone(name)) {
    return `${JSON.stringify(name)} is not an IANA time zone identifier; use a tz database id such as America/New_York or Europe/Berlin (not an offset or abbreviation)`;
  }
  canonicalIds ??= new Set(Intl.supportedValuesOf('timeZone'));
  if (!canonicalIds.has(name)) {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
    if (resolved !== name && resolved.toLowerCase() === name.toLowerCase()) {
      return `${JSON.stringify(name)} has the wrong letter case; write it as ${resolved}`;
    }
  }
  return null;
}

export class ZoneClock {
  readonly name: string;
  readonly #zone: IANAZone;
  readonly #buckets = new Map<number, Bucket>();
  // One-entry cache in front of the map: a search evaluates one instant many times.
  #lastKey = Number.NaN;
  #last: Bucket | undefined;

  private constructor(name: string) {
    this.name = name;
    this.#zone = IANAZone.create(name);
  }

  static readonly #clocks = new Map<string, ZoneClock>();

  /** Shared clock for a zone id already accepted by `zoneProblem`. */
  static for(name: string): ZoneClock {
    let clock = ZoneClock.#clocks.get(name);
    if (clock === undefined) {
      clock = new ZoneClock(name);
      ZoneClock.#clocks.set(name, clock);
    }
    return clock;
  }

  /** Offset in ms (NaN outside the range Intl can represent). */
  #rawOffset(epochMs: number): number {
    return Math.round(this.#zone.offset(epochMs) * MINUTE_MS);
  }

  #bucket(key: number): Bucket {
    if (key === this.#lastKey && this.#last !== undefined) return this.#last;
    let b = this.#buckets.get(key);
    if (b === undefined) {
      if (this.#buckets.size >= MAX_BUCKETS) this.#buckets.clear();
      b = this.#computeBucket(key);
      this.#buckets.set(key, b);
    }
    this.#lastKey = key;
    this.#last = b;
    return b;
  }

  #computeBucket(key: number): Bucket {
    const start = key * BUCKET_MS;
    const before = this.#rawOffset(start);
    const after = this.#rawOffset(start + BUCKET_MS);
    if (before === after || Number.isNaN(before) || Number.isNaN(after)) {
      return { before, after: before, transition: Number.POSITIVE_INFINITY };
    }
    // tz transitions fall on whole seconds and Luxon reads offsets at second precision:
    // bisect on seconds for the first second whose offset is no longer `before`.
    let lo = start / 1000; // offset(lo) === before
    let hi = (start + BUCKET_MS) / 1000; // offset(hi) !== before
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (this.#rawOffset(mid * 1000) === before) lo = mid;
      else hi = mid;
    }
    return { before, after, transition: hi * 1000 };
  }

  /** UTC offset in ms at an instant (local = utc + offset). NaN when not representable. */
  offsetMs(epochMs: number): number {
    const b = this.#bucket(Math.floor(epochMs / BUCKET_MS));
    return epochMs < b.transition ? b.before : b.after;
  }

  /** Local label (ms) of an instant; see the module comment. */
  label(epochMs: number): number {
    return epochMs + this.offsetMs(epochMs);
  }

  /** The constant-offset stretch containing `epochMs`, cut at the bucket edge. */
  span(epochMs: number): OffsetSpan {
    const key = Math.floor(epochMs / BUCKET_MS);
    const b = this.#bucket(key);
    if (epochMs < b.transition) return { offsetMs: b.before, end: Math.min(b.transition, (key + 1) * BUCKET_MS) };
    return { offsetMs: b.after, end: (key + 1) * BUCKET_MS };
  }
}
