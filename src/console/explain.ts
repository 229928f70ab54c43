/**
 * "Why not matched": for one Location and one search request, each predicate's verdict with its
 * numbers. Every verdict comes from the function the engine itself uses — the geodesic test
 * (domain/geodesy.ts), coverage (domain/serves.ts), opening hours (domain/hours.ts), and for the
 * predicates the store evaluates exactly (amenities, items, serves.address, text) the store
 * itself, asked about this one Location — never from a second implementation.
 */
import { DateTime } from 'luxon';
import { UcpRequestError } from '../errors.js';
import { geodesicDistanceMeters, isUsableGeo, withinDistance } from '../domain/geodesy.js';
import { compileSchedule, explainOpenAt, type OpenAtExplanation } from '../domain/hours.js';
import type { Coverage, Geo, Schedule } from '../domain/location.js';
import { planPredicates } from '../domain/predicates.js';
import { validateSearchRequest } from '../domain/request-validation.js';
import type { SearchRequest } from '../domain/requests.js';
import { compileCoverage, coverageContainsPoint, normalizeLocalityTarget } from '../domain/serves.js';
import { tokenize } from '../domain/text.js';
import type { LocationService } from '../service.js';
import type { Candidate, CandidateQuery } from '../store/store.js';
import { readableMeters } from './readable.js';

export type Verdict =
  | { predicate: 'distance'; pass: boolean; distanceMeters: number | null; maxMeters: number; center: Geo; why: string }
  | { predicate: 'serves.point'; pass: boolean; radiusMeters: number | null; distanceMeters: number | null; areas: number; why: string }
  | { predicate: 'serves.address'; pass: boolean; target: Record<string, string>; why: string }
  | { predicate: 'hours'; pass: boolean; openAt: string; explanation: OpenAtExplanation; why: string }
  | { predicate: 'amenities'; pass: boolean; required: string[]; missing: string[]; why: string }
  | { predicate: 'items'; pass: boolean; required: string[]; unavailable: string[]; unknown: string[]; why: string }
  | { predicate: 'query'; pass: boolean; terms: string[]; relevance: number | null; why: string };

export interface Explanation {
  /** The id or alias asked about, and what it resolved to. */
  asked: string;
  id: string | null;
  name: string | null;
  /** True when every predicate passes: the Location is in the answer's result set. */
  matched: boolean;
  verdicts: Verdict[];
  /** Set when the id resolves to no public Location. */
  notFound?: string;
}

/** Asks the store whether this one Location passes one exactly-evaluated predicate. */
async function storeKeeps(service: LocationService, key: number, query: CandidateQuery): Promise<Candidate | null> {
  const rows = await service.store.findCandidates({ ...query, keys: [key] });
  return rows[0] ?? null;
}

/** "Thu 24 Dec 2026, 12:00 (UTC+01:00, Europe/Berlin)", or the zone's absence in words. */
function readableLocal(e: OpenAtExplanation): string {
  if (e.localTime === null || e.timezone === null)
    return `At that instant (the Location has ${e.timezone === null ? 'no time zone' : 'no readable local time'})`;
  const local = DateTime.fromISO(e.localTime, { locale: 'en' });
  return `${local.toFormat('ccc d LLL yyyy, HH:mm')} (UTC${e.offset ?? ''}, ${e.timezone})`;
}

function hoursVerdict(schedule: string | null | undefined, openAt: string, openAtMs: number): Verdict {
  const raw = schedule === null || schedule === undefined ? {} : (JSON.parse(schedule) as Schedule);
  const explanation = explainOpenAt(compileSchedule(raw), openAtMs);
  const rule = explanation.rule;
  let why: string;
  if (rule === null)
    why =
      explanation.problems.length > 0
        ? `hours cannot be evaluated (${explanation.problems.join('; ')}), so an open-at filter never matches it`
        : 'hours unknown (none were given, or they were dropped at import), so an open-at filter never matches it';
  else if (rule.kind === 'unknown-regular-hours') why = 'regular hours are unknown (no hours) and no exception covers the date';
  else if (rule.kind === 'exception') {
    const name = rule.titles.length > 0 ? `"${rule.titles.join('", "')}"` : 'an exception';
    why = rule.closure
      ? `${name} closes it from ${rule.validFrom} through ${rule.validThrough}`
      : rule.matched !== undefined
        ? `${name} (${rule.validFrom}..${rule.validThrough}) opens it ${rule.matched}${rule.from === 'carried' ? ', carried over from the day before' : ''}`
        : `${name} (${rule.validFrom}..${rule.validThrough}) replaces the regular hours with ${rule.intervals.join(', ') || 'nothing'}, which do not cover ${explanation.localTime ?? ''}`;
  } else {
    why =
      rule.matched !== undefined
        ? `open ${rule.matched} on ${rule.day}${rule.from === 'carried' ? ' (an overnight interval carried over)' : ''}`
        : `on ${rule.day} the hours are ${rule.intervals.join(', ') || 'none (closed all day)'}, which do not cover ${explanation.localTime?.slice(11, 16) ?? ''}`;
  }
  return {
    predicate: 'hours',
    pass: explanation.open,
    openAt,
    explanation,
    why: `${readableLocal(explanation)}: ${why}`,
  };
}

/**
 * Explains why the Location `idOrAlias` is or is not in the answer to `request`. The request is
 * validated exactly as the MCP tool and REST route validate it (UcpRequestError otherwise).
 */
