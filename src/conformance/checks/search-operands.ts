/**
 * What a search request's operands are, and what they are not (R-S2, R-S3, R-S5, R-S8):
 *  - R-S5: a malformed `serves` map (no target, two targets, an address naming no country,
 *    region or postal code, an unknown or un-negotiated target key) is refused as a request
 *    error, never read leniently or broadened;
 *  - R-S8: an item the Business cannot possibly know never matches: a successful empty result;
 *  - R-S3: `context` and `signals` are hints, never operands: adding them to a radius search
 *    leaves the set of Locations it matches unchanged (the order may move);
 *  - R-S2: a bounded browse is a policy-limited selection: walked at the largest page size the
 *    Business serves, it ends within a fixed budget and never repeats a Location.
 */
import { randomUUID } from 'node:crypto';
import { validateSearchRequest } from '../../domain/request-validation.js';
import { fail, isVerdict, pass, skip, verdictOf, type Check, type RunContext, type Verdict } from '../check.js';
import { describeRequest, describeResponse } from '../exchange.js';
import { callEvidence, describeOutcome, idsOf, locationsOf, TOOL_OF, type Call } from '../operation-client.js';
import { isRecord } from '../oracle.js';
import { findPointer } from '../pointer.js';
import { walkSearch } from '../samples.js';
import { evaluatePointer, isSchemaObject, type JsonSchema } from '../../protocol/schema-walk.js';
import type { Location } from '../../domain/location.js';
import type { Evidence } from '../types.js';
import { causeMessage } from '../../errors.js';

// ───────────────────────── R-S5 ─────────────────────────

const NYC = { latitude: 40.7069, longitude: -74.0113 };

/** `serves` maps R-S5 makes invalid, each with what is wrong with it. */
export const SERVES_PROBES: readonly { serves: Record<string, unknown>; why: string }[] = [
  { serves: {}, why: 'an empty serves map (no target)' },
  { serves: { point: NYC, address: { address_country: 'US' } }, why: 'two targets at once (point and address)' },
  {
    serves: { address: { address_country: '', address_region: '', postal_code: '' } },
    why: 'an address whose country, region and postal code are all empty',
  },
  {
    serves: { address: { street_address: '11 Wall St', address_locality: 'New York' } },
    why: 'an address with only unrecognised members (no country, region or postal code)',
  },
  { serves: { coordinates: NYC }, why: 'an unrecognised target key (neither point, address nor a reverse-domain extension)' },
  { serves: { 'com.example.conformance.unnegotiated_target': { id: 'any' } }, why: 'an extension target that was never negotiated' },
];

// ───────────────────────── R-S8 ─────────────────────────

type ItemsSupport = 'declared' | 'absent' | 'unknown';

/** Local `$ref` chains followed at most this deep (a cycle must not hang the checker). */
const MAX_REF_DEPTH = 16;

/** `node` with its local `$ref` chain resolved, plus the `allOf` members it is made of. */
function schemaParts(root: JsonSchema, node: unknown, depth = 0): JsonSchema[] {
  if (!isSchemaObject(node) || depth > MAX_REF_DEPTH) return [];
  const ref = node['$ref'];
  const own =
    typeof ref === 'string' && ref.startsWith('#')
      ? schemaParts(root, evaluatePointer(root, decodeURIComponent(ref.slice(1))), depth + 1)
      : [];
  const all = Array.isArray(node['allOf']) ? node['allOf'].flatMap((m) => schemaParts(root, m, depth + 1)) : [];
  return [node, ...own, ...all];
}

function propertySchema(root: JsonSchema, parts: readonly JsonSchema[], name: string): JsonSchema[] {
  return parts.flatMap((p) =>
    isRecord(p['properties']) && Object.hasOwn(p['properties'], name) ? schemaParts(root, p['properties'][name]) : [],
  );
}

/**
 * Whether a `search_locations` inputSchema (the `{meta, location}` wrapper, local `$ref`s only)
 * lets `location.filters.items` through: `absent` only when `filters` is declared, closed
 * (`additionalProperties` / `unevaluatedProperties` false) and has no `items` member. Anything
 * the walk does not understand is `unknown`, which never causes a skip.
 */
export function itemsSupport(inputSchema: unknown): ItemsSupport {
  if (!isSchemaObject(inputSchema)) return 'unknown';
  const location = propertySchema(inputSchema, schemaParts(inputSchema, inputSchema), 'location');
  const filters = propertySchema(inputSchema, location, 'filters');
  if (filters.length === 0) return 'unknown';
  if (propertySchema(inputSchema, filters, 'items').length > 0) return 'declared';
  const closed = filters.some((f) => f['additionalProperties'] === false || f['unevaluatedProperties'] === false);
  return closed ? 'absent' : 'unknown';
}

