import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useScratchDir } from '../../test/support/scratch.js';
import { CsvParser, csvRow, parseCsv, readCsv, type CsvEntry } from './csv.js';

function parseInChunks(text: string, cuts: number[]): CsvEntry[] {
  const parser = new CsvParser();
  const out: CsvEntry[] = [];
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    parser.feed(text.slice(from, cut), out);
    from = cut;
  }
  parser.feed(text.slice(from), out);
  parser.end(out);
  return out;
}

const scratch = useScratchDir('ucp-csv');

describe('CSV reader (RFC 4180)', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, reporting the line each record starts on', () => {
    const text = 'id,name\r\nloc_1,"Store, ""The"" One"\r\nloc_2,"two\nlines"\nloc_3,plain\n';
    expect(parseCsv(text)).toEqual([
      { line: 1, fields: ['id', 'name'] },
      { line: 2, fields: ['loc_1', 'Store, "The" One'] },
      { line: 3, fields: ['loc_2', 'two\nlines'] },
      { line: 5, fields: ['loc_3', 'plain'] },
    ]);
  });

  it('skips blank lines, strips a BOM, keeps empty trailing fields and accepts a missing final newline', () => {
    expect(parseCsv('\uFEFFa,b,\n\n\nc,,d')).toEqual([
      { line: 1, fields: ['a', 'b', ''] },
      { line: 4, fields: ['c', '', 'd'] },
    ]);
  });

  it('rejects a quote inside an unquoted field with its line, then resynchronises on the next line', () => {
    expect(parseCsv('a,b\nx,ab"c\ny,z\n')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, error: expect.stringContaining('double quote inside an unquoted field') as unknown },
      { line: 3, fields: ['y', 'z'] },
    ]);
  });

  it('rejects text after a closing quote and an unterminated quoted field', () => {
    const entries = parseCsv('a\n"x"y\n"never closed\nmore');
    expect(entries[1]).toEqual({ line: 2, error: expect.stringContaining('after a closing quote') as unknown });
    expect(entries[2]).toEqual({ line: 3, error: expect.stringContaining('never closed') as unknown });
  });

  it('parses the same records however the input is split into chunks (property)', () => {
    const field = fc.string({ unit: fc.constantFrom('a', 'b', ',', '"', '\n', '\r', ' ', 'é', '😀'), maxLength: 8 });
    // A row that is a single empty field is a blank line by definition, so rows have ≥ 2 fields.
    const rows = fc.array(fc.array(field, { minLength: 2, maxLength: 4 }), { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(rows, fc.array(fc.nat(), { maxLength: 5 }), fc.constantFrom('\n', '\r\n'), (rs, rawCuts, eol) => {
        const text = rs.map(csvRow).join(eol) + eol;
        const cuts = rawCuts.map((c) => c % (text.length + 1));
        const parsed = parseInChunks(text, cuts);
        expect(parsed.map((e) => ('fields' in e ? e.fields : e.error))).toEqual(rs);
        // Line numbers count physical lines, including breaks inside quoted fields.
        let line = 1;
        rs.forEach((r, i) => {
          expect(parsed[i]?.line).toBe(line);
          line += r.join(',').split(/\r\n|\r|\n/).length;
        });
      }),
      { numRuns: 300 },
    );
  });

  it('streams a file chunk by chunk', async () => {
    const path = join(scratch(), 'big.csv');
    const rows = Array.from({ length: 20_000 }, (_, i) => csvRow([`loc_${i}`, `Store "${i}", main street`]));
    writeFileSync(path, `id,name\n${rows.join('\n')}\n`);
    let count = 0;
    let last: CsvEntry | undefined;
    for await (const e of readCsv(path)) {
      count += 1;
      last = e;
    }
    expect(count).toBe(20_001);
    expect(last).toEqual({ line: 20_001, fields: ['loc_19999', 'Store "19999", main street'] });
  });
});
