/**
 * Rules that span records: ids are unique, an alias names exactly one location, and an alias
 * never shadows another location's id (lookup would otherwise resolve one string two ways).
 *
 * Fed one record at a time so a million-record import keeps only two string maps in memory,
 * not the records. Alias-vs-id clashes can only be judged once every id is known: `finish()`.
 */
import type { DataIssue } from '../errors.js';
import { isIdentifier, isPlainObject } from './fields.js';
import { atPosition, type SourcePosition } from './issues.js';

/** What the dataset rules look at: the id and the aliases (sparse: unusable entries are holes). */
export interface Identity {
  id?: string;
  aliases?: readonly (string | undefined)[];
}

/** The usable id and aliases of a raw record, whatever else is wrong with it. */
export function identityOf(raw: unknown): Identity {
  if (!isPlainObject(raw)) return {};
  const identity: Identity = {};
  const id = raw['id'];
  if (isIdentifier(id)) identity.id = id;
  const aliases = raw['aliases'];
  if (Array.isArray(aliases)) {
    identity.aliases = aliases.map((a: unknown) => (isIdentifier(a) && a !== identity.id ? a : undefined));
  }
  return identity;
}

interface Seen {
  pos: SourcePosition;
  /** For aliases: the location that declared it. */
  owner: string;
}

function where(pos: SourcePosition): string {
  return pos.unit === 'feature' || pos.unit === 'node' ? `${pos.file} ${pos.unit} ${pos.line}` : `${pos.file}:${pos.line}`;
}

/**
 * Positions packed into one number each (place index × 2^32 + line), places being the distinct
 * (file, unit) pairs: the checker keeps one position per id of the whole import (a million at
 * 1M Locations), and a number in a Map costs a fraction of a position object.
 */
class PackedPositions {
  readonly #places: SourcePosition[] = [];
  readonly #index = new Map<string, number>();

  pack(pos: SourcePosition): number {
    const key = `${pos.unit ?? ''}\u0000${pos.file}`;
    let place = this.#index.get(key);
    if (place === undefined) {
      place = this.#places.length;
      this.#places.push({ file: pos.file, line: 0, ...(pos.unit !== undefined ? { unit: pos.unit } : {}) });
      this.#index.set(key, place);
    }
    return place * 2 ** 32 + pos.line;
  }

  unpack(packed: number): SourcePosition {
    const place = this.#places[Math.floor(packed / 2 ** 32)];
    if (place === undefined) throw new RangeError(`no place for packed position ${packed}`);
    return { ...place, line: packed % 2 ** 32 };
  }
}

export class DatasetChecker {
  readonly #positions = new PackedPositions();
  readonly #ids = new Map<string, number>();
  readonly #aliases = new Map<string, Seen & { index: number }>();
  #records = 0;

  /** Number of records seen so far. */
  get records(): number {
    return this.#records;
  }

  /**
   * Registers a record's identity (also of records invalid for other reasons, so a duplicate is
   * reported in the same run); returns the issues it raises against those seen before it.
   */
  add(identity: Identity, pos: SourcePosition): DataIssue[] {
    this.#records += 1;
    const issues: DataIssue[] = [];
    const { id } = identity;
    if (id !== undefined) {
      const first = this.#ids.get(id);
      if (first !== undefined) {
        issues.push(atPosition(pos, { field: 'id', message: `duplicate id ${JSON.stringify(id)} (first defined at ${where(this.#positions.unpack(first))})` }));
      } else {
        this.#ids.set(id, this.#positions.pack(pos));
      }
    }
    identity.aliases?.forEach((alias, index) => {
      if (alias === undefined) return;
      const prior = this.#aliases.get(alias);
      if (prior === undefined) {
        this.#aliases.set(alias, { pos, owner: id ?? '', index });
      } else if (prior.pos !== pos) {
        // Repeats inside one record are validateRecord's to report.
        issues.push(
          atPosition(pos, {
            field: `aliases[${index}]`,
            message: `alias ${JSON.stringify(alias)} is already an alias of ${JSON.stringify(prior.owner)} (${where(prior.pos)}); an alias must name one location`,
          }),
        );
      }
    });
    return issues;
  }

  /** Aliases that equal another location's id. Call once, after the last record. */
  finish(): DataIssue[] {
    const issues: DataIssue[] = [];
    for (const [alias, seen] of this.#aliases) {
      const idPos = this.#ids.get(alias);
      // An alias equal to the owner's own id is reported per record by validateRecord.
      if (idPos === undefined || alias === seen.owner) continue;
      issues.push(
        atPosition(seen.pos, {
          field: `aliases[${seen.index}]`,
          message: `alias ${JSON.stringify(alias)} of ${JSON.stringify(seen.owner)} is the id of another location (${where(this.#positions.unpack(idPos))}); ids and aliases share one namespace`,
        }),
      );
    }
    return issues;
  }
}
