import { describe, expect, it } from 'vitest';
import { runCheckOn, type RunContext } from '../check.js';
import type { RpcExchange } from '../mcp-peer.js';
import { JSONRPC_CHECKS } from './jsonrpc.js';

const envelope = JSONRPC_CHECKS.find((c) => c.id === 'jsonrpc.envelope');

function answered(status: number, message: Record<string, unknown>, sentId = 7): RpcExchange {
  return {
    sentId,
    message,
    exchange: {
      binding: 'mcp',
      label: 'tools/call search_locations',
      method: 'POST',
      url: 'http://127.0.0.1/ucp/mcp',
      requestHeaders: {},
      requestBody: JSON.stringify({ jsonrpc: '2.0', id: sentId, method: 'tools/call' }),
      status,
      headers: { 'content-type': 'application/json' },
      responseText: JSON.stringify(message),
    },
  };
}

async function judge(x: RpcExchange): Promise<string> {
  const ctx = { rawRpc: [x], calls: [] } as unknown as RunContext;
  const verdict = envelope === undefined ? undefined : await runCheckOn(envelope, ctx, undefined);
  return `${verdict?.status ?? 'missing'} ${verdict?.detail ?? ''}`;
}

describe('R-M1 JSON-RPC envelope audit and "id": null', () => {
  const refusal = { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Too many requests', data: { retry_after: 1 } } };

  it('R-M1: accepts "id": null on an HTTP 429 refusal answered before the request was read', async () => {
    expect(await judge(answered(429, refusal))).toMatch(/^pass/);
  });

  it('R-M1: still fails "id": null on an ordinary answer to a request whose id was readable', async () => {
    expect(await judge(answered(200, { jsonrpc: '2.0', id: null, result: {} }))).toMatch(/^fail .*"id" is null, expected 7/);
    expect(await judge(answered(400, { ...refusal, error: { code: -32602, message: 'bad' } }))).toMatch(/^fail/);
  });

  it('R-M1: a 429 that does give an id must give the one sent', async () => {
    expect(await judge(answered(429, { ...refusal, id: 8 }))).toMatch(/^fail .*"id" is 8, expected 7/);
  });
});
