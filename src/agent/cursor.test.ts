import { describe, expect, it } from 'vitest';
import { CursorSeal } from './cursor.js';
import { ToolInputError } from './errors.js';

describe('agent cursor seal', () => {
  it('round-trips a state and hides it (no coordinates readable in the token)', () => {
    const seal = new CursorSeal();
    const state = { v: 1, list: { near: { latitude: 27.704212, longitude: 85.306731 } }, o: 10 };
    const cursor = seal.seal(state);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(cursor, 'base64url').toString('latin1')).not.toContain('27.70');
    expect(seal.open(cursor)).toEqual(state);
  });

  it('refuses a tampered cursor, a cursor of another process and garbage, telling the model to start over', () => {
    const seal = new CursorSeal();
    const cursor = seal.seal({ v: 1, o: 10 });
    const bytes = Buffer.from(cursor, 'base64url');
    bytes[20] = (bytes[20] ?? 0) ^ 1;
    for (const bad of [bytes.toString('base64url'), new CursorSeal().seal({ v: 1, o: 10 }), 'not a cursor', 'AAAA']) {
      expect(() => seal.open(bad)).toThrow(ToolInputError);
      expect(() => seal.open(bad)).toThrow(/call find_locations again without "cursor"/);
    }
  });
});
