import { describe, expect, it } from 'vitest';
import { checkJsonRpcShape } from './http.js';

describe('checkJsonRpcShape (R-M1: -32600 for anything that is not JSON-RPC 2.0)', () => {
  it('accepts requests, notifications and small batches', () => {
    expect(checkJsonRpcShape({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).toBeUndefined();
    expect(checkJsonRpcShape({ jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'x' } })).toBeUndefined();
    expect(checkJsonRpcShape({ jsonrpc: '2.0', method: 'notifications/initialized' })).toBeUndefined();
    expect(checkJsonRpcShape([{ jsonrpc: '2.0', id: 1, method: 'ping' }])).toBeUndefined();
  });

  it('reports what is wrong, keeping a readable id', () => {
    expect(checkJsonRpcShape({ id: 7, method: 'ping' })).toEqual({ id: 7, message: 'member "jsonrpc" must be exactly "2.0".' });
    expect(checkJsonRpcShape({ jsonrpc: '2.0', id: 7, method: 3 })?.message).toContain('"method"');
    expect(checkJsonRpcShape({ jsonrpc: '2.0', id: 7, method: 'ping', params: [1] })?.message).toContain('"params"');
    expect(checkJsonRpcShape({ jsonrpc: '2.0', id: 1.5, method: 'ping' })).toEqual({ id: null, message: 'member "id" must be a string or an integer.' });
    expect(checkJsonRpcShape({ jsonrpc: '2.0', id: 1 })?.message).toContain('needs "id" and "method"');
    expect(checkJsonRpcShape('tools/call')?.id).toBeNull();
    expect(checkJsonRpcShape([])?.message).toContain('empty batch');
    expect(checkJsonRpcShape([{ jsonrpc: '2.0', id: 1, method: 'ping' }, { id: 2 }])?.message).toContain('batch element 1');
  });
});
