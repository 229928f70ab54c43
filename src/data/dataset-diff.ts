/**
 * What an import would change (import --dry-run): the new records against the Locations a store
 * holds now, by id. It compares what the store keeps in a comparable form — presence, visibility,
 * the public Location (name, address, geo, amenities, hours, exception_hours, timezone) and
 * aliases. Keywords, coverage and items are kept only in derived form (search text, index rows,
 * availability that the inventory feed changes), language and translations beside the document,
 * and private Locations keep no document, so those are not compared; the report says so.
 */
import { toPublicLocation, type LocationRecord } from '../domain/location.js';
import type { StoredLocation } from '../store/store.js';
import { isPlainObject } from './fields.js';

export interface LocationChange {
  id: string;
  /** Top-level fields that differ, in record order (`name`, `hours`, `aliases`, `visibility`, …). */
  fields: string[];
}

export interface DatasetDiff {
  /** Ids in the files and not in the store, sorted. */
  added: string[];
  /** Ids in the store and not in the files, sorted. */
  removed: string[];
  /** Sorted by id. */
  changed: LocationChange[];
  unchanged: number;
  /** What the comparison cannot see, for the reader of the report. */
  notCompared: string;
}

export const NOT_COMPARED =
  'keywords, serves, items, language and localized (the store keeps them only in derived or separate form), and the fields of private Locations other than visibility';

const PUBLIC_FIELDS = ['name', 'address', 'geo', 'amenities', 'hours', 'exception_hours', 'timezone'] as const;

/** JSON with object keys sorted: equal content gives equal text whatever order a file used. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isPlainObject(value)) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function changedFields(record: LocationRecord, stored: StoredLocation): string[] {
  const isPublic = record.visibility !== 'private';
  if (isPublic !== stored.public) return ['visibility'];
  if (!isPublic || stored.doc === null) return [];
  const parsed: unknown = JSON.parse(stored.doc);
  // The store writes each document as a JSON object; anything else compares as empty.
  const before: Record<string, unknown> = isPlainObject(parsed) ? parsed : {};
  const after = toPublicLocation(record);
  const fields: string[] = PUBLIC_FIELDS.filter((f) => canonical(before[f]) !== canonical(after[f]));
  const aliases = [...new Set((record.aliases ?? []).filter((a) => a !== record.id))].sort();
  if (canonical(aliases) !== canonical(stored.aliases)) fields.push('aliases');
  return fields;
}

const byId = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export async function diffDataset(current: readonly StoredLocation[], next: AsyncIterable<readonly LocationRecord[]>): Promise<DatasetDiff> {
  const remaining = new Map(current.map((s) => [s.id, s]));
  const added: string[] = [];
  const changed: LocationChange[] = [];
  let unchanged = 0;
  for await (const batch of next) {
    for (const record of batch) {
      const stored = remaining.get(record.id);
      if (stored === undefined) {
        added.push(record.id);
        continue;
      }
      remaining.delete(record.id);
      const fields = changedFields(record, stored);
      if (fields.length > 0) changed.push({ id: record.id, fields });
      else unchanged += 1;
    }
  }
  return {
    added: added.sort(byId),
    removed: [...remaining.keys()].sort(byId),
    changed: changed.sort((a, b) => byId(a.id, b.id)),
    unchanged,
    notCompared: NOT_COMPARED,
  };
}
