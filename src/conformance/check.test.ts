import { describe, expect, it } from 'vitest';
import { pass, runCheckOn, type Check, type RunContext } from './check.js';
import type { OperationClient } from './operation-client.js';

const ctx = {} as RunContext;
const base = { rule: 'R-S1', area: 'search', title: 't' } as const;

describe('runCheckOn: a check gets a client exactly when its scope has one', () => {
  it('a run-scoped check runs without a client', async () => {
    const check: Check = { ...base, id: 'x.run', scope: 'run', run: async () => pass('ran') };
    expect((await runCheckOn(check, ctx, undefined)).detail).toBe('ran');
  });

  it('a binding-scoped check runs with the client it was given', async () => {
    const client = { binding: 'rest' } as OperationClient;
    const check: Check = { ...base, id: 'x.rest', scope: 'rest', run: async (_ctx, c) => pass(c.binding) };
    expect((await runCheckOn(check, ctx, client)).detail).toBe('rest');
  });

  it('a binding-scoped check given no client is refused by name instead of running on undefined', async () => {
    const check: Check = { ...base, id: 'x.binding', scope: 'binding', run: async (_ctx, c) => pass(c.binding) };
    await expect(runCheckOn(check, ctx, undefined)).rejects.toThrow(/x\.binding runs over a binding/);
  });
});