/** The Business's own `search_locations` inputSchema, asked for once per run (MCP only). */
const toolSchemas = new WeakMap<RunContext, Promise<unknown>>();

function searchInputSchema(ctx: RunContext): Promise<unknown> {
  const mcp = ctx.mcp;
  if (mcp === undefined) return Promise.resolve(undefined);
  let pending = toolSchemas.get(ctx);
  if (pending === undefined) {
    pending = mcp.request('tools/list', {}).then((x) => {
      ctx.rawRpc.push(x);
      const result = x.message?.['result'];
      const tools = isRecord(result) && Array.isArray(result['tools']) ? result['tools'].filter(isRecord) : [];
      return tools.find((t) => t['name'] === TOOL_OF.search)?.['inputSchema'];
    });
    toolSchemas.set(ctx, pending);
  }
  return pending;
}

function hasMessage(call: Call, code: string): boolean {
  if (call.outcome.kind !== 'success') return false;
  const messages = call.outcome.payload['messages'];
  return Array.isArray(messages) && messages.some((m) => isRecord(m) && m['code'] === code);
}

// ───────────────────────── R-S3 ─────────────────────────

/** Documentation address (RFC 5737 TEST-NET-3): plausible as a buyer IP, never anyone's. */
const BUYER_IP = '203.0.113.7';
/** Radius of the R-S3 comparison search, and the pages walked at most on each side. */
const HINT_RADIUS_METERS = 25_000;
const HINT_WALK_PAGES = 30;
const FALLBACK_LOCALITY = { address_country: 'US', address_region: 'NY', postal_code: '10005' };

/**
 * The hints to add to a request: `context` with the coarse locality of a published Location — one
 * far from `awayFrom` when there is one (another region, else another postal code), so that a
 * Business deriving a serves target from it visibly narrows a search around `awayFrom` — and
 * `signals` with a buyer IP, keeping only what the release's search_request schema admits.
 */
async function hintedRequest(ctx: RunContext, awayFrom?: Location): Promise<{ request: Record<string, unknown>; note: string } | Verdict> {
  const samples = await ctx.samples();
  const home = awayFrom?.address;
  const addresses = samples.locations.map((l) => l.address).filter((a) => a?.postal_code !== undefined && a.address_country !== undefined);
  const address =
    addresses.find((a) => home === undefined || a?.address_country !== home.address_country || a?.address_region !== home.address_region) ??
    addresses.find((a) => a?.postal_code !== home?.postal_code) ??
    addresses[0];
  const locality: Record<string, string> = {};
  for (const key of ['address_country', 'address_region', 'postal_code'] as const) {
    const value = address === undefined ? FALLBACK_LOCALITY[key] : address[key];
    if (typeof value === 'string' && value !== '') locality[key] = value;
  }
  const context = { ...locality };
  const signals = { 'dev.ucp.buyer_ip': BUYER_IP };
  const where = Object.values(locality).join(' ');
  const candidates: { request: Record<string, unknown>; note: string }[] = [
    { request: { context, signals }, note: `context (${where}) and signals (buyer IP ${BUYER_IP})` },
    { request: { context }, note: `context (${where})` },
    { request: { signals }, note: `signals (buyer IP ${BUYER_IP})` },
  ];
  const rejected: string[] = [];
  for (const candidate of candidates) {
    try {
      validateSearchRequest(candidate.request);
      return candidate;
    } catch (error) {
      rejected.push(causeMessage(error));
    }
  }
  return skip(
    `the 2026-08-25 search_request schema admits neither context nor signals as the checker would send them (${rejected[0] ?? ''})`,
  );
}

function sameIds(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}

function idList(ids: readonly string[]): string {
  return ids.length === 0 ? '[]' : `[${ids.join(', ')}]`;
}

// ───────────────────────── R-S2 ─────────────────────────

/** Pages walked before a browse that is still growing is called an export of the directory. */
export const BROWSE_PAGE_BUDGET = 50;
/** Page sizes asked for, largest first; the first one the Business does not refuse is used. */
const BROWSE_LIMITS = [1000, 250, 100, 50, 10] as const;

function totalCount(call: Call): number | undefined {
  if (call.outcome.kind !== 'success') return undefined;
  const p = call.outcome.payload['pagination'];
  return isRecord(p) && typeof p['total_count'] === 'number' ? p['total_count'] : undefined;
}

