import type { Location, RecordLanguages } from '../domain/location.js';
import type { StoredLocation } from './store.js';

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

/** Rows of every Location and its aliases → `StoredLocation`s sorted by id, aliases sorted (the port's `storedLocations`). */
export function storedLocationsOf(
  rows: readonly { id: string; public: boolean; doc: string | null }[],
  aliases: readonly { id: string; alias: string }[],
): StoredLocation[] {
  const byId = new Map<string, string[]>();
  for (const { id, alias } of aliases) {
    const list = byId.get(id);
    if (list === undefined) byId.set(id, [alias]);
    else list.push(alias);
  }
  return rows
    .map((r) => ({ id: r.id, public: r.public, doc: r.doc, aliases: (byId.get(r.id) ?? []).sort() }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** `getLanguages` rows (key, RecordLanguages JSON) as the map the port returns. */
export function languagesByKey(rows: readonly { key: number | string; json: string }[]): Map<number, RecordLanguages> {
  const out = new Map<number, RecordLanguages>();
  for (const r of rows) out.set(Number(r.key), JSON.parse(r.json) as RecordLanguages);
  return out;
}
