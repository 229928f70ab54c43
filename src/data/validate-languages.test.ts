/**
 * `language` and `localized` on import (R-C3): each format carries them, each problem is reported
 * with file, position and field (the CSV column for CSV), and valid translations round-trip
 * through the GeoJSON and CSV writers.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScratchDir } from '../../test/support/scratch.js';
import type { LocationRecord } from '../domain/location.js';
import { toCsv, toGeoJSON } from './export.js';
import { readRecords, validateFiles } from './import.js';
import { validateRecord } from './validate-record.js';

const scratch = useScratchDir('ucp-languages');
/** A file in this run's scratch directory; every test below uses its own names. */
const file = (name: string, content: string): string => {
  const path = join(scratch(), name);
  writeFileSync(path, content);
  return path;
};

const BERLIN: LocationRecord = {
  id: 'loc_berlin',
  name: 'Markt Mitte',
  amenities: { 'dev.ucp.amenity.wi_fi': { description: 'Kostenloses WLAN' } },
  timezone: 'Europe/Berlin',
  exception_hours: [
    { title: 'Weihnachten', valid_from: '2026-12-25', valid_through: '2026-12-26' },
    { valid_from: '2027-01-02', valid_through: '2027-01-02' },
  ],
  language: 'de',
  localized: {
    en: { name: 'Market Mitte', amenities: { 'dev.ucp.amenity.wi_fi': { description: 'Free Wi-Fi' } }, exception_hours: { '2026-12-25': { title: 'Christmas' } } },
    'fr-CA': { amenities: { 'dev.ucp.amenity.wi_fi': { description: 'Wi-Fi gratuit | sans fil' } } },
  },
};

const pos = { file: 'stores.ndjson', line: 3 };
const issuesOf = (raw: unknown): string[] => validateRecord(raw, pos).issues.map((i) => `${i.field}: ${i.message}`);

