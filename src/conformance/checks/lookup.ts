/**
 * Lookup semantics (R-L1…R-L3): canonical ids resolve, duplicates are merged, every `inputs` entry
 * is a request id copied exactly (never a normalised or canonical form), aliases correlate,
 * unresolved ids just yield fewer Locations, refinement applies distance and hours after
 * resolution, and an oversize batch processes exactly the first N distinct ids.
 */
import { fail, isVerdict, pass, skip, verdictOf, type Check, type RunContext, type Verdict } from '../check.js';
import { callEvidence, describeOutcome, locationsOf, type Call } from '../operation-client.js';
import { EXCLUSION_STEP_M, formatInstant, hoursProbe, isRecord, radiusProbe } from '../oracle.js';
import { withGeo, withHoursProbe } from '../samples.js';
import type { Evidence } from '../types.js';

/** Distinct ids sent by the batch probe: above any sensible maximum, far below any body limit. */
const BATCH_SIZE = 240;

function inputsOf(location: Record<string, unknown>): unknown[] {
  return Array.isArray(location['inputs']) ? location['inputs'] : [];
}

function inputIds(location: Record<string, unknown>): string[] {
  return inputsOf(location).flatMap((i) => (isRecord(i) && typeof i['id'] === 'string' ? [i['id']] : []));
}

function byId(call: Call): Map<string, Record<string, unknown>[]> {
  const out = new Map<string, Record<string, unknown>[]>();
  for (const loc of locationsOf(call.outcome)) {
    const id = typeof loc['id'] === 'string' ? loc['id'] : '';
    out.set(id, [...(out.get(id) ?? []), loc]);
  }
  return out;
}

async function publicIds(ctx: RunContext, count: number): Promise<string[] | Verdict> {
  const samples = await ctx.samples();
  const ids = samples.locations.map((l) => l.id);
  return ids.length >= count ? ids.slice(0, count) : skip(`needs ${count} public Location id(s); ${samples.note}`);
}

/** A variant of `id` that a normalising Business would fold onto it (case, surrounding space). */
export function idVariant(id: string): string {
  const upper = id.toUpperCase();
  return upper !== id ? upper : ` ${id} `;
}

