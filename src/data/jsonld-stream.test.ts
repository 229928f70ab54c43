import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonLdScanner, type JsonLdPiece } from './jsonld-stream.js';

function scanInChunks(text: string, cuts: readonly number[]): JsonLdPiece[] {
  const scanner = new JsonLdScanner();
  const out: JsonLdPiece[] = [];
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    scanner.feed(text.slice(from, cut), out);
    from = cut;
  }
  scanner.feed(text.slice(from), out);
  scanner.end(out);
  return out;
}

const store = (n: number) => ({ '@type': 'Store', branchCode: `s-${n}`, name: `Shop "${n}" \\ {x}`, geo: { latitude: 1, longitude: n } });

describe('JSON-LD stream scanner', () => {
  it('hands out each @graph element of a top-level object, and each element of a top-level array', () => {
    const graph = { '@context': 'https://schema.org', '@graph': [store(1), store(2)] };
    expect(scanInChunks(JSON.stringify(graph, null, 2), [])).toEqual([{ value: store(1) }, { value: store(2) }]);
    expect(scanInChunks(JSON.stringify([store(1), [store(2)]]), [])).toEqual([{ value: store(1) }, { value: [store(2)] }]);
  });

  it('hands out a top-level object without a @graph array whole (members in order), and nothing for a primitive', () => {
    const node = { '@context': 'https://schema.org', ...store(3), '@graph': { '@type': 'Store' } };
    expect(scanInChunks(JSON.stringify(node), [])).toEqual([{ value: node }]);
    expect(scanInChunks('  42 ', [])).toEqual([]);
    expect(scanInChunks('{}', [])).toEqual([]);
  });

  it('gives the same pieces however the text is cut into chunks (property)', () => {
    const doc = JSON.stringify({ '@context': { '@vocab': 'https://schema.org/' }, '@graph': [store(1), store(2), store(3)], extra: [1, 'a]'] }, null, 1);
    const whole = scanInChunks(doc, []);
    expect(whole).toHaveLength(3);
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: doc.length }), { maxLength: 12 }), (cuts) => {
      expect(scanInChunks(doc, cuts)).toEqual(whole);
    }));
  });

  it('reports the line and column of a syntax error, after the elements before it', () => {
    const text = '{\n  "@graph": [\n    {"name": "a"},\n    {"name": oops}\n  ]\n}';
    const out = scanInChunks(text, [20]);
    expect(out[0]).toEqual({ value: { name: 'a' } });
    expect(out[1]).toEqual({ error: expect.stringMatching(/^invalid JSON in the value starting line 4, column 5: Unexpected token 'o'/) as unknown });
    expect(out).toHaveLength(2);
    expect(scanInChunks('[\n  {"a": 1,\n   "b": 2,}]', [])).toEqual([{ error: expect.stringMatching(/^invalid JSON at line 3, column 11: Expected double-quoted property name$/) as unknown }]);
    expect(scanInChunks('{"@graph": [1,, 2]}', [])).toEqual([{ value: 1 }, { error: 'invalid JSON at line 1, column 15: unexpected ",", expected a node' }]);
    expect(scanInChunks('[{"a": 1}', [])).toEqual([{ value: { a: 1 } }, { error: expect.stringMatching(/ends before it is closed/) as unknown }]);
    expect(scanInChunks('', [])).toEqual([{ error: 'invalid JSON at line 1, column 1: the file is empty' }]);
  });
});
