/**
 * What a buyer asks next (#26), through the bridge in this process and the official MCP client:
 * a language forwarded as context.language and remembered per language for list_businesses, and
 * an amenity label resolved per business when two businesses use different ids.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBusiness } from './support/fleet.js';
import { startBridgeSession, textOf, type BridgeSession } from './support/bridge-harness.js';

const ACCESSIBLE = 'com.example.meridian.amenity.wheelchair_accessible';
const record = (id: string, amenities: Record<string, { description: string }>, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({
    id,
    name: `Store ${id}`,
    geo: { latitude: 40.7536, longitude: -73.9812 },
    timezone: 'America/New_York',
    hours: [{ day: 'sunday', opens: '10:00', closes: '18:00' }],
    amenities,
    ...extra,
  });

describe('agent bridge: language and amenity labels (#26)', () => {
  let meridian: Awaited<ReturnType<typeof startBusiness>>;
  let corner: Awaited<ReturnType<typeof startBusiness>>;
  let session: BridgeSession;

  beforeAll(async () => {
    meridian = await startBusiness([
      record(
        'm1',
        { [ACCESSIBLE]: { description: 'Wheelchair accessible' } },
        { localized: { de: { amenities: { [ACCESSIBLE]: { description: 'Rollstuhlgerecht' } } } } },
      ),
      record('m2', { 'com.example.meridian.amenity.parking': { description: 'Parking' } }),
    ]);
    corner = await startBusiness([record('c1', { 'net.cornershop.feature.step_free': { description: 'Wheelchair Accessible' } })]);
    session = await startBridgeSession([`meridian=${meridian.url}`, `corner=${corner.url}`]);
  });

  afterAll(async () => {
    await session?.close();
    await Promise.all([meridian?.close(), corner?.close()]);
  });

  it('forwards language to every business and says so; list_businesses shows descriptions in the language asked', async () => {
    const german = await session.call('find_locations', { near: '40.7536,-73.9812', radius: '1 km', language: 'de' });
    expect(textOf(german)).toContain('Language asked for: de.');
    expect(textOf(german)).toContain('Amenities: Rollstuhlgerecht');
    await session.call('find_locations', { near: '40.7536,-73.9812', radius: '1 km' });
    const inGerman = textOf(await session.call('list_businesses', { language: 'de' }));
    expect(inGerman).toContain(`${ACCESSIBLE} (Rollstuhlgerecht)`);
    const plain = textOf(await session.call('list_businesses', {}));
    expect(plain).toContain(`${ACCESSIBLE} (Wheelchair accessible)`);
  });

  it('matches a label across businesses with different ids, states the mapping, and names what a business lacks', async () => {
    const found = await session.call('find_locations', { near: '40.7536,-73.9812', radius: '1 km', amenities: ['wheelchair-accessible'] });
    const text = textOf(found);
    expect(text).toContain('Store m1');
    expect(text).toContain('Store c1');
    expect(text).not.toContain('Store m2');
    expect(text).toContain(`Amenity labels at meridian: "wheelchair-accessible" = ${ACCESSIBLE}.`);
    expect(text).toContain('Amenity labels at corner: "wheelchair-accessible" = net.cornershop.feature.step_free.');
    const none = textOf(
      await session.call('find_locations', { business: 'corner', near: '40.7536,-73.9812', radius: '1 km', amenities: ['parking'] }),
    );
    expect(none.split('\n')[0]).toBe('corner: none of the 1 Location it returned has parking (it has: Wheelchair Accessible).');
  });

  it('judges an offset-less open_at per Location and never sends it to a business', async () => {
    const sunday = textOf(await session.call('find_locations', { business: 'meridian', open_at: '2026-12-06T10:00' }));
    expect(sunday).toContain('Open at the requested time (Sun 6 Dec 10:00 local); closes 18:00 (America/New_York)');
    const monday = textOf(await session.call('find_locations', { business: 'meridian', open_at: '2026-12-07T10:00' }));
    expect(monday.split('\n')[0]).toBe('meridian: none of the 2 Locations it returned is open at 2026-12-07T10:00 local time.');
  });
});
