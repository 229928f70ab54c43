/**
 * Search semantics probed from outside (R-S1, R-S4, R-S6, R-S10). Each probe is built from a
 * Location the Business itself published, so the right answer follows from its own data:
 *  - R-S4: a center at a known WGS 84 distance d where spheres disagree by metres: `max = d`
 *    must include the Location, `max = d − 1 mm` must not; a radius reaching a Location 12 000 km
 *    away must be honoured or refused, never silently shortened;
 *  - R-S6: instants where the schedule reads open in the Location's zone but closed in UTC (and
 *    the reverse), one of them written with a numeric offset;
 *  - R-S1: a predicate the Location meets combined with one it fails must exclude it.
 */
import { fail, isVerdict, pass, skip, verdictOf, type Check, type RunContext, type Verdict } from '../check.js';
import { callEvidence, describeOutcome, locationsOf, type Call, type OperationClient } from '../operation-client.js';
import {
  EXCLUSION_STEP_M,
  farProbe,
  formatInstant,
  predicatesOf,
  predicateViolations,
  radiusProbe,
  REMOTE_POINT,
  isRecord,
} from '../oracle.js';
import { SAMPLE_PAGE, walkSearch, withGeo, withHoursProbe, type GeoLocation } from '../samples.js';
import type { Geo, Location } from '../../domain/location.js';
import type { Evidence } from '../types.js';

/** Pages walked looking for one Location in a result set. */
const FIND_PAGES = 20;
/** An offset (minutes) that is nobody's zone: +05:45 read as local time shifts the instant. */
const ODD_OFFSET_MINUTES = 345;
/** A radius that isolates a Location at its own published point (tolerates storage rounding). */
const AT_POINT_M = 1;

/** Walks `request` until `id` shows up; `found` undefined when the Business refused the request. */
async function contains(
  client: OperationClient,
  request: Record<string, unknown>,
  id: string,
): Promise<{ found: boolean | undefined; last: Call; complete: boolean }> {
  const walk = await walkSearch(client, { ...request, pagination: { limit: SAMPLE_PAGE } }, FIND_PAGES, (ids) => ids.includes(id));
  const last = walk.failed ?? walk.calls[walk.calls.length - 1];
  if (last === undefined) throw new Error('walkSearch made no call');
  if (walk.failed !== undefined) return { found: undefined, last, complete: false };
  return { found: walk.ids.includes(id), last, complete: walk.complete };
}

/** One include/exclude expectation over search; returns evidence when it is not met. */
async function expectMembership(
  client: OperationClient,
  request: Record<string, unknown>,
  id: string,
  included: boolean,
  expected: string,
): Promise<Evidence | undefined> {
  const r = await contains(client, request, id);
  if (r.found === undefined) return callEvidence(r.last, expected, `refused: ${describeOutcome(r.last.outcome)}`);
  if (r.found === included) return undefined;
  if (included && !r.found && !r.complete) return undefined; // inconclusive within the page cap: not a proven failure
  return callEvidence(r.last, expected, included ? `${id} is missing from the results` : `${id} is returned`);
}

async function sampleWithGeo(ctx: RunContext): Promise<GeoLocation | Verdict> {
  const samples = await ctx.samples();
  return withGeo(samples)[0] ?? skip(`no sampled Location publishes a usable geo (${samples.note})`);
}

const atPoint = (geo: Geo): { center: Geo; max: number } => ({ center: geo, max: AT_POINT_M });

