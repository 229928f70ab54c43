import { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import { StringDecoder } from 'node:string_decoder';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineSplitter } from './ndjson.js';

/**
 * The reader this splitter replaced: a utf8 read stream (a StringDecoder, flushed at the end)
 * into node:readline with crlfDelay: Infinity.
 */
async function readlineLines(chunks: readonly Buffer[]): Promise<string[]> {
  const lines: string[] = [];
  const decoder = new StringDecoder('utf8');
  const text = [...chunks.map((c) => decoder.write(c)), decoder.end()].filter((t) => t.length > 0);
  const rl = createInterface({ input: Readable.from(text), crlfDelay: Infinity });
  for await (const line of rl) lines.push(line);
  return lines;
}

function splitterLines(chunks: readonly Buffer[]): unknown[] {
  const s = new LineSplitter();
  return [...chunks.flatMap((c) => s.push(c)), ...s.end()];
}

const b = (...parts: string[]): Buffer[] => parts.map((p) => Buffer.from(p));

/** Cuts `bytes` at the given offsets (also inside multi-byte characters). */
function cut(bytes: Buffer, offsets: readonly number[]): Buffer[] {
  const at = [...new Set(offsets.map((o) => o % (bytes.length + 1)))].sort((x, y) => x - y);
  const out: Buffer[] = [];
  let prev = 0;
  for (const o of at) {
    out.push(bytes.subarray(prev, o));
    prev = o;
  }
  out.push(bytes.subarray(prev));
  return out.filter((c) => c.length > 0);
}

describe('LineSplitter', () => {
  it('ends lines at \\n, \\r\\n and a lone \\r and decodes them like readline, however the bytes are chunked (property)', async () => {
    // Text pieces and raw bytes, including broken UTF-8 (a lead byte without its continuation).
    const piece = fc.oneof(
      fc.constantFrom('a', 'b', ' ', '{}', '\n', '\r', '\r\n', 'é', 'Łódź', '中', '\uFEFF', '😀').map((p) => Buffer.from(p)),
      fc.constantFrom(Buffer.from([0xe2]), Buffer.from([0xe2, 0x82]), Buffer.from([0xff]), Buffer.from([0x80])),
    );
    const bytes = fc.array(piece, { maxLength: 40 }).map((p) => Buffer.concat(p));
    await fc.assert(
      fc.asyncProperty(bytes, fc.array(fc.nat(), { maxLength: 6 }), async (t, offsets) => {
        const chunks = cut(t, offsets);
        expect(splitterLines(chunks)).toEqual(await readlineLines(chunks));
      }),
      { numRuns: 500 },
    );
  });

  it('joins a \\r\\n split across two chunks into one line break', () => {
    expect(splitterLines(b('a\r', '\nb'))).toEqual(['a', 'b']);
    expect(splitterLines(b('a\r', '', '\nb'))).toEqual(['a', 'b']);
    expect(splitterLines(b('a\r', 'b'))).toEqual(['a', 'b']);
  });

  it('keeps a last line without a line break, and no phantom line after a final break', () => {
    expect(splitterLines(b('x\ny'))).toEqual(['x', 'y']);
    expect(splitterLines(b('x\n'))).toEqual(['x']);
    expect(splitterLines(b('x\n\n'))).toEqual(['x', '']);
  });

  it('decodes each line on its own: a Latin-1 line stays one byte per character beside other scripts', () => {
    const lines = splitterLines(b('{"name":"Café"}\n{"name":"中"}\n'));
    expect(lines).toEqual(['{"name":"Café"}', '{"name":"中"}']);
  });
});