describe('record language and translations (R-C3)', () => {
  it('accepts a valid record and stores tags in canonical form', () => {
    const raw = { ...BERLIN, language: 'DE', localized: { 'EN-gb': { name: 'Market Mitte' } } };
    const checked = validateRecord(raw, pos);
    expect(checked.issues).toEqual([]);
    expect(checked.record).toMatchObject({ language: 'de', localized: { 'en-GB': { name: 'Market Mitte' } } });
  });

  it('refuses ill-formed tags, unknown amenities and exception dates, and misplaced strings, each by field', () => {
    expect(issuesOf({ ...BERLIN, language: 'de_DE' })).toEqual([expect.stringMatching(/^language: "de_DE" is not a well-formed BCP 47.*"de-DE"/)]);
    expect(
      issuesOf({
        ...BERLIN,
        localized: {
          en_GB: { name: 'x' },
          en: { amenities: { 'dev.ucp.amenity.parking': { description: 'Parking' } } },
          EN: { name: 'again' },
          de: { name: 'Markt' },
          fr: { exception_hours: { '2026-12-24': { title: 'Réveillon' }, '2027-01-02': { title: 'Fermé' }, tomorrow: { title: 'x' } } },
          ja: { nmae: '名前' },
          es: {},
          it: { name: '', amenities: { 'dev.ucp.amenity.wi_fi': { description: 'Wi-Fi', label: 'x' } } },
        },
      }),
    ).toEqual([
      expect.stringMatching(/^localized\.en_GB: "en_GB" is not a well-formed BCP 47/),
      expect.stringMatching(/^localized\.en\.amenities\.dev\.ucp\.amenity\.parking: the record has no amenity "dev\.ucp\.amenity\.parking"/),
      expect.stringMatching(/^localized\.EN: "EN" is the same language as "en"/),
      expect.stringMatching(/^localized\.de: "de" is the record's own language/),
      expect.stringMatching(/^localized\.fr\.exception_hours\.2026-12-24: no exception_hours entry starts on 2026-12-24/),
      expect.stringMatching(/^localized\.fr\.exception_hours\.2027-01-02: the exception_hours entry starting 2027-01-02 has no title/),
      expect.stringMatching(/^localized\.fr\.exception_hours\.tomorrow: "tomorrow" is not a date/),
      expect.stringMatching(/^localized\.ja\.nmae: unknown field "nmae"; did you mean "name"\?/),
      expect.stringMatching(/^localized\.es: holds no strings/),
      expect.stringMatching(/^localized\.it\.name: must not be empty/),
      expect.stringMatching(/^localized\.it\.amenities\.dev\.ucp\.amenity\.wi_fi\.label: unknown field "label"/),
    ]);
    expect(issuesOf({ ...BERLIN, localized: ['en'] })).toEqual([expect.stringMatching(/^localized: must be an object keyed by language tag/)]);
  });

  it('NDJSON: problems carry file, line and field', async () => {
    const good = JSON.stringify(BERLIN);
    const bad = JSON.stringify({ ...BERLIN, id: 'loc_2', localized: { en: { amenities: { 'com.example.amenity.x': { description: 'X' } } } } });
    const path = file('stores.ndjson', `${good}\n${bad}\n`);
    const report = await validateFiles([path]);
    expect(report.issues).toEqual([
      expect.objectContaining({ file: path, line: 2, field: 'localized.en.amenities.com.example.amenity.x', message: expect.stringMatching(/has no amenity/) as unknown }),
    ]);
  });

  it('GeoJSON: properties carry language and localized; problems name the feature', async () => {
    const collection = toGeoJSON([BERLIN]);
    const good = file('good.geojson', JSON.stringify(collection));
    const read: LocationRecord[] = [];
    for await (const r of readRecords([good])) read.push(r);
    expect(read).toEqual([BERLIN]);

    const feature = collection.features[0];
    if (feature === undefined) throw new Error('no feature');
    const broken = { ...collection, features: [feature, { ...feature, properties: { ...feature.properties, id: 'loc_2', language: 'en_US' } }] };
    const report = await validateFiles([file('bad.geojson', JSON.stringify(broken))]);
    expect(report.issues).toEqual([expect.objectContaining({ line: 2, unit: 'feature', field: 'language' })]);
  });

  it('CSV: language and <field>@<tag> columns round-trip; problems name the column', async () => {
    const csv = toCsv([BERLIN]);
    expect(csv.split('\n')[0]).toMatch(/,language,name@en,amenities@en,exception_hours@en,amenities@fr-CA$/);
    const read: LocationRecord[] = [];
    for await (const r of readRecords([file('good.csv', csv)])) read.push(r);
    expect(read).toEqual([BERLIN]);

    const bad = file(
      'bad.csv',
      [
        'id,name,timezone,amenities,exception_hours,language,name@en,amenities@en,exception_hours@de_de,exception_hours@fr',
        'a,A,Europe/Berlin,dev.ucp.amenity.wi_fi=WLAN,"2026-12-25 closed ""Weihnachten""",de,,dev.ucp.amenity.parking=Parking,,2026-12-26=Noël',
        'b,B,,,,de,B,,2026-12-25=X,2026-12-25',
      ].join('\n'),
    );
    const report = await validateFiles([bad]);
    expect(report.issues.map((i) => `${i.line} ${i.field}: ${i.message}`)).toEqual([
      expect.stringMatching(/^2 amenities@en: the record has no amenity "dev\.ucp\.amenity\.parking"/),
      expect.stringMatching(/^2 exception_hours@fr: no exception_hours entry starts on 2026-12-26/),
      expect.stringMatching(/^3 exception_hours@fr: exception_hours@fr: "2026-12-25" must be written date=Title/),
      expect.stringMatching(/^3 \*@de_de: "de_de" is not a well-formed BCP 47 language tag \(subtags are joined with "-": "de-de"\)/),
      expect.stringMatching(/^3 exception_hours@de_de: no exception_hours entry starts on 2026-12-25/),
    ]);
  });
});
