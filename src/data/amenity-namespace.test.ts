import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScratchDir } from '../../test/support/scratch.js';
import { ConfigError } from '../errors.js';
import { parseAmenityNamespace, undefinedUcpAmenities, UCP_AMENITIES } from './amenity-namespace.js';
import { readRecords, validateFiles, type ValidationReport } from './import.js';

const scratch = useScratchDir('amenity-namespace');
let n = 0;
function file(name: string, text: string): string {
  const path = join(scratch(), `${++n}-${name}`);
  writeFileSync(path, text);
  return path;
}

const osm = (tags: Record<string, string>[]): string =>
  JSON.stringify({
    type: 'FeatureCollection',
    features: tags.map((t, i) => ({ type: 'Feature', id: `node/${i + 1}`, geometry: { type: 'Point', coordinates: [13.4, 52.5] }, properties: t })),
  });

const jsonld = (features: { name: string; propertyID?: string }[][]): string =>
  JSON.stringify({
    '@context': 'https://schema.org',
    '@graph': features.map((list, i) => ({
      '@type': 'Store',
      branchCode: `b${i + 1}`,
      name: 'Shop',
      geo: { latitude: 40.7, longitude: -74 },
      amenityFeature: list.map((f) => ({ '@type': 'LocationFeatureSpecification', value: true, ...f })),
    })),
  });

/** Every amenity id of the records the files would import. */
async function amenityIds(report: ValidationReport, path: string, format: string, namespace?: string): Promise<string[]> {
  const ids = new Set<string>();
  for await (const r of readRecords([path], { format, ...(namespace === undefined ? {} : { amenityNamespace: namespace }) }))
    for (const id of Object.keys(r.amenities ?? {})) ids.add(id);
  expect(report.ok).toBe(true);
  return [...ids].sort();
}

const UCP_IDS = new Set<string>(Object.values(UCP_AMENITIES));
const underUcp = (ids: readonly string[]): string[] => ids.filter((id) => id.startsWith('dev.ucp.'));

describe('amenity ids an import mints: only the four UCP defines under dev.ucp (R-N1 namespace authority)', () => {
  const osmTags = [
    { name: 'A', wheelchair: 'yes', toilets: 'yes', internet_access: 'wlan', atm: 'yes' },
    { name: 'B', drive_through: 'yes', takeaway: 'yes', delivery: 'yes' },
  ];
  const ldFeatures = [
    [{ name: 'Free parking' }, { name: 'Restrooms' }, { name: 'Curbside pickup' }, { name: 'EV charging' }],
    [{ name: 'Wi-Fi' }, { name: 'Drive-thru' }, { name: 'ATM' }, { name: 'In-store pickup' }, { name: 'Wheelchair accessible' }],
  ];

  it('OpenStreetMap without --amenity-namespace: UCP ids for UCP features, org.openstreetmap.amenity.* for the rest, one warning naming the flag', async () => {
    const path = file('s.geojson', osm(osmTags));
    const report = await validateFiles([path], { format: 'osm' });
    const ids = await amenityIds(report, path, 'osm');
    expect(underUcp(ids).every((id) => UCP_IDS.has(id))).toBe(true);
    expect(ids).toEqual([
      'dev.ucp.amenity.wi_fi',
      'org.openstreetmap.amenity.atm',
      'org.openstreetmap.amenity.delivery',
      'org.openstreetmap.amenity.drive_through',
      'org.openstreetmap.amenity.restroom',
      'org.openstreetmap.amenity.takeaway',
      'org.openstreetmap.amenity.wheelchair_accessible',
    ]);
    const about = report.warnings.filter((w) => w.message.includes('--amenity-namespace'));
    expect(about).toHaveLength(1);
    expect(about[0]?.message).toContain('org.openstreetmap.amenity.*');
  });

  it('JSON-LD without --amenity-namespace: the four UCP ids, org.schema.amenity.* for the rest, one warning', async () => {
    const path = file('s.jsonld', jsonld(ldFeatures));
    const report = await validateFiles([path]);
    const ids = await amenityIds(report, path, 'jsonld');
    expect(ids).toEqual([
      'dev.ucp.amenity.parking',
      'dev.ucp.amenity.shopping.curbside_pickup',
      'dev.ucp.amenity.shopping.in_store_pickup',
      'dev.ucp.amenity.wi_fi',
      'org.schema.amenity.atm',
      'org.schema.amenity.drive_through',
      'org.schema.amenity.ev_charging',
      'org.schema.amenity.restroom',
      'org.schema.amenity.wheelchair_accessible',
    ]);
    expect(report.warnings.filter((w) => w.message.includes('--amenity-namespace'))).toHaveLength(1);
  });

  it('--amenity-namespace names the rest under the operator’s domain, with no warning', async () => {
    const path = file('s.geojson', osm(osmTags));
    const report = await validateFiles([path], { format: 'osm', amenityNamespace: 'com.example' });
    expect(report.warnings).toEqual([]);
    const ids = await amenityIds(report, path, 'osm', 'com.example');
    expect(ids.filter((id) => !UCP_IDS.has(id)).every((id) => id.startsWith('com.example.amenity.'))).toBe(true);
    const ld = file('s.jsonld', jsonld(ldFeatures));
    expect((await validateFiles([ld], { amenityNamespace: 'com.example' })).warnings).toEqual([]);
  });

  it('strict turns the namespace warning into an error: nothing can be imported', async () => {
    const report = await validateFiles([file('s.geojson', osm(osmTags))], { format: 'osm', strict: true });
    expect(report.ok).toBe(false);
    expect(report.issues.map((i) => i.message)).toContainEqual(expect.stringMatching(/--amenity-namespace.*\(an error because of --strict\)$/));
  });

  it('data that already carries dev.ucp ids UCP does not define gets one warning per record naming them', async () => {
    const record = { id: 'a', name: 'A', amenities: { 'dev.ucp.amenity.restroom': { description: 'Restrooms' }, [UCP_AMENITIES.parking]: { description: 'Parking' } } };
    const report = await validateFiles([file('s.ndjson', `${JSON.stringify(record)}\n`)]);
    expect(report.ok).toBe(true);
    expect(report.warnings).toEqual([
      expect.objectContaining({ line: 1, field: 'amenities.dev.ucp.amenity.restroom', message: expect.stringContaining('only ucp.dev names things under dev.ucp') }),
    ]);
    // A propertyID under dev.ucp in JSON-LD is such data too.
    const ld = await validateFiles([file('p.jsonld', jsonld([[{ name: 'Toilets', propertyID: 'dev.ucp.amenity.restroom' }]]))]);
    expect(ld.warnings.map((w) => w.field)).toEqual(['amenityFeature']);
  });

  it('--amenity-namespace refuses dev.ucp and anything that is not a reverse-domain name', () => {
    expect(parseAmenityNamespace('com.example')).toBe('com.example');
    expect(parseAmenityNamespace('com.example.amenity')).toBe('com.example');
    expect(() => parseAmenityNamespace('dev.ucp')).toThrow(ConfigError);
    expect(() => parseAmenityNamespace('dev.ucp.extra')).toThrow(/only ucp\.dev names things under dev\.ucp/);
    expect(() => parseAmenityNamespace('Example')).toThrow(/not a reverse-domain name/);
  });

  it('the four UCP ids never warn', () => {
    expect(undefinedUcpAmenities(Object.fromEntries(Object.values(UCP_AMENITIES).map((id) => [id, {}])))).toEqual([]);
  });
});
