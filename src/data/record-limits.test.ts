/**
 * Issue 37 N8: one huge record cannot cost minutes. Lines are split in linear time, a line over the
 * record size limit is reported (and never held whole), and a field over the length limit is an
 * issue naming it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useScratchDir } from '../../test/support/scratch.js';
import { MAX_FIELD_CHARS, MAX_RECORD_BYTES } from './field-limits.js';
import { LineSplitter, readNdjson } from './ndjson.js';
import { validateRecord } from './validate-record.js';

const scratch = useScratchDir('ucp-record-limits');

afterEach(() => vi.restoreAllMocks());

describe('NDJSON line splitting is linear (issue 37 N8)', () => {
  it('a 19 MB line in 64 KiB chunks is copied once, not once per chunk', () => {
    const concat = vi.spyOn(Buffer, 'concat');
    const splitter = new LineSplitter();
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    for (let i = 0; i < 300; i += 1) expect(splitter.push(chunk)).toEqual([]);
    const [line] = splitter.push(Buffer.from('\n'));
    expect(typeof line === 'string' ? line.length : line).toBe(300 * 64 * 1024);
    const copied = concat.mock.calls.reduce((sum, [list]) => sum + list.reduce((n, b) => n + b.length, 0), 0);
    expect(copied).toBeLessThanOrEqual(300 * 64 * 1024);
  });

  it('a line over the limit is reported by its size, without holding it, and the next line still reads', () => {
    const splitter = new LineSplitter(1_000);
    const out = [...splitter.push(Buffer.alloc(600, 0x61)), ...splitter.push(Buffer.alloc(600, 0x61)), ...splitter.push(Buffer.from('\n{}\n'))];
    expect(out).toEqual([{ overlong: true, bytes: 1_200 }, '{}']);
  });

  it('readNdjson names the line of an oversized record and the limit, and reads the others', async () => {
    const file = join(scratch(), 'big.ndjson');
    writeFileSync(file, `{"id":"a"}\n{"id":"b","name":"${'x'.repeat(MAX_RECORD_BYTES + 10)}"}\n{"id":"c"}\n`);
    const entries = [];
    for await (const entry of readNdjson(file)) entries.push(entry);
    expect(entries).toHaveLength(3);
    expect(entries[0]).toEqual({ line: 1, value: { id: 'a' } });
    expect(entries[1]).toMatchObject({ line: 2, issue: { message: expect.stringContaining(`the limit is ${MAX_RECORD_BYTES} bytes per line`) as string } });
    expect(entries[2]).toEqual({ line: 3, value: { id: 'c' } });
  });
});

describe('record field length limits (issue 37 N8)', () => {
  it('a field longer than the limit is an issue naming the field and the limit', () => {
    const raw = {
      id: 'loc_1',
      name: 'n'.repeat(MAX_FIELD_CHARS + 1),
      address: { street_address: 's'.repeat(50_000), address_country: 'US' },
      aliases: ['ok', 'a'.repeat(MAX_FIELD_CHARS + 5)],
    };
    const issues = validateRecord(raw, { file: 'f.ndjson', line: 1 }).issues;
    expect(issues.map((i) => i.field).sort()).toEqual(['address.street_address', 'aliases[1]', 'name']);
    expect(issues.find((i) => i.field === 'name')?.message).toContain(`the limit is ${MAX_FIELD_CHARS} characters per field`);
  });

  it('a field at the limit is accepted', () => {
    const raw = { id: 'loc_1', name: 'n'.repeat(MAX_FIELD_CHARS) };
    expect(validateRecord(raw, { file: 'f.ndjson', line: 1 }).issues).toEqual([]);
  });
});