export const SEARCH_CHECKS: readonly Check[] = [
  {
    id: 'search.radius-inclusive',
    rule: 'R-S4',
    area: 'search',
    title: 'distance uses the unrounded WGS 84 geodesic with an inclusive max (not a sphere, no tolerance)',
    scope: 'binding',
    needs: ['profile', 'search'],
    run: async (ctx, client) => {
      const loc = await sampleWithGeo(ctx);
      if (isVerdict(loc)) return loc;
      const probe = radiusProbe(loc.geo);
      if (probe === null) return skip(`no center near ${loc.id} separates spherical and ellipsoidal distances`);
      const c = client;
      const problems = [
        await expectMembership(
          c,
          { distance: { center: probe.center, max: probe.distance } },
          loc.id,
          true,
          `${loc.id} included: its geodesic distance is exactly max = ${probe.distance} m (inclusive)`,
        ),
        await expectMembership(
          c,
          { distance: { center: probe.center, max: probe.distance - EXCLUSION_STEP_M } },
          loc.id,
          false,
          `${loc.id} excluded: max is 1 mm shorter than its geodesic distance ${probe.distance} m (spheres differ by ≥ ${probe.sphericalMargin.toFixed(2)} m here)`,
        ),
      ].filter((e): e is Evidence => e !== undefined);
      return verdictOf(problems, `probed with ${loc.id} at ${probe.distance.toFixed(3)} m`);
    },
  },
  {
    id: 'search.radius-not-clamped',
    rule: 'R-S4',
    area: 'search',
    title: 'a radius larger than the Business honours is refused with an error, never silently clamped',
    scope: 'binding',
    needs: ['profile', 'search'],
    run: async (ctx, client) => {
      const loc = await sampleWithGeo(ctx);
      if (isVerdict(loc)) return loc;
      const far = farProbe(loc.geo);
      const r = await contains(client, { distance: far }, loc.id);
      const expected = `either a request error, or ${loc.id} (${(far.max / 1000).toFixed(0)} km from the center, within max) in the results`;
      if (r.found === undefined) {
        return r.last.outcome.kind === 'request_error'
          ? pass('refused with a request error (the Business cannot honour this radius)')
          : fail(`refused, but not as a request error: ${describeOutcome(r.last.outcome)}`, [
              callEvidence(r.last, expected, describeOutcome(r.last.outcome)),
            ]);
      }
      if (r.found) return pass('honoured');
      if (!r.complete) return skip(`honoured, but ${loc.id} was not within the first ${FIND_PAGES} pages; inconclusive`);
      return fail(`${loc.id} is missing: the radius was reduced`, [
        callEvidence(r.last, expected, `${loc.id} is missing from a complete result set: the radius was clamped or truncated`),
      ]);
    },
  },
  {
    id: 'search.and-predicates',
    rule: 'R-S1',
    area: 'search',
    title: 'distance and every filter combine with AND (one failing predicate excludes a Location)',
    scope: 'binding',
    needs: ['profile', 'search'],
    run: async (ctx, client) => {
      const samples = await ctx.samples();
      const geoLocations = withGeo(samples);
      const loc = geoLocations.find((l) => isRecord(l.amenities) && Object.keys(l.amenities).length > 0) ?? geoLocations[0];
      if (loc === undefined) return skip(`no sampled Location publishes a usable geo (${samples.note})`);
      const c = client;
      const amenity = isRecord(loc.amenities) ? Object.keys(loc.amenities)[0] : undefined;
      const absent = otherAmenity(samples.locations, loc) ?? 'dev.ucp.amenity.conformance_absent';
      const far = farProbe(loc.geo).center;
      const checks: [Record<string, unknown>, boolean, string][] = [
        [
          { distance: atPoint(loc.geo), filters: { amenities: [absent] } },
          false,
          `${loc.id} excluded: it is within distance but lacks amenity ${absent}`,
        ],
        [
          { distance: atPoint(loc.geo), ...(amenity === undefined ? {} : { filters: { amenities: [amenity] } }) },
          true,
          `${loc.id} included: it meets every predicate`,
        ],
      ];
      if (amenity !== undefined)
        checks.push([
          { distance: atPoint(far), filters: { amenities: [amenity] } },
          false,
          `${loc.id} excluded: it has ${amenity} but is ~12 000 km from the center`,
        ]);
      const hours = withHoursProbe({ locations: [loc], note: '' }, ctx.now());
      if (hours !== undefined) {
        checks.push([
          { distance: atPoint(loc.geo), filters: { hours: { open_at: formatInstant(hours.probe.closedLocally) } } },
          false,
          `${loc.id} excluded: within distance but closed at that instant`,
        ]);
      }
      const problems: Evidence[] = [];
      for (const [request, included, expected] of checks) {
        const e = await expectMembership(c, request, loc.id, included, expected);
        if (e !== undefined) problems.push(e);
      }
      return verdictOf(problems, `probed with ${loc.id}`);
    },
  },
  {
    id: 'search.hours-timezone',
    rule: 'R-S6',
    area: 'search',
    title: "filters.hours.open_at is evaluated in the Location's own timezone (offsets honoured)",
    scope: 'binding',
    needs: ['profile', 'search'],
    run: async (ctx, client) => {
      const samples = await ctx.samples();
      const found = withHoursProbe(samples, ctx.now());
      if (found === undefined) return skip(`no sampled Location has geo and a schedule that reads differently in UTC (${samples.note})`);
      const { location: loc, probe } = found;
      const c = client;
      const zone = loc.timezone ?? '?';
      const cases: [string, boolean, string][] = [
        [formatInstant(probe.openLocally), true, `${loc.id} included: open at this instant in ${zone} (closed if read in UTC)`],
        [formatInstant(probe.openLocally, ODD_OFFSET_MINUTES), true, `${loc.id} included: the same instant written with a +05:45 offset`],
        [formatInstant(probe.closedLocally), false, `${loc.id} excluded: closed at this instant in ${zone} (open if read in UTC)`],
      ];
      const problems: Evidence[] = [];
      for (const [openAt, included, expected] of cases) {
        const e = await expectMembership(
          c,
          { distance: atPoint(loc.geo), filters: { hours: { open_at: openAt } } },
          loc.id,
          included,
          expected,
        );
        if (e !== undefined) problems.push(e);
      }
      return verdictOf(problems, `probed with ${loc.id} (${zone})`);
    },
  },
  {
    id: 'search.empty-result',
    rule: 'R-S10',
    area: 'search',
    title: 'a search matching nothing is a successful empty result',
    scope: 'binding',
    needs: ['profile', 'search'],
    run: async (_ctx, client) => {
      const call = await client.call('search', { distance: { center: REMOTE_POINT, max: AT_POINT_M } });
      const expected = 'success with locations: [] (no match is not an error)';
      if (call.outcome.kind !== 'success')
        return fail(describeOutcome(call.outcome), [callEvidence(call, expected, describeOutcome(call.outcome))]);
      const list = call.outcome.payload['locations'];
      if (!Array.isArray(list))
        return fail('locations is not an array', [callEvidence(call, expected, 'locations is absent or not an array')]);
      if (list.length > 0)
        return fail(`${list.length} location(s) returned 1 m from Point Nemo`, [
          callEvidence(call, expected, `${list.length} location(s)`),
        ]);
      const p = call.outcome.payload['pagination'];
      if (isRecord(p) && p['has_next_page'] === true)
        return fail('an empty result announces a next page', [callEvidence(call, expected, 'has_next_page: true')]);
      return pass();
    },
  },
  {
    id: 'search.results-satisfy-predicates',
    rule: 'R-S1',
    area: 'search',
    title: 'every returned Location meets every predicate of its request (distance, amenities, hours)',
    scope: 'run',
    needs: ['profile'],
    audit: true,
    run: async (ctx) => {
      const problems: Evidence[] = [];
      let judged = 0;
      for (const call of ctx.calls) {
        const predicates = predicatesOf(call.request);
        if (predicates.distance === undefined && predicates.amenities === undefined && predicates.openAt === undefined) continue;
        for (const raw of locationsOf(call.outcome)) {
          if (typeof raw['id'] !== 'string') continue;
          judged += 1;
          const wrong = predicateViolations(raw as unknown as Location, predicates);
          if (wrong.length > 0) problems.push(callEvidence(call, 'only Locations meeting every predicate', wrong.join('; ')));
        }
      }
      return judged === 0 ? skip('no filtered request returned a Location') : verdictOf(problems, `${judged} returned Locations judged`);
    },
  },
];

/** An amenity key some other sampled Location has and `loc` lacks (a realistic non-match). */
function otherAmenity(all: readonly Location[], loc: Location): string | undefined {
  const own = isRecord(loc.amenities) ? loc.amenities : {};
  for (const other of all) {
    if (!isRecord(other.amenities)) continue;
    const key = Object.keys(other.amenities).find((k) => !Object.hasOwn(own, k));
    if (key !== undefined) return key;
  }
  return undefined;
}
