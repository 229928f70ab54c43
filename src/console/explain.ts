/**
 * "Why not matched", as the console shows it: the service's explanation (LocationService.explain,
 * which runs the search's own steps on one snapshot) with a sentence per predicate. Nothing here
 * decides whether a predicate passes; it only puts the engine's numbers into words.
 */
import { DateTime } from 'luxon';
import type { OpenAtExplanation } from '../domain/hours.js';
import type { PredicateFinding } from '../domain/explanation.js';
import { validateSearchRequest } from '../domain/request-validation.js';
import type { LocationService } from '../service.js';
import { readableMeters } from './readable.js';

/** A predicate's finding with the sentence that explains it. */
export type Verdict = PredicateFinding & { why: string };

export interface Explanation {
  /** The id or alias asked about, and what it resolved to. */
  asked: string;
  id: string | null;
  name: string | null;
  /** True when the Location is in the answer's result set (every predicate passes). */
  matched: boolean;
  verdicts: Verdict[];
  /** Set when the id resolves to no public Location. */
  notFound?: string;
}

/**
 * Explains why the Location `idOrAlias` is or is not in the answer to `input`. The request is
 * validated exactly as the MCP tool and REST route validate it (UcpRequestError otherwise).
 */
export async function explainLocation(service: LocationService, input: unknown, idOrAlias: string): Promise<Explanation> {
  const explanation = await service.explain(validateSearchRequest(input), idOrAlias);
  const location = explanation.location;
  if (location === null) {
    return {
      asked: idOrAlias,
      id: null,
      name: null,
      matched: false,
      verdicts: [],
      notFound: `No public Location has the id or alias ${JSON.stringify(idOrAlias)}; private Locations are never in an answer.`,
    };
  }
  return {
    asked: idOrAlias,
    id: location.id,
    name: location.name,
    matched: explanation.matched,
    verdicts: explanation.findings.map((f): Verdict => ({ ...f, why: sentence(f) })),
  };
}

/** One predicate's finding in words. */
function sentence(f: PredicateFinding): string {
  switch (f.predicate) {
    case 'query':
      return queryWhy(f.pass, f.terms, f.relevance);
    case 'distance':
      return f.distanceMeters === null
        ? 'the Location has no usable geo, so no distance matches'
        : `${readableMeters(f.distanceMeters)} from the centre; max is ${readableMeters(f.maxMeters)}`;
    case 'serves.point':
      return pointWhy(f.pass, f.radiusMeters, f.distanceMeters, f.areas);
    case 'serves.address':
      return `${f.pass ? 'lists' : 'does not list'} ${Object.values(f.target).join(' / ')} (or a coarser code, region or country containing it) in its coverage`;
    case 'hours':
      return `${readableLocal(f.explanation)}: ${hoursWhy(f.explanation)}`;
    case 'amenities':
      return f.missing.length === 0 ? 'has every amenity asked for' : `lacks ${f.missing.join(', ')}`;
    case 'items':
      return itemsWhy(f.unknown, f.unavailable);
  }
}

function queryWhy(pass: boolean, terms: readonly string[], relevance: number | null): string {
  if (!pass) return `none of the terms ${terms.map((t) => JSON.stringify(t)).join(', ')} matches its name, keywords, address or amenities`;
  // A score orders results only where it differs from others; 0 (every match ties) says nothing.
  return relevance !== null && relevance > 0
    ? `the text matches (relevance ${relevance.toFixed(2)}, which orders the results)`
    : 'the text matches';
}

function pointWhy(pass: boolean, radius: number | null, distance: number | null, areas: number): string {
  const parts: string[] = [];
  if (radius !== null)
    parts.push(
      `radius ${readableMeters(radius)}, the point is ${distance === null ? 'at an unknown distance' : readableMeters(distance)} away`,
    );
  if (areas > 0) parts.push(`${areas} coverage area(s)`);
  return `${pass ? 'covers' : 'does not cover'} the point: ${parts.join('; ') || 'no radius or area is declared'}`;
}

function itemsWhy(unknown: readonly string[], unavailable: readonly string[]): string {
  const parts: string[] = [];
  if (unknown.length > 0) parts.push(`${unknown.join(', ')} unknown to this Business (the whole search returns nothing)`);
  if (unavailable.length > 0) parts.push(`${unavailable.join(', ')} not available here`);
  return parts.length === 0 ? 'every item is available here' : parts.join('; ');
}

/** "Thu 24 Dec 2026, 12:00 (UTC+01:00, Europe/Berlin)", or the zone's absence in words. */
function readableLocal(e: OpenAtExplanation): string {
  if (e.localTime === null || e.timezone === null)
    return `At that instant (the Location has ${e.timezone === null ? 'no time zone' : 'no readable local time'})`;
  const local = DateTime.fromISO(e.localTime, { locale: 'en' });
  return `${local.toFormat('ccc d LLL yyyy, HH:mm')} (UTC${e.offset ?? ''}, ${e.timezone})`;
}

/** The rule that decided an open-at verdict, in words. */
function hoursWhy(explanation: OpenAtExplanation): string {
  const rule = explanation.rule;
  if (rule === null)
    return explanation.problems.length > 0
      ? `hours cannot be evaluated (${explanation.problems.join('; ')}), so an open-at filter never matches it`
      : 'hours unknown (none were given, or they were dropped at import), so an open-at filter never matches it';
  if (rule.kind === 'unknown-regular-hours') return 'regular hours are unknown (no hours) and no exception covers the date';
  if (rule.kind === 'exception') {
    const name = rule.titles.length > 0 ? `"${rule.titles.join('", "')}"` : 'an exception';
    if (rule.closure) return `${name} closes it from ${rule.validFrom} through ${rule.validThrough}`;
    return rule.matched !== undefined
      ? `${name} (${rule.validFrom}..${rule.validThrough}) opens it ${rule.matched}${rule.from === 'carried' ? ', carried over from the day before' : ''}`
      : `${name} (${rule.validFrom}..${rule.validThrough}) replaces the regular hours with ${rule.intervals.join(', ') || 'nothing'}, which do not cover ${explanation.localTime ?? ''}`;
  }
  return rule.matched !== undefined
    ? `open ${rule.matched} on ${rule.day}${rule.from === 'carried' ? ' (an overnight interval carried over)' : ''}`
    : `on ${rule.day} the hours are ${rule.intervals.join(', ') || 'none (closed all day)'}, which do not cover ${explanation.localTime?.slice(11, 16) ?? ''}`;
}
