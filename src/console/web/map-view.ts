/**
 * The world map's geometry: the SVG canvas, the Web Mercator view (centre and zoom), fitting a
 * view to positions, the tiles a view needs and the grid points cluster on.
 */
import { geoMercator } from 'd3-geo';

export const WIDTH = 960;
export const HEIGHT = 540;
export const MAX_ZOOM = 1 << 16;
/**
 * Clustering grid, px. A cluster's circle (radius at most MAX_CLUSTER_R) is kept inside its own
 * cell, so two clusters never overlap and no count is hidden under another.
 */
export const CELL = 48;
const MAX_CLUSTER_R = 21;
/**
 * Beyond this zoom the bundled Natural Earth outlines (1:50m) are off by more than a few pixels:
 * coastlines and rivers can be a kilometre away, so a point on land seems to sit in water.
 */
export const BASEMAP_DETAIL_LIMIT = 64;

export interface View {
  lon: number;
  lat: number;
  zoom: number;
}

export const WORLD: View = { lon: 0, lat: 20, zoom: 1 };
const BASE_SCALE = WIDTH / (2 * Math.PI);

export function clusterRadius(n: number): number {
  return Math.min(MAX_CLUSTER_R, 9 + Math.log2(n) * 2);
}

export function cellKey(x: number, y: number): string {
  return `${Math.floor(x / CELL)}:${Math.floor(y / CELL)}`;
}

export function projectionFor(v: View) {
  return geoMercator()
    .scale(BASE_SCALE * v.zoom)
    .center([v.lon, v.lat])
    .translate([WIDTH / 2, HEIGHT / 2])
    .clipExtent([
      [0, 0],
      [WIDTH, HEIGHT],
    ]);
}

/** The view that shows every position with a margin (a single one closely). */
export function fitView(positions: [number, number][]): View {
  if (positions.length === 0) return WORLD;
  const lons = positions.map((p) => p[0]);
  const lats = positions.map((p) => p[1]);
  const minLon = Math.min(...lons);
  const maxLon = Math.max(...lons);
  const minLat = Math.min(...lats);
  const maxLat = Math.max(...lats);
  const p = geoMercator().scale(BASE_SCALE).translate([0, 0]);
  const a = p([minLon, maxLat]) ?? [0, 0];
  const b = p([maxLon, minLat]) ?? [0, 0];
  const span = Math.max((b[0] - a[0]) / (WIDTH * 0.8), (b[1] - a[1]) / (HEIGHT * 0.8), 1e-9);
  const zoom = Math.min(MAX_ZOOM, Math.max(1, 1 / span));
  const centre = p.invert?.([(a[0] + b[0]) / 2, (a[1] + b[1]) / 2]) ?? [0, 0];
  return { lon: centre[0], lat: centre[1], zoom: positions.length === 1 ? Math.max(zoom, 256) : zoom };
}

/** `view`, zoomed by `factor` (within 1..MAX_ZOOM), centred on `about` when given. */
export function zoomedView(view: View, factor: number, about?: [number, number]): View {
  const zoom = Math.min(MAX_ZOOM, Math.max(1, view.zoom * factor));
  return about === undefined ? { ...view, zoom } : { lon: about[0], lat: about[1], zoom };
}

/** `view` moved so that the canvas point (WIDTH/2 + dx, HEIGHT/2 + dy) is its centre. */
export function pannedView(view: View, dx: number, dy: number): View {
  const c = projectionFor(view).invert?.([WIDTH / 2 + dx, HEIGHT / 2 + dy]);
  return c === undefined || c === null ? view : { ...view, lon: c[0], lat: Math.max(-85, Math.min(85, c[1])) };
}

export interface TileImage {
  href: string;
  x: number;
  y: number;
  size: number;
}

/** The XYZ tiles (at most 64) covering the canvas in `v`, from a `{z}/{x}/{y}` URL template. */
export function tileImages(v: View, template: string): TileImage[] {
  const projection = projectionFor(v);
  const z = Math.max(0, Math.min(19, Math.round(Math.log2(v.zoom * 3.75))));
  const n = 1 << z;
  const origin = projection([-180, 85.0511287798]) ?? [0, 0];
  const worldPx = 2 * Math.PI * BASE_SCALE * v.zoom;
  const size = worldPx / n;
  const out: TileImage[] = [];
  const x0 = Math.max(0, Math.floor(-origin[0] / size));
  const y0 = Math.max(0, Math.floor(-origin[1] / size));
  for (let tx = x0; tx < n && origin[0] + tx * size < WIDTH; tx++) {
    for (let ty = y0; ty < n && origin[1] + ty * size < HEIGHT; ty++) {
      out.push({
        href: template.replace('{z}', String(z)).replace('{x}', String(tx)).replace('{y}', String(ty)),
        x: origin[0] + tx * size,
        y: origin[1] + ty * size,
        size,
      });
    }
  }
  return out.slice(0, 64);
}