export const LOOKUP_CHECKS: readonly Check[] = [
  {
    id: 'lookup.canonical-dedupe',
    rule: 'R-L1',
    area: 'lookup',
    title: 'canonical ids resolve; duplicate ids are merged into one Location with one inputs entry',
    scope: 'binding',
    needs: ['profile', 'lookup'],
    run: async (ctx, client) => {
      const ids = await publicIds(ctx, 2);
      if (isVerdict(ids)) return ids;
      const [a, b] = ids as [string, string];
      const call = await client.call('lookup', { ids: [a, a, b] });
      const expected = `${a} and ${b} once each; ${a} with inputs [{"id": "${a}"}] exactly once`;
      if (call.outcome.kind !== 'success')
        return fail(describeOutcome(call.outcome), [callEvidence(call, expected, describeOutcome(call.outcome))]);
      const found = byId(call);
      const problems: string[] = [];
      for (const id of [a, b]) {
        const copies = found.get(id) ?? [];
        if (copies.length !== 1) problems.push(`${id} returned ${copies.length} time(s)`);
        const inputs = copies[0] === undefined ? [] : inputIds(copies[0]);
        if (copies.length > 0 && (inputs.filter((i) => i === id).length !== 1 || inputs.length !== 1))
          problems.push(`${id} has inputs ${JSON.stringify(inputs)}`);
      }
      return problems.length === 0 ? pass() : fail(problems.join('; '), [callEvidence(call, expected, problems.join('; '))]);
    },
  },
  {
    id: 'lookup.inputs-exact',
    rule: 'R-L1',
    area: 'lookup',
    title: 'inputs copy the request id exactly, even when the Business folds case or spacing',
    scope: 'binding',
    needs: ['profile', 'lookup'],
    run: async (ctx, client) => {
      const ids = await publicIds(ctx, 1);
      if (isVerdict(ids)) return ids;
      const id = ids[0] as string;
      const variant = idVariant(id);
      const call = await client.call('lookup', { ids: [variant] });
      const expected = `no Location, or one whose inputs is [{"id": ${JSON.stringify(variant)}}] (copied exactly)`;
      if (call.outcome.kind !== 'success')
        return fail(describeOutcome(call.outcome), [callEvidence(call, expected, describeOutcome(call.outcome))]);
      const wrong = locationsOf(call.outcome).filter((l) => !inputIds(l).every((i) => i === variant) || inputIds(l).length === 0);
      if (wrong.length === 0)
        return pass(locationsOf(call.outcome).length === 0 ? 'the variant does not resolve' : 'the variant resolves and is copied exactly');
      return fail(`inputs ${JSON.stringify(inputIds(wrong[0] ?? {}))} instead of ${JSON.stringify(variant)}`, [
        callEvidence(call, expected, `inputs ${JSON.stringify(wrong.map(inputIds))}`),
      ]);
    },
  },
  {
    id: 'lookup.aliases',
    rule: 'R-L1',
    area: 'lookup',
    title: 'an alias resolves to its Location; ids reaching one Location are all listed in its inputs',
    scope: 'binding',
    needs: ['profile', 'lookup', 'aliases'],
    run: async (ctx, client) => {
      const problems: Evidence[] = [];
      for (const { alias, id } of ctx.aliases) {
        if (ctx.privateIds.includes(id)) continue;
        const c = client;
        const alone = await c.call('lookup', { ids: [alias] });
        const aloneLoc = byId(alone).get(id);
        const aloneExpected = `${id} once, with inputs [{"id": ${JSON.stringify(alias)}}]`;
        if (aloneLoc?.length !== 1 || JSON.stringify(inputIds(aloneLoc[0] ?? {})) !== JSON.stringify([alias])) {
          problems.push(
            callEvidence(
              alone,
              aloneExpected,
              alone.outcome.kind === 'success'
                ? `locations ${JSON.stringify(locationsOf(alone.outcome).map((l) => ({ id: l['id'], inputs: inputIds(l) })))}`
                : describeOutcome(alone.outcome),
            ),
          );
        }
        const both = await c.call('lookup', { ids: [id, alias] });
        const bothLoc = byId(both).get(id);
        const got = bothLoc?.[0] === undefined ? [] : [...inputIds(bothLoc[0])].sort();
        if (bothLoc?.length !== 1 || JSON.stringify(got) !== JSON.stringify([id, alias].sort())) {
          problems.push(
            callEvidence(
              both,
              `${id} once, with inputs for both ${JSON.stringify(id)} and ${JSON.stringify(alias)}`,
              bothLoc === undefined ? `${id} missing` : `${bothLoc.length} copies; inputs ${JSON.stringify(got)}`,
            ),
          );
        }
      }
      return verdictOf(problems, `${ctx.aliases.length} alias(es)`);
    },
  },
  {
    id: 'lookup.unresolved',
    rule: 'R-L2',
    area: 'lookup',
    title: 'unresolved ids are a success with fewer Locations, not an error',
    scope: 'binding',
    needs: ['profile', 'lookup'],
    run: async (_ctx, client) => {
      const call = await client.call('lookup', { ids: ['ucp-conformance-no-such-location-7f3a'] });
      const expected = 'success with locations: [] (a not_found info message is allowed)';
      if (call.outcome.kind === 'success' && locationsOf(call.outcome).length === 0) return pass();
      return fail(describeOutcome(call.outcome), [callEvidence(call, expected, describeOutcome(call.outcome))]);
    },
  },
  {
    id: 'lookup.refinement',
    rule: 'R-L2',
    area: 'lookup',
    title: 'lookup resolves ids first, then applies distance and hours (same rules as search)',
    scope: 'binding',
    needs: ['profile', 'lookup'],
    run: async (ctx, client) => {
      const samples = await ctx.samples();
      // Prefer a Location whose hours read differently in UTC, so both refinements are probed.
      const loc = withHoursProbe(samples, ctx.now())?.location ?? withGeo(samples)[0];
      if (loc === undefined) return skip(`no sampled Location publishes a usable geo (${samples.note})`);
      const c = client;
      const cases: [Record<string, unknown>, boolean, string][] = [];
      const radius = radiusProbe(loc.geo);
      if (radius !== null) {
        cases.push([
          { distance: { center: radius.center, max: radius.distance } },
          true,
          `${loc.id} returned: geodesic distance equals max`,
        ]);
        cases.push([
          { distance: { center: radius.center, max: radius.distance - EXCLUSION_STEP_M } },
          false,
          `${loc.id} filtered out: max is 1 mm short`,
        ]);
      }
      const hours = hoursProbe(loc, ctx.now());
      if (hours !== null) {
        cases.push([
          { filters: { hours: { open_at: formatInstant(hours.openLocally) } } },
          true,
          `${loc.id} returned: open then in ${loc.timezone ?? '?'}`,
        ]);
        cases.push([
          { filters: { hours: { open_at: formatInstant(hours.closedLocally) } } },
          false,
          `${loc.id} filtered out: closed then in ${loc.timezone ?? '?'}`,
        ]);
      }
      const problems: Evidence[] = [];
      for (const [refinement, included, expected] of cases) {
        const call = await c.call('lookup', { ids: [loc.id], ...refinement });
        if (call.outcome.kind !== 'success') {
          problems.push(callEvidence(call, expected, describeOutcome(call.outcome)));
          continue;
        }
        const present = byId(call).has(loc.id);
        if (present !== included) problems.push(callEvidence(call, expected, present ? `${loc.id} is returned` : `${loc.id} is missing`));
      }
      return verdictOf(problems, `probed with ${loc.id}`);
    },
  },
  {
    id: 'lookup.batch-limit',
    rule: 'R-L3',
    area: 'lookup',
    title: 'an oversize batch processes the first N ≥ 10 distinct ids and says so in batch_limit_applied',
    scope: 'binding',
    needs: ['profile', 'lookup'],
    run: async (ctx, client) => {
      const ids = await publicIds(ctx, 2);
      if (isVerdict(ids)) return ids;
      const [first, last] = ids as [string, string];
      const fillers = Array.from({ length: BATCH_SIZE - 2 }, (_, i) => `ucp-conformance-missing-${String(i).padStart(4, '0')}`);
      // A duplicate right after the first id: the maximum applies after dedupe.
      const request = { ids: [first, first, ...fillers, last] };
      const call = await client.call('lookup', request);
      const distinct = BATCH_SIZE;
      const expected = `success; either all ${distinct} distinct ids processed (${last} returned), or an info batch_limit_applied stating N ≥ 10 and ${distinct} − N, with ${last} (position ${distinct}) neither returned nor reported`;
      if (call.outcome.kind !== 'success')
        return fail(describeOutcome(call.outcome), [callEvidence(call, expected, describeOutcome(call.outcome))]);
      const messages = Array.isArray(call.outcome.payload['messages']) ? call.outcome.payload['messages'].filter(isRecord) : [];
      const limit = messages.find((m) => m['code'] === 'batch_limit_applied');
      const returned = byId(call);
      if (limit === undefined) {
        if (returned.has(last)) return pass(`all ${distinct} distinct ids processed`);
        return fail(`${last} is missing and no batch_limit_applied message explains it`, [
          callEvidence(call, expected, 'silently truncated'),
        ]);
      }
      const problems: string[] = [];
      if (limit['type'] !== 'info') problems.push(`batch_limit_applied has type ${JSON.stringify(limit['type'])}, expected "info"`);
      const content = typeof limit['content'] === 'string' ? limit['content'] : '';
      const numbers = new Set((content.match(/\d+/g) ?? []).map(Number));
      const n = [...numbers].find((k) => k >= 1 && k < distinct && numbers.has(distinct - k));
      if (n === undefined)
        problems.push(`the message must state the applied maximum N and the ${distinct} − N ids not processed: ${JSON.stringify(content)}`);
      else if (n < 10) problems.push(`the batch maximum ${n} is below 10`);
      if (!returned.has(first)) problems.push(`${first} (the first id) is missing`);
      if (returned.has(last)) problems.push(`${last} lies beyond the maximum but was returned`);
      const tail = [...fillers.slice(Math.max(0, (n ?? distinct) - 1)), last];
      const reported = messages.filter((m) => m !== limit && tail.some((id) => JSON.stringify(m).includes(id)));
      if (reported.length > 0)
        problems.push(`${reported.length} message(s) report ids beyond the maximum (they must not be evaluated or reported)`);
      return problems.length === 0
        ? pass(`N = ${String(n)}`)
        : fail(problems[0] ?? 'wrong batch limit', [callEvidence(call, expected, problems.join('; '))]);
    },
  },
  {
    id: 'lookup.inputs-audit',
    rule: 'R-L1',
    area: 'lookup',
    title: 'in every lookup answer, each Location appears once and its inputs are distinct request ids',
    scope: 'run',
    needs: ['profile', 'lookup'],
    audit: true,
    run: async (ctx) => {
      const lookups = ctx.calls.filter((c) => c.operation === 'lookup' && c.outcome.kind === 'success');
      if (lookups.length === 0) return skip('no lookup succeeded');
      const problems: Evidence[] = [];
      for (const call of lookups) {
        const sent = isRecord(call.request) && Array.isArray(call.request['ids']) ? new Set(call.request['ids']) : new Set();
        const wrong: string[] = [];
        for (const [id, copies] of byId(call)) {
          if (copies.length > 1) wrong.push(`${id} appears ${copies.length} times`);
          for (const loc of copies) {
            const inputs = inputIds(loc);
            if (inputs.length === 0) wrong.push(`${id} has no inputs entry`);
            const foreign = inputs.filter((i) => !sent.has(i));
            if (foreign.length > 0) wrong.push(`${id} lists inputs ${JSON.stringify(foreign)} that were never sent`);
            if (new Set(inputs).size !== inputs.length) wrong.push(`${id} lists the same input twice`);
          }
        }
        if (wrong.length > 0)
          problems.push(callEvidence(call, 'each Location once; inputs = distinct request ids, copied exactly', wrong.join('; ')));
      }
      return verdictOf(problems, `${lookups.length} lookup answers`);
    },
  },
];
