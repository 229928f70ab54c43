/**
 * The offline basemap: Natural Earth country outlines from the world-atlas package, bundled into
 * the app (1:110m for the world, 1:50m once zoomed in), and shapes made ready for d3-geo.
 */
import { geoArea, type GeoPermissibleObjects } from 'd3-geo';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import world110 from 'world-atlas/countries-110m.json';
import world50 from 'world-atlas/countries-50m.json';
import type { Ring } from './api.js';

function countries(topology: unknown): GeoPermissibleObjects {
  const t = topology as Topology<{ countries: GeometryCollection }>;
  return feature(t, t.objects.countries);
}
const COARSE = countries(world110);
const FINE = countries(world50);

/** The outlines to draw at `zoom`. */
export function basemapAt(zoom: number): GeoPermissibleObjects {
  return zoom >= 4 ? FINE : COARSE;
}

/** d3-geo wants small polygons clockwise; GeoJSON (RFC 7946) writes them anticlockwise. */
export function polygonFor(rings: Ring[]): GeoPermissibleObjects {
  const poly = { type: 'Polygon' as const, coordinates: rings };
  if (geoArea(poly) > 2 * Math.PI) return { type: 'Polygon', coordinates: rings.map((r) => [...r].reverse()) };
  return poly;
}
