import { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineSplitter } from './ndjson.js';

/** Lines as node:readline (crlfDelay: Infinity) emits them for the same chunks. */
async function readlineLines(chunks: readonly string[]): Promise<string[]> {
  const lines: string[] = [];
  const rl = createInterface({ input: Readable.from(chunks), crlfDelay: Infinity });
  for await (const line of rl) lines.push(line);
  return lines;
}

function splitterLines(chunks: readonly string[]): string[] {
  const s = new LineSplitter();
  return [...chunks.flatMap((c) => s.push(c)), ...s.end()];
}

/** Cuts `text` at the given (sorted, deduplicated) offsets. */
function cut(text: string, offsets: readonly number[]): string[] {
  const at = [...new Set(offsets.map((o) => o % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let prev = 0;
  for (const o of at) {
    out.push(text.slice(prev, o));
    prev = o;
  }
  out.push(text.slice(prev));
  return out.filter((c) => c.length > 0);
}

describe('LineSplitter', () => {
  it('ends lines at \\n, \\r\\n and a lone \\r, like readline, however the text is chunked (property)', async () => {
    const text = fc.array(fc.constantFrom('a', 'b', ' ', '{}', '\n', '\r', '\r\n', 'é', '\uFEFF'), { maxLength: 40 }).map((p) => p.join(''));
    await fc.assert(
      fc.asyncProperty(text, fc.array(fc.nat(), { maxLength: 6 }), async (t, offsets) => {
        const chunks = cut(t, offsets);
        expect(splitterLines(chunks)).toEqual(await readlineLines(chunks));
      }),
      { numRuns: 400 },
    );
  });

  it('joins a \\r\\n split across two chunks into one line break', () => {
    expect(splitterLines(['a\r', '\nb'])).toEqual(['a', 'b']);
    expect(splitterLines(['a\r', '', '\nb'])).toEqual(['a', 'b']);
    expect(splitterLines(['a\r', 'b'])).toEqual(['a', 'b']);
  });

  it('keeps a last line without a line break, and no phantom line after a final break', () => {
    expect(splitterLines(['x\ny'])).toEqual(['x', 'y']);
    expect(splitterLines(['x\n'])).toEqual(['x']);
    expect(splitterLines(['x\n\n'])).toEqual(['x', '']);
  });
});
