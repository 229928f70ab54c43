import type { Location, RecordLanguages } from '../domain/location.js';

/**
 * Public Location documents (stored as JSON text) in the order of `keys`, skipping keys that have no
 * row — the `getLocations` contract shared by every store, whatever order its query returns rows in.
 */
export function documentsInKeyOrder(keys: readonly number[], rows: readonly { key: number; doc: string }[]): Location[] {
  const byKey = new Map<number, string>();
  for (const r of rows) byKey.set(r.key, r.doc);
  const out: Location[] = [];
  for (const k of keys) {
    const doc = byKey.get(k);
    if (doc !== undefined) out.push(JSON.parse(doc) as Location);
  }
  return out;
}

/** `getLanguages` rows (key, RecordLanguages JSON) as the map the port returns. */
export function languagesByKey(rows: readonly { key: number | string; json: string }[]): Map<number, RecordLanguages> {
  const out = new Map<number, RecordLanguages>();
  for (const r of rows) out.set(Number(r.key), JSON.parse(r.json) as RecordLanguages);
  return out;
}
