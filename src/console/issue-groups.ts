/**
 * Import problems and warnings as an operator reads them: each distinct problem once, with how
 * often and where it occurs, instead of one row per record. The list of allowed fields that an
 * "unknown field" message carries is said once for the whole report, not in every row.
 */
import { formatDataIssue, type DataIssue } from '../errors.js';

export interface IssueGroup {
  field: string;
  /** The message without the list of allowed fields. */
  message: string;
  count: number;
  /** Where it occurs ("stores.csv:2", "stores.geojson feature 3"), the first few. */
  places: string[];
  /** The first occurrence exactly as the CLI prints it. */
  example: string;
}

export interface GroupedIssues {
  groups: IssueGroup[];
  /** The fields the format allows, when any message listed them (said once here). */
  allowedFields: string | null;
}

/** Places listed per group; the count says how many there are in all. */
const PLACES_SHOWN = 5;
/** Groups returned; a report with more distinct problems says how many were left out. */
export const MAX_GROUPS = 200;

const ALLOWED = /;\s*allowed fields: (.+)$/;

function placeOf(i: DataIssue): string {
  if (i.unit === 'feature') return `${i.file} feature ${i.line}`;
  if (i.unit === 'node') return `${i.file} node ${i.line}`;
  return i.line > 0 ? `${i.file}:${i.line}` : i.file;
}

/**
 * Groups issues by field and message. An unknown field's record position is part of the place,
 * not of the group, so 300 records with the same stray field make one row.
 */
export function groupIssues(issues: readonly DataIssue[]): GroupedIssues {
  const groups = new Map<string, IssueGroup>();
  let allowedFields: string | null = null;
  for (const issue of issues) {
    const allowed = ALLOWED.exec(issue.message);
    if (allowed?.[1] !== undefined) allowedFields ??= allowed[1];
    const message = allowed === null ? issue.message : issue.message.slice(0, allowed.index);
    const key = `${issue.field}\u0000${message}`;
    let g = groups.get(key);
    if (g === undefined) {
      if (groups.size >= MAX_GROUPS) continue;
      g = { field: issue.field, message, count: 0, places: [], example: formatDataIssue(issue) };
      groups.set(key, g);
    }
    g.count += 1;
    if (g.places.length < PLACES_SHOWN) g.places.push(placeOf(issue));
  }
  return { groups: [...groups.values()], allowedFields };
}
