import { describe, expect, it } from 'vitest';
import type { Exchange } from './exchange.js';
import { readRpcAnswer } from './mcp-peer.js';

function answer(body: string, contentType = 'application/json', status = 200): Exchange {
  return {
    binding: 'mcp',
    label: 't',
    method: 'POST',
    url: 'https://b.example/ucp/mcp',
    requestHeaders: {},
    requestBody: '',
    status,
    headers: { 'content-type': contentType },
    responseText: body,
  };
}

describe('readRpcAnswer (Streamable HTTP answers)', () => {
  it('reads a JSON body', () => {
    expect(readRpcAnswer(answer('{"jsonrpc":"2.0","id":3,"result":{}}'), 3).message).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
  });

  it('reads SSE data events and picks the response to the request sent', () => {
    const sse = [
      'event: message',
      'data: {"jsonrpc":"2.0","method":"notifications/progress","params":{}}',
      '',
      'event: message',
      'data: {"jsonrpc":"2.0","id":7,',
      'data: "result":{"ok":true}}',
      '',
      '',
    ].join('\n');
    expect(readRpcAnswer(answer(sse, 'text/event-stream'), 7).message).toEqual({ jsonrpc: '2.0', id: 7, result: { ok: true } });
  });

  it('reads a batch answer', () => {
    const batch = '[{"jsonrpc":"2.0","id":1,"result":1},{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"x"}}]';
    expect(readRpcAnswer(answer(batch), 2).message?.['error']).toEqual({ code: -32601, message: 'x' });
  });

  it('says why there is no message: no answer, empty body, not JSON, no response object', () => {
    const noAnswer: Exchange = {
      binding: 'mcp',
      label: 't',
      method: 'POST',
      url: 'https://b.example/ucp/mcp',
      requestHeaders: {},
      requestBody: '',
      failure: 'ECONNREFUSED',
    };
    expect(readRpcAnswer(noAnswer, 1).problem).toMatch(/ECONNREFUSED/);
    expect(readRpcAnswer(answer('', 'application/json', 202), 1).problem).toMatch(/empty body/);
    expect(readRpcAnswer(answer('<html>', 'text/html', 500), 1).problem).toMatch(/not JSON/);
    expect(readRpcAnswer(answer('{"jsonrpc":"2.0","method":"ping"}'), 1).problem).toMatch(/no JSON-RPC response/);
  });
});
