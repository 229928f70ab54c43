/**
 * What the engine reports when asked why one Location is or is not in the answer to a search
 * (`LocationService.explain`): for each predicate of the request, whether the Location passes it
 * and the numbers that decided it. Presentation (sentences, rounding) is left to the caller.
 *
 * The builders here take what the engine's own exact tests take — compiled coverage and
 * schedules, the Location's geo — so a finding can never disagree with the filter it explains.
 */
import { geodesicDistanceMeters, withinDistance } from './geodesy.js';
import { explainOpenAt, type CompiledSchedule, type OpenAtExplanation } from './hours.js';
import type { Geo } from './location.js';
import { coverageContainsPoint, type CompiledCoverage, type LocalityTarget } from './serves.js';

export type PredicateFinding =
  /** `query` (R-S3): the typed terms, and the store's relevance when the text matched. */
  | { predicate: 'query'; pass: boolean; terms: string[]; relevance: number | null }
  /** `distance` (R-S4): the exact geodesic distance from the center (null without a usable geo). */
  | { predicate: 'distance'; pass: boolean; distanceMeters: number | null; maxMeters: number; center: Geo }
  /** `serves.point` (R-S5): the declared radius and areas, and the point's distance from the Location. */
  | { predicate: 'serves.point'; pass: boolean; radiusMeters: number | null; distanceMeters: number | null; areas: number }
  /** `serves.address` (R-S5): the normalised target the Location's lists were compared with. */
  | { predicate: 'serves.address'; pass: boolean; target: Record<string, string> }
  /** `filters.hours.open_at` (R-S6): the rule of the schedule that decided the instant. */
  | { predicate: 'hours'; pass: boolean; openAt: string; explanation: OpenAtExplanation }
  /** `filters.amenities` (R-S7): the ids asked for and those the Location lacks. */
  | { predicate: 'amenities'; pass: boolean; required: string[]; missing: string[] }
  /** `filters.items` (R-S8): items not available here, and items unknown to the Business (which empty any answer). */
  | { predicate: 'items'; pass: boolean; required: string[]; unavailable: string[]; unknown: string[] };

export interface MatchExplanation {
  /** The id or alias asked about. */
  asked: string;
  /** The public Location it resolved to; null when it names none (private Locations included). */
  location: { id: string; name: string } | null;
  /** True when the search's own steps keep the Location: it is in the answer's result set. */
  matched: boolean;
  /** One finding per predicate of the request, in the order query, distance, serves, hours, amenities, items. */
  findings: PredicateFinding[];
}

/** R-S4, with the exact distance (the engine's `<=` test, no tolerance). */
export function distanceFinding(center: Geo, maxMeters: number, geo: Geo | null): PredicateFinding {
  return {
    predicate: 'distance',
    pass: withinDistance(center, geo, maxMeters),
    distanceMeters: geo === null ? null : geodesicDistanceMeters(center, geo),
    maxMeters,
    center,
  };
}

/** R-S5 `serves.point`, on the coverage as the engine compiled it (null: none, or unusable). */
export function pointCoverageFinding(coverage: CompiledCoverage | null, geo: Geo | null, point: Geo): PredicateFinding {
  return {
    predicate: 'serves.point',
    pass: coverage !== null && coverageContainsPoint(coverage, geo, point),
    radiusMeters: coverage?.radiusMeters ?? null,
    distanceMeters: geo === null ? null : geodesicDistanceMeters(geo, point),
    areas: coverage?.polygons.length ?? 0,
  };
}

/** R-S6, on the schedule as the engine compiled it. `openAt` is the instant as the request wrote it. */
export function openAtFinding(schedule: CompiledSchedule, openAt: string, openAtMs: number): PredicateFinding {
  const explanation = explainOpenAt(schedule, openAtMs);
  return { predicate: 'hours', pass: explanation.open, openAt, explanation };
}

/** R-S5 `serves.address`: the normalised target as shown to a reader (country, region, postal code). */
export function localityFinding(target: LocalityTarget, pass: boolean): PredicateFinding {
  const shown: Record<string, string> = { country: target.country };
  if (target.region !== undefined) shown['region'] = target.region;
  if (target.postalCode !== undefined) shown['postal_code'] = target.postalCode;
  return { predicate: 'serves.address', pass, target: shown };
}
