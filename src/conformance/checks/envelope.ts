/**
 * Response envelope and negotiation (R-M2, R-M3, R-G1, R-G2, R-G3, R-G5, R-G6): every payload
 * validates against the release's response schema and carries `ucp.version` and only the
 * capabilities of its operation; invalid REST requests are 400s; the Platform profile is fetched
 * once and cached, not per call; discovery failures and a Platform on a release the Business does
 * not support are transport errors, while `capabilities_incompatible` is a successful result with
 * `ucp.status: "error"`.
 */
import type { UcpLocationClient } from '../../client/index.js';
import { BusinessError, UcpClientError } from '../../client/index.js';
import { validateErrorResponse, validateLookupResponse, validateSearchResponse } from '../../domain/request-validation.js';
import { summarizeIssues } from '../../protocol/schemas.js';
import { UCP_VERSION } from '../../protocol/types.js';
import { fail, pass, skip, verdictOf, type Check } from '../check.js';
import { callEvidence, describeOutcome, type Call } from '../operation-client.js';
import { EMPTY_SEARCH, isRecord } from '../oracle.js';
import { UNSUPPORTED_PLATFORM_VERSION } from '../platform-profile.js';
import { findPointer } from '../pointer.js';
import type { Evidence } from '../types.js';
import { probeInvalidRequests } from './jsonrpc.js';

/** A platform profile URL no Business can use: loopback, port 9 (discard). Stays on loopback either way. */
export const UNUSABLE_PROFILE_URL = 'https://127.0.0.1:9/ucp-conformance/no-such-profile.json';
/** The cheapest call of `operation` that still goes through negotiation: it matches nothing. */
function cheapRequest(operation: 'search' | 'lookup'): unknown {
  return operation === 'search' ? EMPTY_SEARCH : { ids: ['ucp-conformance-any'] };
}

const NEGOTIATION_CODES = ['invalid_profile_url', 'profile_unreachable', 'profile_malformed', 'version_unsupported'];
/** Calls naming the max-age=0 profile in a row, and the most fetches of it a caching Business needs (one per process it may run). */
const FLOOR_CALLS = 8;
const FLOOR_MAX_FETCHES = 4;
/** Below this many calls with the run's profile, a fetch count says little. */
const MIN_CALLS_FOR_CACHE = 10;

