import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveAnnotations, visibilityOf } from './schema-annotations.js';
import type { JsonSchema } from './schema-walk.js';

const order: JsonSchema = {
  type: 'object',
  required: ['id', 'name', 'status'],
  properties: {
    id: { type: 'string', ucp_request: { create: 'omit', update: 'required' } },
    name: { type: 'string' },
    status: { type: 'string', ucp_request: 'omit' },
    note: { type: 'string', ucp_request: 'required', ucp_response: 'omit' },
    legacy: { type: 'string', ucp_request: { transition: { from: 'required', to: 'omit', description: 'gone in v2' } } },
    // data-valued keywords are never treated as schemas
    sample: { const: { properties: { x: { ucp_request: 'omit' } } }, ucp_request: 'optional' },
  },
};

describe('visibilityOf', () => {
  it('reads shorthand, per-operation and transition annotations', () => {
    expect(visibilityOf('omit', undefined)).toBe('omit');
    expect(visibilityOf({ create: 'omit', update: 'required' }, 'update')).toBe('required');
    expect(visibilityOf({ create: 'omit' }, 'search')).toBeUndefined();
    expect(visibilityOf({ create: 'omit' }, undefined)).toBeUndefined();
    expect(visibilityOf({ transition: { from: 'required', to: 'omit', description: 'x' } }, undefined)).toBe('required');
    expect(visibilityOf({ search: { transition: { from: 'optional', to: 'omit', description: 'x' } } }, 'search')).toBe('optional');
    expect(visibilityOf(undefined, 'search')).toBeUndefined();
    expect(visibilityOf('sometimes', undefined)).toBeUndefined();
  });
});

describe('resolveAnnotations', () => {
  it('drops omitted properties, adds required ones and keeps the rest (request, create)', () => {
    const r = resolveAnnotations(order, 'request', 'create');
    expect(Object.keys(r.properties as object).sort()).toEqual(['legacy', 'name', 'note', 'sample']);
    expect([...(r.required as string[])].sort()).toEqual(['legacy', 'name', 'note']);
  });

  it('applies per-operation values for the operation asked (request, update)', () => {
    const r = resolveAnnotations(order, 'request', 'update');
    expect(Object.keys(r.properties as object)).toContain('id');
    expect(r.required).toContain('id');
  });

  it('uses ucp_response in the response direction and ignores ucp_request there', () => {
    const r = resolveAnnotations(order, 'response', undefined);
    expect(Object.keys(r.properties as object).sort()).toEqual(['id', 'legacy', 'name', 'sample', 'status']);
    expect(r.required).toEqual(['id', 'name', 'status']);
  });

  it('never rewrites data-valued keywords and never mutates its input', () => {
    const before = JSON.stringify(order);
    const r = resolveAnnotations(order, 'request', 'create');
    expect((r.properties as Record<string, JsonSchema>).sample?.const).toEqual({ properties: { x: { ucp_request: 'omit' } } });
    expect(JSON.stringify(order)).toBe(before);
  });

  it('removes `required` altogether when nothing stays required', () => {
    const r = resolveAnnotations({ type: 'object', required: ['a'], properties: { a: { ucp_request: 'optional' } } }, 'request', undefined);
    expect(r).toEqual({ type: 'object', properties: { a: { ucp_request: 'optional' } } });
  });

  it('reaches properties nested in allOf/anyOf/$defs/items', () => {
    const nested: JsonSchema = {
      $defs: { d: { type: 'object', properties: { p: { ucp_request: 'omit' }, q: {} } } },
      items: { anyOf: [{ required: ['r'], properties: { r: { ucp_request: 'optional' } } }] },
    };
    const r = resolveAnnotations(nested, 'request', undefined);
    expect(r).toEqual({
      $defs: { d: { type: 'object', properties: { q: {} } } },
      items: { anyOf: [{ properties: { r: { ucp_request: 'optional' } } }] },
    });
  });

  it('is the identity (by value) on schemas without annotations for that direction', () => {
    const leaf = fc.oneof(
      fc.constant({ type: 'string' }),
      fc.constant({ type: 'number', minimum: 0 }),
      fc.constant({ const: { ucp_request: 'omit' } }),
    );
    const schema = fc.letrec<{ node: JsonSchema }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc.record({
          type: fc.constant('object'),
          properties: fc.dictionary(fc.string({ minLength: 1, maxLength: 4 }), tie('node'), { maxKeys: 3 }),
          required: fc.array(fc.string({ minLength: 1, maxLength: 4 }), { maxLength: 2 }),
        }),
        fc.record({ allOf: fc.array(tie('node'), { minLength: 1, maxLength: 2 }) }),
      ),
    })).node;
    fc.assert(
      fc.property(schema, fc.constantFrom<'request' | 'response'>('request', 'response'), (s, d) => {
        expect(resolveAnnotations(s, d, 'search')).toEqual(s);
      }),
    );
  });
});
