/**
 * R-M1's "every schema failure": one invalid request per required member of every operand of
 * search and lookup — the member missing, of the wrong type, out of range, or in a malformed
 * format (an instant without offset) — each built from an otherwise valid request, so the one
 * fault is the only reason to refuse it. A Business that answers any of them with success
 * accepted a request its schema forbids.
 *
 * The table is written out (not derived from the schemas at run time) so that each probe reads as
 * the mistake a Platform could make, and so a change to the pinned schemas cannot silently shrink it.
 */
import type { Operation } from '../operation-client.js';

export interface OperandProbe {
  operation: Operation;
  request: Record<string, unknown>;
  /** The fault, for evidence: "distance.center.latitude: out of range (95)". */
  why: string;
}

type Json = Record<string, unknown>;

const POINT = { latitude: 40.7128, longitude: -74.006 };
const DISTANCE = { center: POINT, max: 5_000 };
const INSTANT = '2026-11-30T10:00:00-05:00';

/** Faults of a WGS 84 point, as member → value (undefined = left out). */
function pointFaults(): [string, Json][] {
  return [
    ['latitude missing', { longitude: POINT.longitude }],
    ['longitude missing', { latitude: POINT.latitude }],
    ['latitude of the wrong type (a string)', { ...POINT, latitude: '40.7128' }],
    ['longitude of the wrong type (a string)', { ...POINT, longitude: '-74.006' }],
    ['latitude out of range (95)', { ...POINT, latitude: 95 }],
    ['latitude out of range (-90.5)', { ...POINT, latitude: -90.5 }],
    ['longitude out of range (180.5)', { ...POINT, longitude: 180.5 }],
    ['longitude out of range (-181)', { ...POINT, longitude: -181 }],
  ];
}

/** Operands both tools take: distance, serves, filters. */
function sharedOperandFaults(): [string, Json][] {
  return [
    ['distance: of the wrong type (a string)', { distance: 'near' }],
    ['distance.center: missing', { distance: { max: DISTANCE.max } }],
    ['distance.max: missing', { distance: { center: POINT } }],
    ['distance.center: of the wrong type (a string)', { distance: { center: '40.7128,-74.006', max: DISTANCE.max } }],
    ['distance.center: an array [lat, lon]', { distance: { center: [40.7128, -74.006], max: DISTANCE.max } }],
    ...pointFaults().map(([why, center]): [string, Json] => [`distance.center.${why}`, { distance: { center, max: DISTANCE.max } }]),
    ['distance.max: of the wrong type (a string)', { distance: { center: POINT, max: '5000' } }],
    ['distance.max: out of range (-1)', { distance: { center: POINT, max: -1 } }],
    ['serves: of the wrong type (a string)', { serves: 'here' }],
    ['serves: no target', { serves: {} }],
    ['serves: two targets', { serves: { point: POINT, address: { address_country: 'US' } } }],
    ['serves: a target that is neither point, address nor a reverse-domain extension', { serves: { nearby: POINT } }],
    ['serves.point: of the wrong type (a string)', { serves: { point: '40.7128,-74.006' } }],
    ...pointFaults().map(([why, point]): [string, Json] => [`serves.point.${why}`, { serves: { point } }]),
    ['serves.address: of the wrong type (a string)', { serves: { address: 'US' } }],
    ['serves.address: none of country, region, postal code', { serves: { address: {} } }],
    ['serves.address: only an empty country', { serves: { address: { address_country: '' } } }],
    ['serves.address.address_country: of the wrong type (a number)', { serves: { address: { address_country: 840 } } }],
    ['filters: of the wrong type (a string)', { filters: 'open' }],
    ['filters.hours: of the wrong type (a string)', { filters: { hours: INSTANT } }],
    ['filters.hours.open_at: missing', { filters: { hours: {} } }],
    ['filters.hours.open_at: of the wrong type (a number)', { filters: { hours: { open_at: Date.parse(INSTANT) } } }],
    ['filters.hours.open_at: an instant without offset', { filters: { hours: { open_at: '2026-11-30T10:00:00' } } }],
    ['filters.hours.open_at: a date without time', { filters: { hours: { open_at: '2026-11-30' } } }],
    ['filters.hours.open_at: not a date-time', { filters: { hours: { open_at: 'tomorrow at ten' } } }],
    ['filters.hours.open_at: an impossible date', { filters: { hours: { open_at: '2026-02-30T10:00:00Z' } } }],
    ['filters.amenities: of the wrong type (a string)', { filters: { amenities: 'dev.ucp.amenity.wi_fi' } }],
    ['filters.amenities: an item of the wrong type (a number)', { filters: { amenities: [1] } }],
    ['filters.amenities: an item that is not a reverse-domain name', { filters: { amenities: ['Wi-Fi'] } }],
    ['filters.items: of the wrong type (a string)', { filters: { items: 'sku-1' } }],
    ['filters.items: an item of the wrong type (a number)', { filters: { items: [1] } }],
  ];
}

function searchOnlyFaults(): [string, Json][] {
  return [
    ['query: of the wrong type (a number)', { query: 42 }],
    ['pagination: of the wrong type (a number)', { pagination: 10 }],
    ['pagination.limit: of the wrong type (a string)', { pagination: { limit: '10' } }],
    ['pagination.limit: not an integer (2.5)', { pagination: { limit: 2.5 } }],
    ['pagination.limit: out of range (0)', { pagination: { limit: 0 } }],
    ['pagination.cursor: of the wrong type (a number)', { pagination: { cursor: 7 } }],
  ];
}

function lookupOnlyFaults(): [string, Json][] {
  return [
    ['ids: missing', {}],
    ['ids: of the wrong type (a string)', { ids: 'loc_1' }],
    ['ids: empty', { ids: [] }],
    ['ids: an item of the wrong type (a number)', { ids: [1] }],
  ];
}

/** The probes for the operations a Business advertises. */
export function operandProbes(advertised: ReadonlySet<Operation>): OperandProbe[] {
  const probes: OperandProbe[] = [];
  if (advertised.has('search')) {
    for (const [why, request] of [...sharedOperandFaults(), ...searchOnlyFaults()]) probes.push({ operation: 'search', request, why });
  }
  if (advertised.has('lookup')) {
    // Every shared fault rides on valid ids, so the operand is the only thing wrong.
    const ids = { ids: ['conformance-any'] };
    for (const [why, request] of sharedOperandFaults()) probes.push({ operation: 'lookup', request: { ...ids, ...request }, why });
    for (const [why, request] of lookupOnlyFaults()) probes.push({ operation: 'lookup', request, why });
  }
  return probes;
}
