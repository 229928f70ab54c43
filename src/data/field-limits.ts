/**
 * Size limits on what one import record may hold, checked before anything else reads it: a
 * record is one Location, and no Location needs a 50 MB name. Without them a single hostile
 * record costs minutes of validation and indexing and as much memory as it likes.
 */
import { isPlainObject } from './fields.js';
import type { FieldIssue } from './issues.js';

/** Longest text accepted in any one field of a record, in characters. */
export const MAX_FIELD_CHARS = 4_096;

/** Largest record accepted, in bytes of its source line (NDJSON) or feature. */
export const MAX_RECORD_BYTES = 1024 * 1024;

/** Issues listed per record at most: one is enough to act on, a few show a pattern. */
const MAX_LISTED = 5;

/**
 * Whether any string or member name in `value` is longer than `MAX_FIELD_CHARS`. The common case
 * (nothing is) costs no path strings: every record of an import goes through here.
 */
function anyOversized(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (v.length > MAX_FIELD_CHARS) return true;
    } else if (Array.isArray(v)) {
      for (const item of v) stack.push(item);
    } else if (isPlainObject(v)) {
      for (const key of Object.keys(v)) {
        if (key.length > MAX_FIELD_CHARS) return true;
        stack.push(v[key]);
      }
    }
  }
  return false;
}

/**
 * An issue for each string longer than `MAX_FIELD_CHARS` anywhere in `record` (member names
 * included), named by its path (`address.street_address`, `aliases[3]`). Walks without recursion.
 */
export function oversizedFields(record: unknown): FieldIssue[] {
  if (!anyOversized(record)) return [];
  const issues: FieldIssue[] = [];
  const stack: { value: unknown; path: string }[] = [{ value: record, path: '' }];
  while (stack.length > 0 && issues.length < MAX_LISTED) {
    const next = stack.pop();
    if (next === undefined) break;
    const { value, path } = next;
    if (typeof value === 'string') {
      if (value.length > MAX_FIELD_CHARS) issues.push({ field: path, message: tooLong(value.length) });
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => stack.push({ value: item, path: `${path}[${i}]` }));
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        const at = path === '' ? key : `${path}.${key}`;
        if (key.length > MAX_FIELD_CHARS) {
          issues.push({ field: path, message: `has a member name of ${key.length} characters; the limit is ${MAX_FIELD_CHARS}` });
        } else {
          stack.push({ value: item, path: at });
        }
      }
    }
  }
  return issues;
}

function tooLong(length: number): string {
  return `is ${length} characters long; the limit is ${MAX_FIELD_CHARS} characters per field (shorten it, or move long text elsewhere)`;
}
