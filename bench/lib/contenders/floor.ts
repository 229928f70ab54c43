/**
 * The floor: a static in-memory k-d tree (`kdbush`) queried with `geokdbush.around()`, which
 * returns every indexed point within a great-circle radius. It answers only the spatial part of
 * a query and returns candidate indexes, nothing else: no documents, no hours, no amenities, no
 * ranking beyond its own. That is as fast as "points near here" gets in JavaScript, so the
 * engine's time over it is the price of everything else it does (SQL, exact geodesics, hours,
 * documents).
 *
 * geokdbush measures on a sphere, the engine on the WGS 84 ellipsoid, whose distances differ by
 * up to ~0.6%; the floor's radius is widened by 1% so its candidate set is a superset of the exact
 * answer, which the harness checks on every answer it times.
 */
import KDBush from 'kdbush';
import { around } from 'geokdbush';
import type { Contender, Instance, Output, QueryDef } from '../types.js';

/** Sphere-vs-ellipsoid allowance on the radius (relative). */
export const FLOOR_RADIUS_SLACK = 1.01;

export class KdFloor implements Contender {
  readonly name = 'floor';
  private readonly index: KDBush;

  constructor(private readonly points: { ids: readonly string[]; lon: Float64Array; lat: Float64Array }) {
    this.index = new KDBush(points.ids.length);
    for (let i = 0; i < points.ids.length; i++) this.index.add(points.lon[i] as number, points.lat[i] as number);
    this.index.finish();
  }

  unsupported(query: QueryDef): string | null {
    return query.floor ? null : 'the floor is a pure radius index (kdbush/geokdbush): it has no text, coverage, paging or id lookup';
  }

  run(instance: Instance): Output {
    if (instance.op !== 'search' || instance.request.distance === undefined) throw new Error('floor: only distance searches');
    const { center, max } = instance.request.distance;
    const indexes = around(this.index, center.longitude, center.latitude, Number.POSITIVE_INFINITY, (max * FLOOR_RADIUS_SLACK) / 1000);
    return { type: 'candidates', indexes, ids: this.points.ids };
  }

  async close(): Promise<void> {}
}