export const SEARCH_OPERAND_CHECKS: readonly Check[] = [
  {
    id: 'search.serves-shape',
    rule: 'R-S5',
    area: 'search',
    title: 'a malformed serves (no target, two targets, an empty address, an unknown or un-negotiated target) is a request error',
    scope: 'binding',
    needs: ['profile', 'search'],
    run: async (_ctx, client) => {
      const c = client;
      const expected = c.binding === 'mcp' ? 'JSON-RPC error -32602 with a pointer under /location/serves' : 'HTTP 400 (a request error)';
      const problems: Evidence[] = [];
      for (const probe of SERVES_PROBES) {
        const call = await c.call('search', { serves: probe.serves });
        const o = call.outcome;
        let wrong: string | undefined;
        if (o.kind !== 'request_error') {
          wrong =
            o.kind === 'success' ? `accepted: ${describeOutcome(o)} (serves was read leniently instead of refused)` : describeOutcome(o);
        } else if (c.binding === 'mcp' && findPointer('/serves', o.message, o.data) === undefined) {
          wrong = '-32602 without a pointer under /location/serves in error.data or the message';
        }
        if (wrong !== undefined) problems.push(callEvidence(call, `${expected}: ${probe.why} is an invalid request`, wrong));
      }
      return verdictOf(problems, `${SERVES_PROBES.length} malformed serves maps refused`);
    },
  },
  {
    id: 'search.unknown-item',
    rule: 'R-S8',
    area: 'search',
    title: 'filters.items naming an item the Business cannot know is a successful empty result, not an error',
    scope: 'binding',
    needs: ['profile', 'search'],
    run: async (ctx, client) => {
      if (itemsSupport(await searchInputSchema(ctx)) === 'absent') {
        return skip(
          "the Business's search_locations inputSchema (tools/list) closes filters without an items member, so it does not support filters.items",
        );
      }
      const c = client;
      const item = `conformance-unknown-${randomUUID()}`;
      const call = await c.call('search', { filters: { items: [item] } });
      const expected = `success with locations: [] (no Location can provide ${item}; an info message item_not_found is welcome but optional)`;
      const o = call.outcome;
      if (o.kind === 'success') {
        if (!Array.isArray(o.payload['locations']))
          return fail('locations is absent or not an array', [callEvidence(call, expected, 'locations is absent or not an array')]);
        const found = idsOf(o);
        if (locationsOf(o).length > 0)
          return fail(`${locationsOf(o).length} Location(s) returned for an item that cannot exist`, [
            callEvidence(call, expected, `returned ${idList(found)}`),
          ]);
        const note = hasMessage(call, 'item_not_found')
          ? 'with an info message item_not_found'
          : 'without an item_not_found message (optional)';
        return {
          status: 'pass',
          detail: `empty result ${note}`,
          evidence: [callEvidence(call, expected, `success with locations: [] ${note}`)],
        };
      }
      if (o.kind === 'request_error') {
        // A Business that does not take filters.items at all refuses even an empty list; that is not R-S8's concern.
        const empty = await c.call('search', { filters: { items: [] } });
        if (empty.outcome.kind === 'request_error')
          return skip(
            `the Business refuses filters.items altogether, even an empty list (${empty.outcome.message.slice(0, 160)}), so it does not support the filter`,
          );
      }
      const observed =
        o.kind === 'request_error'
          ? `refused as a request error, though filters.items itself is accepted: ${describeOutcome(o)}`
          : describeOutcome(o);
      return fail(observed, [callEvidence(call, expected, observed)]);
    },
  },
  {
    id: 'search.no-derived-operands',
    rule: 'R-S3',
    area: 'search',
    title: `context and signals are never operands: a radius search with them matches exactly the same Locations`,
    scope: 'binding',
    needs: ['profile', 'search'],
    run: async (ctx, client) => {
      const samples = await ctx.samples();
      const anchor = samples.locations.find((l) => l.geo !== undefined);
      if (anchor?.geo === undefined) return skip(`no sample Location with geo to centre a radius search on (${samples.note})`);
      const hinted = await hintedRequest(ctx, anchor);
      if (isVerdict(hinted)) return hinted;
      // A spatial operand makes the match set a function of the operands alone, so it must not
      // move with hints. (A bounded browse could: hints may legitimately rank which Locations
      // make up its policy-limited selection, and the order of any result.)
      const base = {
        distance: { center: { latitude: anchor.geo.latitude, longitude: anchor.geo.longitude }, max: HINT_RADIUS_METERS },
        pagination: { limit: 10 },
      };
      const c = client;
      const plain = await walkSearch(c, base, HINT_WALK_PAGES);
      const first = plain.calls[0];
      if (plain.failed !== undefined)
        return skip(`the radius search itself did not succeed (${describeOutcome(plain.failed.outcome)}); see R-S4`);
      if (!plain.complete || first === undefined)
        return skip(
          `${HINT_RADIUS_METERS / 1000} km around ${anchor.id} holds more than ${HINT_WALK_PAGES} pages of Locations; too many to compare whole`,
        );
      const withHints = await walkSearch(c, { ...hinted.request, ...base }, HINT_WALK_PAGES);
      const expected = `the same ${plain.ids.length} Location(s) as without hints (${idList(plain.ids)}): ${hinted.note} are hints, never a center, serves target or item operand`;
      const reference: Evidence = {
        expected: 'reference: the same radius search without hints',
        observed: idList(plain.ids),
        request: describeRequest(first.exchange),
        response: describeResponse(first.exchange),
      };
      if (withHints.failed !== undefined) {
        const observed = `refused: ${describeOutcome(withHints.failed.outcome)} (schema-valid hints cannot make a search fail)`;
        return fail(observed, [callEvidence(withHints.failed, expected, observed), reference]);
      }
      const last = withHints.calls[withHints.calls.length - 1];
      const missing = plain.ids.filter((id) => !withHints.ids.includes(id));
      const added = withHints.ids.filter((id) => !plain.ids.includes(id));
      if (withHints.complete && missing.length === 0 && added.length === 0) {
        const order = sameIds(plain.ids, withHints.ids) ? 'same order' : 'order changed, which hints may do';
        return pass(
          `${plain.ids.length} Location(s) within ${HINT_RADIUS_METERS / 1000} km of ${anchor.id}, ${order}, with ${hinted.note}`,
        );
      }
      const parts: string[] = [];
      if (missing.length > 0) parts.push(`missing ${idList(missing)}`);
      if (added.length > 0) parts.push(`added ${idList(added)}`);
      if (!withHints.complete) parts.push(`still paging after ${HINT_WALK_PAGES} pages`);
      const observed = `${parts.join(', ')} (a derived serves target, center or filter)`;
      return fail(observed, last === undefined ? [reference] : [callEvidence(last, expected, observed), reference]);
    },
  },
  {
    id: 'search.bounded-browse',
    rule: 'R-S2',
    area: 'search',
    title: `a bounded browse ({} at the largest page size served) ends within ${BROWSE_PAGE_BUDGET} pages and never repeats a Location`,
    scope: 'binding',
    needs: ['profile', 'search'],
    run: async (_ctx, client) => {
      const c = client;
      const refused: Call[] = [];
      let limit: number | undefined;
      for (const candidate of BROWSE_LIMITS) {
        const call = await c.call('search', { pagination: { limit: candidate } });
        if (call.outcome.kind === 'request_error') {
          refused.push(call);
          continue;
        }
        if (call.outcome.kind !== 'success')
          return fail(describeOutcome(call.outcome), [
            callEvidence(call, 'a successful first page of the bounded browse', describeOutcome(call.outcome)),
          ]);
        limit = candidate;
        break;
      }
      if (limit === undefined) {
        return fail(
          `every page size was refused (${BROWSE_LIMITS.join(', ')})`,
          refused.map((call) =>
            callEvidence(
              call,
              'a bounded browse is a successful default selection; a Business may serve fewer than asked',
              describeOutcome(call.outcome),
            ),
          ),
        );
      }
      const walk = await walkSearch(c, { pagination: { limit } }, BROWSE_PAGE_BUDGET);
      if (walk.failed !== undefined)
        return fail(describeOutcome(walk.failed.outcome), [
          callEvidence(walk.failed, 'every page of a bounded browse succeeds', describeOutcome(walk.failed.outcome)),
        ]);
      const problems: Evidence[] = [];
      const seen = new Set<string>();
      let served = 0;
      let newOnLast = 0;
      for (const call of walk.calls) {
        const ids = idsOf(call.outcome);
        served = Math.max(served, ids.length);
        newOnLast = 0;
        for (const id of ids) {
          if (seen.has(id))
            problems.push(
              callEvidence(
                call,
                'each Location at most once across the pages of one browse',
                `${id} was already returned on an earlier page`,
              ),
            );
          else newOnLast += 1;
          seen.add(id);
        }
      }
      const last = walk.calls[walk.calls.length - 1];
      if (!walk.complete && last !== undefined) {
        if (newOnLast === 0 && problems.length === 0)
          return pass(
            `bounded at ${seen.size} distinct Locations, although the walk did not end within ${BROWSE_PAGE_BUDGET} pages (see R-S9)`,
          );
        if (newOnLast > 0) {
          const total = totalCount(last);
          problems.unshift(
            callEvidence(
              last,
              `a bounded browse: a policy-limited selection that ends (has_next_page false) within ${BROWSE_PAGE_BUDGET} pages of up to ${served}`,
              `page ${walk.calls.length} still announces a next page, with ${seen.size} distinct Locations so far and still growing (+${newOnLast} on this page)${total === undefined ? '' : `, total_count ${total}`}: an export of the directory`,
            ),
          );
        }
      }
      return verdictOf(problems, `${walk.calls.length} page(s) of up to ${served} (asked for ${limit}), ${seen.size} distinct Locations`);
    },
  },
];
