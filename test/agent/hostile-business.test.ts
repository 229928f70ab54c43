/**
 * One hostile business must not silence the bridge (#37 N3, N4, N10, N11): whatever it sends —
 * a member nested 100,000 deep, Locations with 150 KB names, text that forges the bridge's own
 * lines, a 20 KB cursor — the bridge bounds what it accepts, says what it dropped naming the
 * business, and answers with the healthy businesses' Locations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataset, startBusiness } from './support/fleet.js';
import {
  locationText,
  searchAnswer,
  startBridgeSession,
  startHostileBusiness,
  textOf,
  type BridgeSession,
  type HostileBusiness,
} from './support/bridge-harness.js';

const NEAR = { latitude: 40.7128, longitude: -74.006 };

describe('agent bridge: a hostile business', () => {
  let healthy: Awaited<ReturnType<typeof startBusiness>>;
  let deep: HostileBusiness;
  let session: BridgeSession;

  beforeAll(async () => {
    healthy = await startBusiness(dataset({ prefix: 'good', turn: 0 }));
    const depth = 100_000;
    const nested = `"x":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    deep = await startHostileBusiness(() => searchAnswer([locationText('deep_1', { extra: nested }), locationText('deep_2')]));
    session = await startBridgeSession([`good=${healthy.url}`, `deep=${deep.url}`]);
  });

  afterAll(async () => {
    await session?.close();
    await deep?.close();
    await healthy?.close();
  });

  it('N3: a Location with a 100,000-deep member is dropped with a note; the others still answer', async () => {
    const result = await session.call('find_locations', { near: NEAR, radius: '5 km', limit: 50 });
    const text = textOf(result);
    expect(result.isError).not.toBe(true);
    expect(text).toContain('good');
    expect(text).toContain('deep_2');
    expect(text).not.toContain('deep_1');
    expect(text).toMatch(/deep.*nested/);
  });
});
