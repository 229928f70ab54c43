import { describe, expect, it } from 'vitest';
import { DatasetChecker, identityOf } from './dataset-checks.js';
import { validateRecord } from './validate-record.js';
import { DOWNTOWN } from './test-support/canonical-record.js';

const POS = { file: 'stores.ndjson', line: 7 };

function fieldsOf(raw: unknown): string[] {
  return validateRecord(raw, POS).issues.map((i) => i.field);
}

function issueFor(raw: unknown, field: string): string {
  const issue = validateRecord(raw, POS).issues.find((i) => i.field === field);
  if (issue === undefined) throw new Error(`no issue for ${field}: ${JSON.stringify(validateRecord(raw, POS).issues)}`);
  expect(issue).toMatchObject({ file: 'stores.ndjson', line: 7 });
  return issue.message;
}

describe('validateRecord', () => {
  it('accepts the canonical record and returns an equal record', () => {
    const result = validateRecord(JSON.parse(JSON.stringify(DOWNTOWN)), POS);
    expect(result.issues).toEqual([]);
    expect(result.record).toEqual(DOWNTOWN);
  });

  it('accepts the minimal record (only id and name are required)', () => {
    expect(validateRecord({ id: 'a', name: 'A' }, POS)).toEqual({ record: { id: 'a', name: 'A' }, issues: [] });
  });

  it('rejects a non-object record, and missing or empty id and name', () => {
    expect(fieldsOf([1])).toEqual(['']);
    expect(fieldsOf({})).toEqual(['id', 'name']);
    expect(issueFor({ id: '', name: 'A' }, 'id')).toContain('must not be empty');
    expect(issueFor({ id: ' a', name: 'A' }, 'id')).toContain('whitespace');
    expect(issueFor({ id: 'a', name: '  ' }, 'name')).toContain('must not be empty');
    expect(issueFor({ id: 7, name: 'A' }, 'id')).toContain('must be a string, got number');
  });

  it('reports an unknown field as an error with a suggestion, at every level', () => {
    expect(issueFor({ ...DOWNTOWN, exception_hour: [] }, 'exception_hour')).toBe('unknown field "exception_hour"; did you mean "exception_hours"?');
    expect(issueFor({ ...DOWNTOWN, address: { ...DOWNTOWN.address, zip: '1' } }, 'address.zip')).toContain('unknown field "zip"');
    expect(issueFor({ ...DOWNTOWN, geo: { lat: 1, lon: 2 } }, 'geo.lat')).toContain('did you mean "latitude"');
    expect(issueFor({ ...DOWNTOWN, hours: [{ day: 'monday', opens: '09:00', closes: '10:00', note: 'x' }] }, 'hours[0].note')).toContain('unknown field');
    expect(issueFor({ ...DOWNTOWN, exception_hours: [{ valid_from: '2026-12-25', valid_through: '2026-12-25', titel: 'X' }] }, 'exception_hours[0].titel')).toContain('did you mean "title"');
    expect(issueFor({ ...DOWNTOWN, amenities: { 'dev.ucp.amenity.parking': { description: 'P', label: 'x' } } }, 'amenities.dev.ucp.amenity.parking.label')).toContain('unknown field');
    expect(fieldsOf({ ...DOWNTOWN, serves: { radius_m: 5, zone: 1 } })).toEqual(['serves.zone']);
  });

  it('checks the type of every field', () => {
    expect(fieldsOf({ id: 'a', name: 'A', aliases: 'x', address: [], amenities: 3, keywords: [''], items: [1], visibility: 'hidden', hours: {}, timezone: 'UTC' })).toEqual([
      'aliases',
      'address',
      'amenities',
      'hours',
      'visibility',
      'keywords[0]',
      'items[0]',
    ]);
    expect(issueFor({ id: 'a', name: 'A', address: { postal_code: 10005 } }, 'address.postal_code')).toContain('must be a string, got number');
  });

  it('rejects coordinates out of range or not numbers', () => {
    expect(issueFor({ id: 'a', name: 'A', geo: { latitude: 90.5, longitude: 0 } }, 'geo.latitude')).toBe('90.5 is out of range [-90, 90]');
    expect(issueFor({ id: 'a', name: 'A', geo: { latitude: 0, longitude: -180.01 } }, 'geo.longitude')).toBe('-180.01 is out of range [-180, 180]');
    expect(issueFor({ id: 'a', name: 'A', geo: { latitude: '40.7', longitude: 0 } }, 'geo.latitude')).toContain('must be a number');
    expect(issueFor({ id: 'a', name: 'A', geo: { latitude: 1 } }, 'geo.longitude')).toContain('required');
    expect(fieldsOf({ id: 'a', name: 'A', geo: { latitude: -90, longitude: 180 } })).toEqual([]);
  });

  it('requires amenities to be a map keyed by reverse-domain ids with a non-empty description (R-N1, seed)', () => {
    expect(issueFor({ id: 'a', name: 'A', amenities: ['dev.ucp.amenity.parking'] }, 'amenities')).toContain('array form');
    expect(issueFor({ id: 'a', name: 'A', amenities: { Parking: { description: 'P' } } }, 'amenities.Parking')).toContain('reverse-domain');
    expect(issueFor({ id: 'a', name: 'A', amenities: { 'com.example.amenity.x': { description: '' } } }, 'amenities.com.example.amenity.x.description')).toContain('empty');
    expect(issueFor({ id: 'a', name: 'A', amenities: { 'com.example.amenity.x': 'Car wash' } }, 'amenities.com.example.amenity.x')).toContain('must be an object');
  });

  it('rejects an unknown IANA zone and a missing zone when hours are present (R-H5)', () => {
    expect(issueFor({ ...DOWNTOWN, timezone: 'Europe/Atlantis' }, 'timezone')).toContain('not an IANA time zone');
    expect(issueFor({ ...DOWNTOWN, timezone: 'america/new_york' }, 'timezone')).toContain('letter case');
    const { timezone: _tz, ...noZone } = DOWNTOWN;
    expect(issueFor(noZone, 'timezone')).toContain('required');
  });

  it('rejects bad days, times, opens == closes and reversed or intersecting exception ranges (R-H1, R-H4)', () => {
    const base = { id: 'a', name: 'A', timezone: 'Asia/Kolkata' };
    expect(issueFor({ ...base, hours: [{ day: 'Mon', opens: '09:00', closes: '17:00' }] }, 'hours[0].day')).toContain('monday');
    expect(issueFor({ ...base, hours: [{ day: 'monday', opens: '24:00', closes: '17:00' }] }, 'hours[0].opens')).toContain('24:00');
    expect(issueFor({ ...base, hours: [{ day: 'monday', opens: '09:00', closes: '09:00' }] }, 'hours[0].closes')).toContain('09:00');
    expect(issueFor({ ...base, exception_hours: [{ valid_from: '2026-12-26', valid_through: '2026-12-24' }] }, 'exception_hours[0].valid_through')).toContain('before');
    expect(issueFor({ ...base, exception_hours: [{ valid_from: '2026-02-30', valid_through: '2026-03-01' }] }, 'exception_hours[0].valid_from')).toContain('calendar date');
    expect(issueFor({ ...base, exception_hours: [{ valid_from: '2026-12-24', valid_through: '2026-12-24', opens: '09:00' }] }, 'exception_hours[0].closes')).toContain('both');
    const overlapping = [
      { valid_from: '2026-12-24', valid_through: '2026-12-26', title: 'Holidays' },
      { valid_from: '2026-12-25', valid_through: '2026-12-25', opens: '10:00', closes: '14:00' },
    ];
    expect(issueFor({ ...base, exception_hours: overlapping }, 'exception_hours[1]')).toContain('intersect');
    const splitShift = [
      { valid_from: '2026-12-24', valid_through: '2026-12-24', opens: '08:00', closes: '12:00' },
      { valid_from: '2026-12-24', valid_through: '2026-12-24', opens: '14:00', closes: '18:00' },
    ];
    expect(fieldsOf({ ...base, exception_hours: splitShift, hours: [] })).toEqual([]);
  });

  it('checks coverage through domain/serves and needs geo for a radius', () => {
    expect(issueFor({ id: 'a', name: 'A', serves: { radius_m: 100 } }, 'serves.radius_m')).toContain('geo');
    expect(fieldsOf({ ...DOWNTOWN, serves: { countries: ['usa'] } })).toEqual(['serves.countries[0]']);
    const openRing = { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 1]]] };
    expect(fieldsOf({ ...DOWNTOWN, serves: { areas: [openRing] } })[0]).toMatch(/^serves\.areas\[0\]/);
  });

  it('rejects aliases that repeat the id or each other', () => {
    expect(issueFor({ id: 'a', name: 'A', aliases: ['a'] }, 'aliases[0]')).toContain("location's own id");
    expect(issueFor({ id: 'a', name: 'A', aliases: ['b', 'b'] }, 'aliases[1]')).toContain('twice');
  });
});