export const ENVELOPE_CHECKS: readonly Check[] = [
  {
    id: 'negotiation.profile-cached',
    rule: 'R-G2',
    area: 'negotiation',
    title: 'the Platform profile is cached, not fetched per call, and kept ≥ 60 s even when served with max-age=0',
    scope: 'run',
    needs: ['profile', 'fetch-count'],
    audit: true,
    run: async (ctx) => {
      const count = ctx.platform.profileFetches as (url: string) => number;
      const url = ctx.platform.url as string;
      const problems: Evidence[] = [];
      // The whole run so far: every probe named the run's profile (served with max-age=300).
      const named = ctx.calls.filter((c) => c.profileUrl === url);
      const fetched = count(url);
      const lastNamed = named[named.length - 1];
      if (named.length >= MIN_CALLS_FOR_CACHE && fetched > named.length / 2 && lastNamed !== undefined) {
        problems.push(
          callEvidence(
            lastNamed,
            `the profile at ${url} (Cache-Control: public, max-age=300) fetched about once per Business process, not per call`,
            `${fetched} fetches for ${named.length} calls naming it`,
          ),
        );
      }
      // The TTL floor: the same document served with max-age=0, named by calls in quick succession.
      const client = ctx.clients[0];
      const zero = ctx.platform.maxAgeZeroUrl;
      let floor = 'no binding to probe the TTL floor with';
      if (client !== undefined && zero !== undefined) {
        const operation = ctx.advertised.has('search') ? 'search' : 'lookup';
        let last: Call | undefined;
        for (let i = 0; i < FLOOR_CALLS; i++) last = await client.call(operation, cheapRequest(operation), { profileUrl: zero });
        const zeroFetches = count(zero);
        floor = `${zeroFetches} fetch(es) of the max-age=0 profile for ${FLOOR_CALLS} calls`;
        if (zeroFetches > FLOOR_MAX_FETCHES && last !== undefined) {
          problems.push(
            callEvidence(
              last,
              `a profile served with max-age=0 kept for at least 60 s (at most ${FLOOR_MAX_FETCHES} fetches for ${FLOOR_CALLS} calls in a row)`,
              `${zeroFetches} fetches for ${FLOOR_CALLS} calls`,
            ),
          );
        }
      }
      return verdictOf(problems, `${fetched} fetch(es) of the Platform profile for ${named.length} calls naming it; ${floor}`);
    },
  },
  {
    id: 'envelope.response-schema',
    rule: 'R-M2',
    area: 'envelope',
    title: 'every payload validates against the 2026-08-25 search/lookup response (or error_response) schema',
    scope: 'run',
    needs: ['profile'],
    audit: true,
    run: async (ctx) => {
      const answers = ctx.calls.filter((c) => c.outcome.kind === 'success' || c.outcome.kind === 'business_error');
      if (answers.length === 0) return skip('no call succeeded');
      const problems: Evidence[] = [];
      for (const call of answers) {
        if (call.outcome.kind !== 'success' && call.outcome.kind !== 'business_error') continue;
        const payload = call.outcome.payload;
        const check =
          call.outcome.kind === 'business_error'
            ? validateErrorResponse(payload)
            : call.operation === 'search'
              ? validateSearchResponse(payload)
              : validateLookupResponse(payload);
        if (!check.valid) {
          const schema = call.outcome.kind === 'business_error' ? 'error_response' : `${call.operation}_response`;
          problems.push(callEvidence(call, `a valid ${schema}`, summarizeIssues(check.errors)));
        }
      }
      return verdictOf(problems, `${answers.length} payloads`);
    },
  },
  {
    id: 'envelope.ucp',
    rule: 'R-G6',
    area: 'envelope',
    title: `every response carries ucp.version ${UCP_VERSION} and only the capabilities of its operation`,
    scope: 'run',
    needs: ['profile'],
    audit: true,
    run: async (ctx) => {
      const answers = ctx.calls.filter((c) => c.outcome.kind === 'success');
      if (answers.length === 0) return skip('no call succeeded');
      const problems: Evidence[] = [];
      for (const call of answers) {
        if (call.outcome.kind !== 'success') continue;
        const ucp = call.outcome.payload['ucp'];
        const wrong: string[] = [];
        if (!isRecord(ucp)) wrong.push('no ucp object');
        else {
          if (ucp['version'] !== UCP_VERSION) wrong.push(`ucp.version is ${JSON.stringify(ucp['version'])}`);
          const got = isRecord(ucp['capabilities']) ? Object.keys(ucp['capabilities']).sort() : [];
          const want = ctx.expectedCapabilities(call.operation);
          if (want !== null && JSON.stringify(got) !== JSON.stringify([...want].sort())) {
            wrong.push(`ucp.capabilities lists ${JSON.stringify(got)}, expected ${JSON.stringify([...want].sort())}`);
          }
        }
        if (wrong.length > 0)
          problems.push(
            callEvidence(call, `ucp.version "${UCP_VERSION}" and the negotiated capabilities of ${call.operation} only`, wrong.join('; ')),
          );
      }
      return verdictOf(problems, `${answers.length} responses`);
    },
  },
  {
    id: 'envelope.rest-request-validation',
    rule: 'R-M3',
    area: 'envelope',
    title: 'REST: requests failing the schema get 400 with the offending member named',
    scope: 'rest',
    needs: ['profile'],
    run: async (ctx, client) =>
      probeInvalidRequests(ctx, client, 'HTTP 400 naming the offending member', (call, pointer) => {
        const o = call.outcome;
        if (o.kind !== 'request_error') return `expected HTTP 400, got ${describeOutcome(o)}`;
        return findPointer(pointer, o.message, o.data) === undefined
          ? `400 without ${pointer} (pointer or JSONPath) in the body`
          : undefined;
      }),
  },
  {
    id: 'negotiation.unusable-profile',
    rule: 'R-G5',
    area: 'negotiation',
    title: 'an unusable platform profile URL is a discovery error (MCP -32001 with data.code; REST 400/422/424)',
    scope: 'binding',
    needs: ['profile'],
    run: async (ctx, client) => {
      const c = client;
      const operation = ctx.advertised.has('search') ? 'search' : 'lookup';
      const call = await c.call(operation, operation === 'search' ? {} : { ids: ['ucp-conformance-any'] }, {
        profileUrl: UNUSABLE_PROFILE_URL,
      });
      const o = call.outcome;
      const expected =
        c.binding === 'mcp'
          ? 'JSON-RPC error -32001 with data.code one of the negotiation codes'
          : 'HTTP 400/422/424 with a negotiation code';
      const codeOk = o.kind === 'negotiation_error' && o.ucpCode !== undefined && NEGOTIATION_CODES.includes(o.ucpCode);
      const statusOk = o.kind === 'negotiation_error' && (c.binding === 'mcp' ? o.code === -32001 : [400, 422, 424].includes(o.code));
      if (codeOk && statusOk) return pass(`answered ${o.kind === 'negotiation_error' ? String(o.ucpCode) : ''}`);
      return fail(describeOutcome(o), [callEvidence(call, expected, describeOutcome(o))]);
    },
  },
  {
    id: 'negotiation.version-unsupported',
    rule: 'R-G3',
    area: 'negotiation',
    title: `a Platform profile declaring only release ${UNSUPPORTED_PLATFORM_VERSION} gets version_unsupported (MCP -32001 with data.code; REST 422)`,
    scope: 'binding',
    needs: ['profile', 'version-profile'],
    run: async (ctx, client) => {
      // A Business that really supports the old release would be right to accept it.
      const ucp = isRecord(ctx.discovery.response?.body) ? ctx.discovery.response.body['ucp'] : undefined;
      const supported = isRecord(ucp) ? ucp['supported_versions'] : undefined;
      if (isRecord(supported) && Object.hasOwn(supported, UNSUPPORTED_PLATFORM_VERSION)) {
        return skip(`the Business lists ${UNSUPPORTED_PLATFORM_VERSION} in supported_versions, so a Platform on that release is supported`);
      }
      const c = client;
      const operation = ctx.advertised.has('search') ? 'search' : 'lookup';
      const call = await c.call(operation, cheapRequest(operation), { profileUrl: ctx.platform.unsupportedVersionUrl ?? null });
      const o = call.outcome;
      const expected =
        c.binding === 'mcp'
          ? `JSON-RPC error -32001 with data.code "version_unsupported" (the Platform profile at ${ctx.platform.unsupportedVersionUrl ?? '?'} declares ucp.version ${UNSUPPORTED_PLATFORM_VERSION})`
          : `HTTP 422 with code "version_unsupported" (the Platform profile in UCP-Agent declares ucp.version ${UNSUPPORTED_PLATFORM_VERSION})`;
      const wantStatus = c.binding === 'mcp' ? -32001 : 422;
      if (o.kind === 'negotiation_error' && o.ucpCode === 'version_unsupported' && o.code === wantStatus)
        return pass(`answered version_unsupported (${wantStatus})`);
      const observed =
        o.kind === 'negotiation_error'
          ? `${describeOutcome(o)} (code ${JSON.stringify(o.ucpCode ?? null)})`
          : o.kind === 'success'
            ? `${describeOutcome(o)}: the Platform's version was not checked`
            : describeOutcome(o);
      return fail(observed, [callEvidence(call, expected, observed)]);
    },
  },
  {
    id: 'negotiation.sdk-round-trip',
    rule: 'R-G4',
    area: 'negotiation',
    title: 'the reference Platform SDK negotiates (version, capabilities, schemas) and completes a validated call',
    scope: 'binding',
    needs: ['profile'],
    run: async (ctx, client) => {
      const binding = client.binding;
      const request = ctx.advertised.has('search') ? `search ${JSON.stringify(EMPTY_SEARCH)}` : 'lookup ["ucp-conformance-any"]';
      let sdk: UcpLocationClient | undefined;
      try {
        // The SDK has its own connection, outside the checker's pacer: its 429s are waited out here.
        for (let again = false; ; again = true) {
          try {
            sdk = await ctx.discoverWithSdk(binding);
            if (ctx.advertised.has('search')) await sdk.search(EMPTY_SEARCH);
            else await sdk.lookup(['ucp-conformance-any']);
            return pass(`negotiated ${Object.keys(sdk.negotiated.capabilities).join(', ')}`);
          } catch (error) {
            const refused = error instanceof BusinessError && error.details.httpStatus === 429;
            if (!refused || !(await ctx.pacer.waitOut((error.details.retryAfterSeconds ?? 1) * 1000, again))) throw error;
            await sdk?.close();
            sdk = undefined;
          }
        }
      } catch (error) {
        const code = error instanceof UcpClientError ? ` (${error.code})` : '';
        const message = `${error instanceof Error ? error.message : String(error)}${code}`;
        return fail(message, [
          {
            expected: `discovery, negotiation and a schema-valid ${binding} ${request}`,
            observed: message,
            request: `SDK discover ${ctx.discovery.profileUrl} --transport ${binding}, then ${request}`,
          },
        ]);
      } finally {
        await sdk?.close();
      }
    },
  },
  {
    id: 'negotiation.missing-agent',
    rule: 'R-G1',
    area: 'negotiation',
    title: 'REST: a request without the UCP-Agent header is refused',
    scope: 'rest',
    needs: ['profile'],
    run: async (ctx, client) => {
      const operation = ctx.advertised.has('search') ? 'search' : 'lookup';
      const call = await client.call(operation, operation === 'search' ? {} : { ids: ['ucp-conformance-any'] }, {
        profileUrl: null,
      });
      const status = call.exchange.status;
      if (status !== undefined && status >= 400 && status < 500) return pass(`HTTP ${status}`);
      return fail(describeOutcome(call.outcome), [
        callEvidence(call, 'a 4xx error (UCP-Agent: profile="…" is required)', describeOutcome(call.outcome)),
      ]);
    },
  },
  {
    id: 'negotiation.capabilities-incompatible',
    rule: 'R-G5',
    area: 'negotiation',
    title: 'a platform without the lookup capability gets a successful result with ucp.status "error" (capabilities_incompatible)',
    scope: 'binding',
    needs: ['profile', 'lookup', 'served-profile'],
    run: async (ctx, client) => {
      const call = await client.call('lookup', { ids: ['ucp-conformance-any'] }, { profileUrl: ctx.platform.searchOnlyUrl ?? null });
      const expected = 'a successful result (MCP result / REST 200) with ucp.status "error" and an error message capabilities_incompatible';
      if (call.outcome.kind !== 'business_error')
        return fail(describeOutcome(call.outcome), [callEvidence(call, expected, describeOutcome(call.outcome))]);
      const messages = call.outcome.payload['messages'];
      const hit =
        Array.isArray(messages) && messages.some((m) => isRecord(m) && m['code'] === 'capabilities_incompatible' && m['type'] === 'error');
      return hit
        ? pass()
        : fail('no capabilities_incompatible error message', [
            callEvidence(call, expected, 'messages lack {type: "error", code: "capabilities_incompatible"}'),
          ]);
    },
  },
];
