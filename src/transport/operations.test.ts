/**
 * `executeOperation` adds the `unknown_field` warnings after negotiation, so the members a
 * negotiated extension declares are known; the engine and negotiator here are doubles, the member
 * check is the real one over the real schemas.
 */
import { describe, expect, it } from 'vitest';
import { createUnknownMemberReport } from '../domain/request-members.js';
import type { SearchRequest } from '../domain/requests.js';
import { SEARCH_CAPABILITY, UCP_VERSION } from '../protocol/types.js';
import type { NegotiationOutcome, RequestNegotiator } from './negotiate-request.js';
import { executeOperation } from './operations.js';
import type { OperationDeps } from './operations.js';
import { UNLIMITED } from './rate-limits.js';
import { fakeValidators, ScriptedService } from './test-support/fake-parts.js';

const EXTENSION = 'com.example.location.parking';
const EXTENSION_URL = 'https://example.com/ucp/parking.json';

const check = createUnknownMemberReport([
  {
    name: EXTENSION,
    url: EXTENSION_URL,
    document: {
      $id: EXTENSION_URL,
      $defs: { [SEARCH_CAPABILITY]: { type: 'object', properties: { parking: { type: 'object' } } } },
    },
  },
]);

/** Negotiates to the given capabilities for every profile. */
function negotiatingTo(capabilities: readonly string[]): RequestNegotiator {
  const outcome: NegotiationOutcome = {
    compatible: true,
    ucp: { version: UCP_VERSION, capabilities: Object.fromEntries(capabilities.map((c) => [c, [{ version: UCP_VERSION }]])) },
  };
  return { negotiate: () => Promise.resolve(outcome) };
}

function deps(negotiator: RequestNegotiator): OperationDeps {
  return {
    service: new ScriptedService(),
    validate: { ...fakeValidators, unknownMembers: check },
    negotiator,
    limiter: UNLIMITED,
  };
}

const request = { query: 'garage', parking: { covered: true }, near: 'Oakland' } as SearchRequest;
const call = { operation: 'search' as const, profileUrl: 'https://platform.example/p.json', request, clientIp: undefined };

describe('unknown request members in an operation', () => {
  it('warns about members no negotiated capability declares, before the engine messages', async () => {
    const result = await executeOperation(deps(negotiatingTo([SEARCH_CAPABILITY])), call);
    expect(result.outcome).toBe('success');
    const messages = (result.payload['messages'] ?? []) as { code: string; path: string }[];
    expect(messages.map((m) => [m.code, m.path])).toEqual([
      ['unknown_field', "$['parking']"],
      ['unknown_field', "$['near']"],
    ]);
    expect(Object.keys(result.payload)).toEqual(['ucp', 'locations', 'pagination', 'messages']);
  });

  it('does not warn about a member of a negotiated extension (R-G6: it is in ucp.capabilities)', async () => {
    const result = await executeOperation(deps(negotiatingTo([SEARCH_CAPABILITY, EXTENSION])), call);
    const messages = (result.payload['messages'] ?? []) as { path: string }[];
    expect(messages.map((m) => m.path)).toEqual(["$['near']"]);
  });

  it('R-J2: the use case sees the request without the members it ignores, so a cursor never binds them (fails before: it saw them)', async () => {
    const d = deps(negotiatingTo([SEARCH_CAPABILITY]));
    await executeOperation(d, { ...call, request: { ...request, pagination: { limit: 1 } } });
    const service = d.service as ScriptedService;
    expect(service.calls.map((c) => c.request)).toEqual([{ query: 'garage', pagination: { limit: 1 } }]);
    expect(request).toHaveProperty('near', 'Oakland'); // the caller's object is left alone
  });

  it('leaves the payload alone when every member is known', async () => {
    const result = await executeOperation(deps(negotiatingTo([SEARCH_CAPABILITY])), { ...call, request: { query: 'garage' } });
    expect(result.payload).not.toHaveProperty('messages');
  });
});
