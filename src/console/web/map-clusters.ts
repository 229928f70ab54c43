/**
 * Where the map draws points: highlighted points (results, the selection) always alone; other
 * points alone when no other shares their grid cell, else as one cluster per cell with a count.
 */
import type { MapPoint } from './map-types.js';
import { CELL, HEIGHT, MAX_ZOOM, WIDTH, cellKey, clusterRadius, projectionFor, type View } from './map-view.js';

export type PlacedPoint = MapPoint & { x: number; y: number };

export interface Cluster {
  x: number;
  y: number;
  n: number;
  lon: number;
  lat: number;
  members: [number, number][];
}

export interface Placement {
  /** Highlighted points, drawn last. */
  singles: PlacedPoint[];
  /** Ordinary points alone in their cell. */
  alone: PlacedPoint[];
  clusters: Cluster[];
}

type Projection = ReturnType<typeof projectionFor>;

/** The points on the canvas, split into highlighted and ordinary ones. */
function onCanvas(points: readonly MapPoint[], projection: Projection): { highlighted: PlacedPoint[]; ordinary: PlacedPoint[] } {
  const highlighted: PlacedPoint[] = [];
  const ordinary: PlacedPoint[] = [];
  for (const p of points) {
    const xy = projection([p.lon, p.lat]);
    if (xy === null || xy[0] < 0 || xy[0] > WIDTH || xy[1] < 0 || xy[1] > HEIGHT) continue;
    const at = { ...p, x: xy[0], y: xy[1] };
    if (p.tone === 'result' || p.tone === 'selected') highlighted.push(at);
    else ordinary.push(at);
  }
  return { highlighted, ordinary };
}

/** A cluster's circle kept inside its cell (see CELL), as near the members' centre as that allows. */
function settled(sum: Cluster): Cluster {
  const r = clusterRadius(sum.n);
  const inCell = (v: number): number => {
    const lo = Math.floor(v / CELL) * CELL;
    return Math.min(lo + CELL - r, Math.max(lo + r, v));
  };
  return { x: inCell(sum.x / sum.n), y: inCell(sum.y / sum.n), n: sum.n, lon: sum.lon / sum.n, lat: sum.lat / sum.n, members: sum.members };
}

export function placePoints(points: readonly MapPoint[], projection: Projection): Placement {
  const { highlighted, ordinary } = onCanvas(points, projection);
  const counts = new Map<string, number>();
  for (const p of ordinary) {
    const key = cellKey(p.x, p.y);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const alone: PlacedPoint[] = [];
  const sums = new Map<string, Cluster>();
  for (const p of ordinary) {
    const key = cellKey(p.x, p.y);
    if ((counts.get(key) ?? 0) === 1) {
      alone.push(p);
      continue;
    }
    const c = sums.get(key) ?? { x: 0, y: 0, n: 0, lon: 0, lat: 0, members: [] };
    c.x += p.x;
    c.y += p.y;
    c.lon += p.lon;
    c.lat += p.lat;
    c.n += 1;
    c.members.push([p.lon, p.lat]);
    sums.set(key, c);
  }
  return { singles: highlighted, alone, clusters: [...sums.values()].map(settled) };
}

/**
 * The view a click on a cluster moves to: centred on its members, zoomed in by doubling until they
 * no longer share one grid cell (two stores 700 m apart split in one click, not five).
 */
export function splitView(c: Cluster, from: View): View {
  let zoom = from.zoom;
  while (zoom < MAX_ZOOM) {
    zoom = Math.min(MAX_ZOOM, zoom * 2);
    const projection = projectionFor({ lon: c.lon, lat: c.lat, zoom });
    const keys = new Set<string>();
    for (const m of c.members) {
      const xy = projection(m);
      if (xy !== null) keys.add(cellKey(xy[0], xy[1]));
    }
    if (keys.size > 1) break;
  }
  return { lon: c.lon, lat: c.lat, zoom };
}
