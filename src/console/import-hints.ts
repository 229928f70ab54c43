/**
 * The notes the CLI prints after `import`/`validate` (derived time zones, warnings imported
 * anyway), said for the console, plus one the console needs more than the CLI: a file read in the
 * wrong format (an OpenStreetMap export read as plain GeoJSON, a JSON-LD page read as NDJSON, a
 * Business Profile sheet read as our CSV) fails on every record with "unknown field"; the start of
 * the file names the format it is in.
 */
import { formatHintOf } from '../data/format-hint.js';
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

/**
 * The notes for one previewed file. `sample` is the start of the file: a rejected file that looks
 * like another format (the same detector `validate`/`import` use, data/format-hint.ts) gets a hint
 * naming it.
 */
export function importHints(
  format: DataFormat | null,
  fromExtension: boolean,
  sample: string,
  report: Pick<ValidationReport, 'ok' | 'timezones' | 'warningCount'>,
): string[] {
  const hints: string[] = [];
  const better = format === null || report.ok ? undefined : formatHintOf(sample, format)?.format;
  if (format !== null && better !== undefined) {
    hints.push(
      `This file looks like ${formatName(better)}: choose that format and preview again${fromExtension ? ` (the file name alone made it ${formatName(format)})` : ''}. On the command line: \`ucp-location import <file> --format ${better}\`.`,
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
