import { describe, expect, it } from 'vitest';
import { findPointer, jsonPathToPointer } from './pointer.js';

describe('jsonPathToPointer', () => {
  it.each([
    ['$.distance.max', '/distance/max'],
    ['$.ids[0]', '/ids/0'],
    ["$['filters']['hours']['open_at']", '/filters/hours/open_at'],
    ['$["a/b"]', '/a~1b'],
    ['$', ''],
  ])('%s → %s', (path, pointer) => {
    expect(jsonPathToPointer(path)).toBe(pointer);
  });

  it('is null for text that is not JSONPath', () => {
    expect(jsonPathToPointer('/distance/max')).toBeNull();
    expect(jsonPathToPointer('$.distance max')).toBeNull();
  });
});

describe('findPointer (R-M1: the failing JSON pointer)', () => {
  it('finds it in error.data relative to params.arguments (our MCP binding)', () => {
    expect(findPointer('/distance/max', 'Invalid search request', { code: 'invalid_request', pointer: '/location/distance/max' })).toBe(
      '/location/distance/max',
    );
  });

  it('accepts pointers relative to the bare request or to the whole params', () => {
    expect(findPointer('/ids', 'bad', { pointer: '/ids' })).toBe('/ids');
    expect(findPointer('/ids', 'bad', { details: [{ where: '/params/arguments/location/ids' }] })).toBe('/params/arguments/location/ids');
  });

  it('finds REST messages[].path written as JSONPath', () => {
    const body = {
      ucp: { version: '2026-08-25', status: 'error' },
      messages: [{ type: 'error', code: 'invalid_request', path: '$.pagination.limit', content: 'must be ≥ 1' }],
    };
    expect(findPointer('/pagination/limit', 'must be ≥ 1', body)).toBe('/pagination/limit');
  });

  it('accepts the parent or a child of the expected member', () => {
    expect(findPointer('/distance/center/latitude', 'bad', { pointer: '/location/distance/center' })).toBe('/location/distance/center');
    expect(findPointer('/serves', 'bad', { pointer: '/location/serves/point' })).toBe('/location/serves/point');
  });

  it('falls back to the message text (pointer or dotted path)', () => {
    expect(findPointer('/distance/max', 'distance.max must be a number of metres >= 0', undefined)).toBe('distance.max');
    expect(findPointer('/distance/max', 'at /location/distance/max: must be >= 0', null)).toBe('/location/distance/max');
  });

  it('finds nothing when only an unrelated member, the root, or no location is named', () => {
    expect(findPointer('/distance/max', 'Invalid params', { pointer: '/location/pagination/limit' })).toBeUndefined();
    expect(findPointer('/distance/max', 'Invalid params', { pointer: '/location' })).toBeUndefined();
    expect(findPointer('/distance/max', 'Invalid params', undefined)).toBeUndefined();
    expect(findPointer('/distance/max', 'max distance too large', { pointer: '' })).toBeUndefined();
  });
});
