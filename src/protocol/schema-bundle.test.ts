import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { bundleSchemas } from './schema-bundle.js';
import type { JsonSchema } from './schema-walk.js';

const A = 'https://a.example/s/tree.json';
const B = 'https://b.example/other/tree.json';
const docs: Record<string, JsonSchema> = {
  [A]: {
    $id: A,
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $defs: {
      node: {
        type: 'object',
        properties: { children: { type: 'array', items: { $ref: '#/$defs/node' } }, leaf: { $ref: `${B}#/$defs/leaf` } },
      },
      unused: { $ref: 'https://nowhere.example/never.json' },
    },
    'x-note': 'dropped',
  },
  [B]: { $id: B, $defs: { leaf: { const: { $ref: 'not-a-reference' } } } },
};

describe('bundleSchemas', () => {
  const bundle = bundleSchemas({ root: `${A}#/$defs/node`, whole: A }, (u) => docs[u], { stripKeywords: ['x-note'] });

  it('hoists every reachable target once, follows cycles, and leaves unreferenced $defs out', () => {
    expect(bundle.refs).toEqual({ root: '#/$defs/tree.node', whole: '#/$defs/tree' });
    expect(Object.keys(bundle.defs).sort()).toEqual(['tree', 'tree.leaf', 'tree.node']);
    expect(bundle.defs['tree']).toEqual({}); // $id, $schema, $defs and stripped keywords removed
  });

  it('rewrites $ref to local pointers but never touches data-valued keywords', () => {
    const node = bundle.defs['tree.node'] as { properties: { children: { items: unknown }; leaf: unknown } };
    expect(node.properties.children.items).toEqual({ $ref: '#/$defs/tree.node' });
    expect(node.properties.leaf).toEqual({ $ref: '#/$defs/tree.leaf' });
    expect(bundle.defs['tree.leaf']).toEqual({ const: { $ref: 'not-a-reference' } });
  });

  it('keeps names unique when two documents share a file name', () => {
    const b = bundleSchemas({ a: A, b: B }, (u) => docs[u]);
    expect(b.refs).toEqual({ a: '#/$defs/tree', b: '#/$defs/tree_2' });
  });

  it('produces a schema that compiles on its own', () => {
    const ajv = new Ajv2020();
    const v = ajv.compile({ $ref: bundle.refs.root, $defs: bundle.defs });
    expect(v({ children: [{ children: [], leaf: { $ref: 'not-a-reference' } }] })).toBe(true);
    expect(v({ children: [{ leaf: 'x' }] })).toBe(false);
  });

  it('names what it cannot bundle', () => {
    expect(() => bundleSchemas({ x: 'https://nowhere.example/never.json' }, (u) => docs[u])).toThrow(
      /document https:\/\/nowhere.example\/never.json is unknown/,
    );
    expect(() => bundleSchemas({ x: `${A}#anchor` }, (u) => docs[u])).toThrow(/only JSON Pointer fragments/);
  });
});
