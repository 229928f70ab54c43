import { describe, expect, it } from 'vitest';
import { causeMessage, StoreError, type StoreErrorCode } from './errors.js';

describe('StoreError', () => {
  it('is transient (worth a retry, 503 on the wire) exactly when the database is unavailable', () => {
    // A Record, so a new code fails to compile here until it is listed.
    const every: Record<StoreErrorCode, null> = {
      unavailable: null,
      open_failed: null,
      schema_outdated: null,
      schema_too_new: null,
      migration_failed: null,
      read_only: null,
      closed: null,
      query_failed: null,
      write_failed: null,
    };
    const codes = Object.keys(every) as StoreErrorCode[];
    expect(codes.filter((code) => new StoreError(code, 'x').transient)).toEqual(['unavailable']);
  });

  it('keeps its code, message and cause', () => {
    const cause = new Error('disk I/O error');
    const error = new StoreError('write_failed', 'Import failed', { cause });
    expect(error).toMatchObject({ name: 'StoreError', code: 'write_failed', message: 'Import failed', cause });
  });
});

describe('causeMessage', () => {
  it('reads the message of an Error and stringifies anything else thrown', () => {
    expect(causeMessage(new TypeError('bad'))).toBe('bad');
    expect(causeMessage('plain string')).toBe('plain string');
    expect(causeMessage(42)).toBe('42');
  });
});
