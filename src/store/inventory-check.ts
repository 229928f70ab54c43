/**
 * The one check every store runs on an inventory batch before it writes anything: each row must
 * name a Location of the current dataset. A batch applies whole or not at all, so every unknown
 * id is reported (with its line) and nothing is written.
 */
import { DataValidationError, type DataIssue } from '../errors.js';
import type { InventoryRow } from './store.js';

/** An inventory row with the internal key of the Location it names. */
export interface ResolvedInventoryRow {
  row: InventoryRow;
  key: number;
}

/**
 * Pair each row with its Location's key (`keyOf` answers from the dataset being written to), or
 * throw a DataValidationError naming every row whose Location id is unknown.
 */
export function resolveInventoryRows(
  rows: readonly InventoryRow[],
  keyOf: (locationId: string) => number | undefined,
  file: string,
): ResolvedInventoryRow[] {
  const resolved: ResolvedInventoryRow[] = [];
  const issues: DataIssue[] = [];
  for (const row of rows) {
    const key = keyOf(row.location_id);
    if (key !== undefined) resolved.push({ row, key });
    else {
      issues.push({
        file,
        line: row.line,
        field: 'location_id',
        message: `unknown Location id ${JSON.stringify(row.location_id)}; import the Location first or correct the id`,
      });
    }
  }
  if (issues.length > 0) throw new DataValidationError(issues);
  return resolved;
}