describe('DatasetChecker', () => {
  it('reports duplicate ids, an alias on two locations and an alias equal to another id, with both positions', () => {
    const checker = new DatasetChecker();
    const p = (line: number) => ({ file: 'a.ndjson', line });
    expect(checker.add({ id: 'loc_1', aliases: ['one', 'loc_3'] }, p(1))).toEqual([]);
    expect(checker.add({ id: 'loc_1' }, p(2))).toEqual([{ file: 'a.ndjson', line: 2, field: 'id', message: 'duplicate id "loc_1" (first defined at a.ndjson:1)' }]);
    expect(checker.add({ id: 'loc_2', aliases: ['one'] }, p(3))).toEqual([
      { file: 'a.ndjson', line: 3, field: 'aliases[0]', message: expect.stringContaining('already an alias of "loc_1" (a.ndjson:1)') as unknown },
    ]);
    expect(checker.add({ id: 'loc_3' }, { file: 'b.geojson', line: 4, unit: 'feature' })).toEqual([]);
    expect(checker.finish()).toEqual([
      { file: 'a.ndjson', line: 1, field: 'aliases[1]', message: expect.stringContaining('is the id of another location (b.geojson feature 4)') as unknown },
    ]);
  });

  it('takes the usable identity of a record that is otherwise invalid', () => {
    expect(identityOf({ id: 'x', aliases: ['a', 3, 'x', ' b'], name: 5 })).toEqual({ id: 'x', aliases: ['a', undefined, undefined, undefined] });
    expect(identityOf('nope')).toEqual({});
  });
});