export async function explainLocation(service: LocationService, input: unknown, idOrAlias: string): Promise<Explanation> {
  const request: SearchRequest = validateSearchRequest(input);
  const plan = planPredicates(request, service.limits);
  const resolved = (await service.store.resolveIds([idOrAlias])).get(idOrAlias) ?? [];
  const key = resolved[0];
  if (key === undefined) {
    return {
      asked: idOrAlias,
      id: null,
      name: null,
      matched: false,
      verdicts: [],
      notFound: `No public Location has the id or alias ${JSON.stringify(idOrAlias)}; private Locations are never in an answer.`,
    };
  }
  const row = await storeKeeps(service, key, { withSchedule: true, withCoverage: true });
  const [doc] = await service.store.getLocations([key]);
  if (row === null || doc === undefined)
    throw new UcpRequestError('invalid_request', `Location ${idOrAlias} changed while it was read; ask again`);
  const geo = row.geo !== null && isUsableGeo(row.geo) ? row.geo : null;
  const verdicts: Verdict[] = [];

  if (request.query !== undefined) {
    const terms = tokenize(request.query);
    const hit = terms.length === 0 ? row : await storeKeeps(service, key, { text: { raw: request.query, terms } });
    verdicts.push({
      predicate: 'query',
      pass: hit !== null,
      terms,
      relevance: hit?.relevance ?? null,
      why:
        hit !== null
          ? // A score orders results only where it differs from others; 0 (every match ties) says nothing.
            hit.relevance > 0
            ? `the text matches (relevance ${hit.relevance.toFixed(2)}, which orders the results)`
            : 'the text matches'
          : `none of the terms ${terms.map((t) => JSON.stringify(t)).join(', ')} matches its name, keywords, address or amenities`,
    });
  }
  if (plan.distance !== null) {
    const { center, max } = plan.distance;
    const d = geo === null ? null : geodesicDistanceMeters(center, geo);
    const pass = withinDistance(center, geo, max);
    verdicts.push({
      predicate: 'distance',
      pass,
      distanceMeters: d,
      maxMeters: max,
      center,
      why:
        d === null
          ? 'the Location has no usable geo, so no distance matches'
          : `${readableMeters(d)} from the centre; max is ${readableMeters(max)}`,
    });
  }
  if (plan.servesPoint !== null) {
    const point = plan.servesPoint;
    const raw =
      row.coverage === null || row.coverage === undefined ? null : (JSON.parse(row.coverage) as Pick<Coverage, 'radius_m' | 'areas'>);
    const compiled = raw === null ? null : compileCoverage(raw);
    const pass = compiled !== null && coverageContainsPoint(compiled, geo, point);
    const d = geo === null ? null : geodesicDistanceMeters(geo, point);
    const radius = compiled?.radiusMeters ?? null;
    const areas = compiled?.polygons.length ?? 0;
    const parts: string[] = [];
    if (radius !== null)
      parts.push(`radius ${readableMeters(radius)}, the point is ${d === null ? 'at an unknown distance' : readableMeters(d)} away`);
    if (areas > 0) parts.push(`${areas} coverage area(s)`);
    verdicts.push({
      predicate: 'serves.point',
      pass,
      radiusMeters: radius,
      distanceMeters: d,
      areas,
      why: `${pass ? 'covers' : 'does not cover'} the point: ${parts.join('; ') || 'no radius or area is declared'}`,
    });
  }
  if (plan.servesAddress !== null) {
    const target = normalizeLocalityTarget(plan.servesAddress, await service.store.localityModel());
    const locality: NonNullable<CandidateQuery['locality']> = { country: target.country };
    if (target.region !== undefined) locality.region = target.region;
    if (target.postalKeys !== undefined) locality.postalCodes = target.postalKeys;
    const pass = (await storeKeeps(service, key, { locality })) !== null;
    const shown: Record<string, string> = { country: target.country };
    if (target.region !== undefined) shown['region'] = target.region;
    if (target.postalCode !== undefined) shown['postal_code'] = target.postalCode;
    verdicts.push({
      predicate: 'serves.address',
      pass,
      target: shown,
      why: `${pass ? 'lists' : 'does not list'} ${Object.values(shown).join(' / ')} (or a coarser code, region or country containing it) in its coverage`,
    });
  }
  if (plan.openAtMs !== null) {
    verdicts.push(hoursVerdict(row.schedule, request.filters?.hours?.open_at ?? '', plan.openAtMs));
  }
  if (plan.amenities.length > 0) {
    const missing: string[] = [];
    for (const a of plan.amenities) if ((await storeKeeps(service, key, { amenities: [a] })) === null) missing.push(a);
    verdicts.push({
      predicate: 'amenities',
      pass: missing.length === 0,
      required: plan.amenities,
      missing,
      why: missing.length === 0 ? 'has every amenity asked for' : `lacks ${missing.join(', ')}`,
    });
  }
  if (plan.items.length > 0) {
    const known = await service.store.knownItems(plan.items);
    const unknown = plan.items.filter((i) => !known.has(i));
    const unavailable: string[] = [];
    for (const i of plan.items) if (known.has(i) && (await storeKeeps(service, key, { items: [i] })) === null) unavailable.push(i);
    const parts: string[] = [];
    if (unknown.length > 0) parts.push(`${unknown.join(', ')} unknown to this Business (the whole search returns nothing)`);
    if (unavailable.length > 0) parts.push(`${unavailable.join(', ')} not available here`);
    verdicts.push({
      predicate: 'items',
      pass: unknown.length === 0 && unavailable.length === 0,
      required: plan.items,
      unavailable,
      unknown,
      why: parts.length === 0 ? 'every item is available here' : parts.join('; '),
    });
  }
  return { asked: idOrAlias, id: doc.id, name: doc.name, matched: verdicts.every((v) => v.pass), verdicts };
}
