/**
 * The parts of the `import`/`validate` reports that the onboarding formats added: options shared
 * by both verbs (source settings, --strict, --derive-timezone), derived time zones, warnings, and
 * the --dry-run diff. Human text here; --json carries the same data whole.
 */
import type { Command } from 'commander';
import { formatDataIssue } from '../../errors.js';
import type { DatasetDiff, ImportOptions, ValidationReport } from '../../data/import.js';
import { AMENITY_NAMESPACE_FLAG, parseAmenityNamespace } from '../../data/amenity-namespace.js';
import { loadAmenityMap } from '../../data/osm-amenities.js';
import { ConfigError } from '../../errors.js';

/** Lines of each list printed in human output; --json carries them all. */
const SHOWN = 50;

export interface SourceFlags {
  strict?: boolean;
  deriveTimezone?: boolean;
  idTag?: string;
  amenityMap?: string;
  amenityNamespace?: string;
  holidayHorizon?: string;
}

export function addSourceOptions(cmd: Command): Command {
  return cmd
    .option(
      '--strict',
      'treat warnings (source data a Location cannot hold, e.g. opening_hours or holiday rules UCP cannot state, a doubtful derived time zone) as errors: nothing is imported',
    )
    .option('--derive-timezone', 'fill in a missing timezone from geo (always on for osm, jsonld and gbp)')
    .option('--id-tag <tag>', 'osm: the tag whose value is the Location id, e.g. ref:store (default: the OSM element id, osm-node-123)')
    .option(
      `${AMENITY_NAMESPACE_FLAG} <reverse-domain>`,
      'osm, jsonld: name features UCP does not define <reverse-domain>.amenity.<feature>, e.g. com.example (default: org.openstreetmap, org.schema)',
    )
    .option('--amenity-map <file>', 'osm: JSON {"tag=value": {"id": …, "description": …} | null} added to the tag → amenity table')
    .option('--holiday-horizon <days>', 'osm: days ahead written as exception_hours for public holidays and dated rules (default 365)');
}

/** The ImportOptions the source flags stand for (reads the amenity map file). */
export async function sourceImportOptions(flags: SourceFlags): Promise<ImportOptions> {
  const out: ImportOptions = {};
  if (flags.strict === true) out.strict = true;
  if (flags.deriveTimezone === true) out.deriveTimezone = true;
  if (flags.idTag !== undefined) out.idTag = flags.idTag;
  if (flags.amenityNamespace !== undefined) out.amenityNamespace = parseAmenityNamespace(flags.amenityNamespace);
  if (flags.amenityMap !== undefined) out.amenityMap = await loadAmenityMap(flags.amenityMap, out.amenityNamespace);
  if (flags.holidayHorizon !== undefined) {
    if (!/^\d+$/.test(flags.holidayHorizon))
      throw new ConfigError(`--holiday-horizon must be a whole number of days, got ${JSON.stringify(flags.holidayHorizon)}`);
    out.holidayHorizonDays = Number(flags.holidayHorizon);
  }
  return out;
}

function print(text: string): void {
  process.stdout.write(`${text}\n`);
}

/** Derived zones and warnings, after the success line of `import` or `validate`. */
export function printNotes(report: Pick<ValidationReport, 'timezones' | 'warnings' | 'warningCount'>): void {
  if (report.timezones.length > 0) {
    const zones = report.timezones.map((z) => `${z.timezone} (${z.records.toLocaleString('en-US')})`);
    print(
      `Time zones derived from coordinates: ${zones.slice(0, SHOWN).join(', ')}${zones.length > SHOWN ? `, … ${zones.length - SHOWN} more` : ''}`,
    );
  }
  if (report.warningCount > 0) {
    print(`${report.warningCount} warning(s) (imported anyway; --strict makes them errors):`);
    for (const w of report.warnings.slice(0, SHOWN)) print(`  ${formatDataIssue(w)}`);
    if (report.warningCount > SHOWN) print(`  … and ${report.warningCount - SHOWN} more (use --json for the full list)`);
  }
}

function list(marker: string, lines: readonly string[]): void {
  for (const line of lines.slice(0, SHOWN)) print(`  ${marker} ${line}`);
  if (lines.length > SHOWN) print(`  … and ${lines.length - SHOWN} more (use --json for the full list)`);
}

export function printDiff(diff: DatasetDiff, target: string): void {
  print(
    `Dry run, nothing written to ${target}: ${diff.added.length.toLocaleString('en-US')} added, ${diff.removed.length.toLocaleString('en-US')} removed, ${diff.changed.length.toLocaleString('en-US')} changed, ${diff.unchanged.toLocaleString('en-US')} unchanged`,
  );
  list('+', diff.added);
  list('-', diff.removed);
  list(
    '~',
    diff.changed.map((c) => `${c.id}: ${c.fields.join(', ')}`),
  );
  print(`  (not compared: ${diff.notCompared})`);
}
