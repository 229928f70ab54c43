import { describe, expect, it } from 'vitest';
import { elementAt, isOneOf, isRecord, listeningPort } from './guards.js';

describe('guards', () => {
  it('isOneOf narrows only members of the list', () => {
    const DAYS = ['monday', 'tuesday'] as const;
    expect(isOneOf(DAYS, 'monday')).toBe(true);
    expect(isOneOf(DAYS, 'Monday')).toBe(false);
    expect(isOneOf(DAYS, undefined)).toBe(false);
    expect(isOneOf(DAYS, 1)).toBe(false);
  });

  it('isRecord accepts objects, not null or arrays', () => {
    expect(isRecord({})).toBe(true);
    expect(isRecord(null)).toBe(false);
    expect(isRecord([])).toBe(false);
    expect(isRecord('x')).toBe(false);
  });

  it('elementAt reads in range and throws, naming the index, outside it', () => {
    expect(elementAt([10, 20], 1)).toBe(20);
    expect(elementAt(new Float64Array([1.5]), 0)).toBe(1.5);
    expect(() => elementAt([10, 20], 2)).toThrow(/index 2 .*length 2/);
    expect(() => elementAt([10], -1)).toThrow(RangeError);
  });

  it('listeningPort reads a TCP address and refuses a pipe or no address', () => {
    expect(listeningPort({ address: '127.0.0.1', family: 'IPv4', port: 8080 })).toBe(8080);
    expect(() => listeningPort('/tmp/socket')).toThrow(/not listening on a TCP port/);
    expect(() => listeningPort(null)).toThrow(/not listening on a TCP port/);
  });
});
