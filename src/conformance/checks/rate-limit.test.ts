import { describe, expect, it } from 'vitest';
import { validRetryAfter } from './rate-limit.js';

describe('validRetryAfter (RFC 9110 §10.2.3)', () => {
  it('accepts delta-seconds and HTTP-dates', () => {
    for (const v of ['0', '1', '120', ' 30 ', 'Wed, 21 Oct 2026 07:28:00 GMT']) expect(validRetryAfter(v), v).toBe(true);
  });
  it('refuses absent, repeated, negative, fractional and unreadable values', () => {
    for (const v of [undefined, ['1', '2'], '-1', '1.5', '', 'soon', 'Someday, 99 Foo']) expect(validRetryAfter(v), String(v)).toBe(false);
  });
});
