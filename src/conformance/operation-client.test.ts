import fc from 'fast-check';
import { parseDictionary } from 'structured-headers';
import { describe, expect, it } from 'vitest';
import type { Exchange } from './exchange.js';
import type { RpcExchange } from './mcp-peer.js';
import { classifyRest, classifyRpc, ucpAgentHeader } from './operation-client.js';

function rest(status: number, body: unknown): Exchange {
  return {
    binding: 'rest',
    label: 'POST /locations/search',
    method: 'POST',
    url: 'https://b.example/ucp/locations/search',
    requestHeaders: {},
    requestBody: '{}',
    status,
    headers: { 'content-type': 'application/json' },
    responseText: typeof body === 'string' ? body : JSON.stringify(body),
  };
}

function rpc(message: Record<string, unknown>): RpcExchange {
  return { exchange: rest(200, message), sentId: 1, message };
}

const errorBody = (code: string) => ({
  ucp: { version: '2026-08-25', status: 'error' },
  messages: [{ type: 'error', code, content: `about ${code}`, severity: 'unrecoverable' }],
});

describe('classifyRest (R-G5 statuses)', () => {
  it('sorts answers into success, business error, request error, negotiation error, other, broken', () => {
    expect(classifyRest(rest(200, { ucp: { version: '2026-08-25' }, locations: [] })).kind).toBe('success');
    expect(classifyRest(rest(200, errorBody('capabilities_incompatible'))).kind).toBe('business_error');
    expect(classifyRest(rest(400, errorBody('invalid_request')))).toMatchObject({
      kind: 'request_error',
      code: 400,
      message: 'about invalid_request',
    });
    expect(classifyRest(rest(400, errorBody('invalid_profile_url')))).toMatchObject({
      kind: 'negotiation_error',
      ucpCode: 'invalid_profile_url',
    });
    expect(classifyRest(rest(424, { code: 'profile_unreachable', content: 'x' }))).toMatchObject({
      kind: 'negotiation_error',
      ucpCode: 'profile_unreachable',
    });
    expect(classifyRest(rest(422, errorBody('version_unsupported')))).toMatchObject({ kind: 'negotiation_error', code: 422 });
    expect(classifyRest(rest(429, errorBody('rate_limited')))).toMatchObject({ kind: 'other_error', code: 429 });
    expect(classifyRest(rest(502, 'Bad gateway'))).toMatchObject({ kind: 'broken' });
    const { status: _status, headers: _headers, responseText: _text, ...sent } = rest(200, '');
    expect(classifyRest({ ...sent, failure: 'timeout' })).toMatchObject({ kind: 'broken', problem: expect.stringMatching(/timeout/) });
  });
});

describe('classifyRpc (R-M1, R-G5 codes)', () => {
  it('maps -32602 to a request error and -32001 to a negotiation error with data.code', () => {
    expect(
      classifyRpc(rpc({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad', data: { pointer: '/location' } } })),
    ).toMatchObject({ kind: 'request_error' });
    expect(
      classifyRpc(rpc({ jsonrpc: '2.0', id: 1, error: { code: -32001, message: 'x', data: { code: 'profile_malformed' } } })),
    ).toMatchObject({
      kind: 'negotiation_error',
      ucpCode: 'profile_malformed',
    });
    expect(classifyRpc(rpc({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'x' } }))).toMatchObject({
      kind: 'other_error',
      code: -32601,
    });
  });

  it('reads the payload from structuredContent; isError and a missing payload are not successes', () => {
    expect(
      classifyRpc(rpc({ jsonrpc: '2.0', id: 1, result: { structuredContent: { ucp: { version: '2026-08-25' }, locations: [] } } })).kind,
    ).toBe('success');
    expect(classifyRpc(rpc({ jsonrpc: '2.0', id: 1, result: { structuredContent: errorBody('capabilities_incompatible') } })).kind).toBe(
      'business_error',
    );
    expect(classifyRpc(rpc({ jsonrpc: '2.0', id: 1, result: { isError: true, content: [{ type: 'text', text: 'boom' }] } }))).toMatchObject(
      { kind: 'other_error' },
    );
    expect(classifyRpc(rpc({ jsonrpc: '2.0', id: 1, result: { content: [] } }))).toMatchObject({ kind: 'broken' });
  });
});

describe('ucpAgentHeader (R-G1)', () => {
  it('is an RFC 8941 dictionary whose profile member is the URL, whatever it contains', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[\x20-\x7e]{1,80}$/), (tail) => {
        const url = `https://platform.example/${tail}`;
        const member = parseDictionary(ucpAgentHeader(url)).get('profile');
        expect(member?.[0]).toBe(url);
      }),
    );
  });
});
