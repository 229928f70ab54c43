/**
 * The notes the CLI prints after `import`/`validate` (derived time zones, warnings imported
 * anyway), said for the console, plus one the console needs more than the CLI: a file read in the
 * wrong format (an OpenStreetMap export read as plain GeoJSON, a JSON-LD page read as NDJSON, a
 * Business Profile sheet read as our CSV) fails on every record with "unknown field"; the fields
 * it has name the format it is in.
 */
import type { DataIssue } from '../errors.js';
import type { ValidationReport } from '../data/import.js';
import type { DataFormat } from '../data/sources.js';

const FORMAT_NAMES: Readonly<Record<DataFormat, string>> = {
  ndjson: 'NDJSON (ndjson)',
  geojson: 'GeoJSON (geojson)',
  csv: 'CSV (csv)',
  osm: 'OpenStreetMap GeoJSON (osm)',
  jsonld: 'schema.org JSON-LD (jsonld)',
  gbp: 'Google Business Profile sheet (gbp)',
};

export function formatName(f: DataFormat): string {
  return FORMAT_NAMES[f];
}

/** Field names typical of each other format, as they show up in "unknown field" issues. */
const TELLTALES: readonly [DataFormat, RegExp][] = [
  ['osm', /^(opening_hours|amenity|shop|brand|brand:wikidata|operator|addr:.+|contact:.+|@id|wheelchair|check_date.*)$/],
  ['jsonld', /^(@context|@type|@graph|@id|openingHoursSpecification|geo\.latitude|address\.streetAddress)$/],
  ['gbp', /^(Store code|Business name|Primary category|Address line 1|Sunday hours|Monday hours|Latitude|Longitude)$/i],
];

/** The field an "unknown field" issue names, or null for any other issue. */
function unknownField(issue: DataIssue): string | null {
  const m = /^unknown (?:field|column) "([^"]+)"/.exec(issue.message);
  return m?.[1] ?? issue.field.split('.').pop() ?? null;
}

/** A format the issues suggest instead of `format`, when most of them are unknown fields typical of it. */
export function betterFormat(format: DataFormat, issues: readonly DataIssue[]): DataFormat | null {
  const unknown = issues.filter((i) => /^unknown (field|column)/.test(i.message));
  if (unknown.length === 0 || unknown.length * 2 < issues.length) return null;
  for (const [candidate, telltale] of TELLTALES) {
    if (candidate === format) continue;
    if (unknown.some((i) => telltale.test(unknownField(i) ?? ''))) return candidate;
  }
  return null;
}

export function importHints(
  format: DataFormat | null,
  fromExtension: boolean,
  issues: readonly DataIssue[],
  report: Pick<ValidationReport, 'timezones' | 'warningCount'>,
): string[] {
  const hints: string[] = [];
  const better = format === null ? null : betterFormat(format, issues);
  if (format !== null && better !== null) {
    hints.push(
      `Most problems are fields this format does not have, and they look like ${formatName(better)}: choose that format and preview again${fromExtension ? ` (the file name alone made it ${formatName(format)})` : ''}. On the command line: \`ucp-location import <file> --format ${better}\`.`,
    );
  }
  if (report.timezones.length > 0) {
    const zones = report.timezones.map((z) => `${z.timezone} (${z.records.toLocaleString('en-US')})`).join(', ');
    hints.push(`Time zones derived from coordinates: ${zones}.`);
  }
  if (report.warningCount > 0) {
    hints.push(
      `${report.warningCount.toLocaleString('en-US')} warning(s): source data a Location cannot hold. They do not stop the import; the overview keeps them after it. (\`ucp-location import --strict\` treats them as errors.)`,
    );
  }
  return hints;
}
