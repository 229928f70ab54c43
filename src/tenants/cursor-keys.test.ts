import { hkdfSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { tenantCursorSecret } from './cursor-keys.js';

describe('R-T1 per-tenant cursor keys', () => {
  it('R-T1 differ between tenants and between process secrets, and are stable for one pair', () => {
    const a = tenantCursorSecret('process-secret', 'brand-a.example');
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(tenantCursorSecret('process-secret', 'brand-a.example')).toBe(a);
    expect(tenantCursorSecret('process-secret', 'brand-b.example')).not.toBe(a);
    expect(tenantCursorSecret('another-secret', 'brand-a.example')).not.toBe(a);
  });

  it('is HKDF-SHA256 of the process secret with the domain as info (RFC 5869), so any instance derives the same key', () => {
    const expected = Buffer.from(hkdfSync('sha256', 's3cret', 'ucp-location tenant cursor key v1', 'brand-a.example', 32)).toString('hex');
    expect(tenantCursorSecret('s3cret', 'brand-a.example')).toBe(expected);
  });
});
