import { describe, expect, it } from 'vitest';
import { importRecordJson, parseImportRecord } from './import-notes.js';

describe('the stored last-import record', () => {
  const result = { locations: 3, publicLocations: 2, availability: 0, generation: 4 };
  const notes = {
    at: '2026-12-03T14:35:00.000Z',
    files: [{ file: 'a.csv', format: 'csv', records: 3 }],
    warnings: [{ file: 'a.csv', line: 2, field: 'hours', message: 'dropped' }],
    warningCount: 1,
  };
  it('reads back what was written, and an import without notes as one with none', () => {
    expect(parseImportRecord(importRecordJson(result, notes))).toEqual({ ...notes, ...result });
    expect(parseImportRecord(importRecordJson(result, undefined, Date.parse(notes.at)))).toEqual({
      ...result,
      at: notes.at,
      files: [],
      warnings: [],
      warningCount: 0,
    });
  });
  it('reads a row of another shape as no record, never as wrong numbers', () => {
    expect(parseImportRecord('not json')).toBeNull();
    expect(parseImportRecord('[]')).toBeNull();
    expect(parseImportRecord(JSON.stringify({ ...notes, ...result, generation: -1 }))).toBeNull();
    expect(parseImportRecord(JSON.stringify({ ...notes, ...result, warnings: [{ file: 'a.csv' }] }))).toBeNull();
  });
});
