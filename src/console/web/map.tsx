/**
 * An offline world map drawn into SVG with d3-geo (Web Mercator) over Natural Earth country
 * outlines from the world-atlas package, bundled into the app. Points cluster on a screen grid
 * when they would overlap; highlighted points (results, the selection) are always drawn alone.
 * Optional XYZ tiles are drawn under the outlines when the console was started with --tile-url.
 */
import { geoMercator, geoPath, geoArea, type GeoPermissibleObjects } from 'd3-geo';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import world110 from 'world-atlas/countries-110m.json';
import world50 from 'world-atlas/countries-50m.json';
import type { Ring } from './api.js';

export interface MapPoint {
  id: string;
  name: string;
  lat: number;
  lon: number;
  tone?: 'result' | 'selected' | 'muted';
}

export interface MapShape {
  kind: 'radius' | 'area' | 'search';
  rings: Ring[][];
}

export interface MapMarker {
  lat: number;
  lon: number;
  label: string;
}

interface Props {
  label: string;
  points: MapPoint[];
  shapes?: MapShape[];
  markers?: MapMarker[];
  tileUrl?: string | null;
  onPick?: (lat: number, lon: number) => void;
  onSelect?: (id: string) => void;
  /** Fit the view to these [lon, lat] positions whenever the key changes. */
  fit?: { key: string; positions: [number, number][] };
}

const WIDTH = 960;
const HEIGHT = 540;
/**
 * Clustering grid, px. A cluster's circle (radius at most MAX_CLUSTER_R) is kept inside its own
 * cell, so two clusters never overlap and no count is hidden under another.
 */
const CELL = 48;
const MAX_CLUSTER_R = 21;
const MAX_ZOOM = 1 << 16;
/**
 * Beyond this zoom the bundled Natural Earth outlines (1:50m) are off by more than a few pixels:
 * coastlines and rivers can be a kilometre away, so a point on land seems to sit in water.
 */
export const BASEMAP_DETAIL_LIMIT = 64;

function clusterRadius(n: number): number {
  return Math.min(MAX_CLUSTER_R, 9 + Math.log2(n) * 2);
}

function cellKey(x: number, y: number): string {
  return `${Math.floor(x / CELL)}:${Math.floor(y / CELL)}`;
}

interface Cluster {
  x: number;
  y: number;
  n: number;
  lon: number;
  lat: number;
  members: [number, number][];
}

function countries(topology: unknown): GeoPermissibleObjects {
  const t = topology as Topology<{ countries: GeometryCollection }>;
  return feature(t, t.objects.countries);
}
const COARSE = countries(world110);
const FINE = countries(world50);

/** d3-geo wants small polygons clockwise; GeoJSON (RFC 7946) writes them anticlockwise. */
function polygonFor(rings: Ring[]): GeoPermissibleObjects {
  const poly = { type: 'Polygon' as const, coordinates: rings };
  if (geoArea(poly) > 2 * Math.PI) return { type: 'Polygon', coordinates: rings.map((r) => [...r].reverse()) };
  return poly;
}

interface View {
  lon: number;
  lat: number;
  zoom: number;
}

const WORLD: View = { lon: 0, lat: 20, zoom: 1 };
const BASE_SCALE = WIDTH / (2 * Math.PI);

function projectionFor(v: View) {
  return geoMercator()
    .scale(BASE_SCALE * v.zoom)
    .center([v.lon, v.lat])
    .translate([WIDTH / 2, HEIGHT / 2])
    .clipExtent([
      [0, 0],
      [WIDTH, HEIGHT],
    ]);
}

function fitView(positions: [number, number][]): View {
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

function tileImages(v: View, template: string): { href: string; x: number; y: number; size: number }[] {
  const projection = projectionFor(v);
  const z = Math.max(0, Math.min(19, Math.round(Math.log2(v.zoom * 3.75))));
  const n = 1 << z;
  const origin = projection([-180, 85.0511287798]) ?? [0, 0];
  const worldPx = 2 * Math.PI * BASE_SCALE * v.zoom;
  const size = worldPx / n;
  const out: { href: string; x: number; y: number; size: number }[] = [];
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

/**
 * The view a click on a cluster moves to: centred on its members, zoomed in by doubling until they
 * no longer share one grid cell (two stores 700 m apart split in one click, not five).
 */
function splitView(c: Cluster, from: View): View {
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

export function WorldMap(props: Props) {
  const [view, setView] = useState<View>(WORLD);
  const drag = useRef<{ x: number; y: number; view: View; moved: boolean } | null>(null);
  const svg = useRef<SVGSVGElement>(null);
  const fitKey = props.fit?.key;
  useEffect(() => {
    if (props.fit !== undefined) setView(fitView(props.fit.positions));
    // Refit only when the caller says the content changed.
  }, [fitKey]);

  const projection = useMemo(() => projectionFor(view), [view]);
  const path = useMemo(() => geoPath(projection), [projection]);
  const basemap = useMemo(() => path(view.zoom >= 4 ? FINE : COARSE) ?? '', [path, view.zoom]);

  const drawn = useMemo(() => {
    const singles: (MapPoint & { x: number; y: number })[] = [];
    const cells = new Map<string, Cluster>();
    const loose: (MapPoint & { x: number; y: number })[] = [];
    for (const p of props.points) {
      const xy = projection([p.lon, p.lat]);
      if (xy === null || xy[0] < 0 || xy[0] > WIDTH || xy[1] < 0 || xy[1] > HEIGHT) continue;
      const at = { ...p, x: xy[0], y: xy[1] };
      if (p.tone === 'result' || p.tone === 'selected') singles.push(at);
      else loose.push(at);
    }
    const counts = new Map<string, number>();
    for (const p of loose) {
      const key = cellKey(p.x, p.y);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const alone: (MapPoint & { x: number; y: number })[] = [];
    for (const p of loose) {
      const key = cellKey(p.x, p.y);
      if ((counts.get(key) ?? 0) === 1) {
        alone.push(p);
        continue;
      }
      const c = cells.get(key) ?? { x: 0, y: 0, n: 0, lon: 0, lat: 0, members: [] };
      c.x += p.x;
      c.y += p.y;
      c.lon += p.lon;
      c.lat += p.lat;
      c.n += 1;
      c.members.push([p.lon, p.lat]);
      cells.set(key, c);
    }
    const clusters = [...cells.values()].map((c): Cluster => {
      const r = clusterRadius(c.n);
      const x = c.x / c.n;
      const y = c.y / c.n;
      // The circle stays inside its cell (see CELL), as near the members' centre as that allows.
      const inCell = (v: number): number => {
        const lo = Math.floor(v / CELL) * CELL;
        return Math.min(lo + CELL - r, Math.max(lo + r, v));
      };
      return { x: inCell(x), y: inCell(y), n: c.n, lon: c.lon / c.n, lat: c.lat / c.n, members: c.members };
    });
    return { singles, alone, clusters };
  }, [props.points, projection]);

  const zoomBy = (factor: number, about?: [number, number]) =>
    setView((v) => {
      const zoom = Math.min(MAX_ZOOM, Math.max(1, v.zoom * factor));
      if (about === undefined) return { ...v, zoom };
      return { lon: about[0], lat: about[1], zoom };
    });
  const panBy = (dx: number, dy: number) =>
    setView((v) => {
      const p = projectionFor(v);
      const c = p.invert?.([WIDTH / 2 + dx, HEIGHT / 2 + dy]);
      return c === undefined || c === null ? v : { ...v, lon: c[0], lat: Math.max(-85, Math.min(85, c[1])) };
    });

  const toSvg = (e: MouseEvent): [number, number] => {
    const r = svg.current?.getBoundingClientRect();
    if (r === undefined || r.width === 0) return [0, 0];
    return [((e.clientX - r.left) * WIDTH) / r.width, ((e.clientY - r.top) * HEIGHT) / r.height];
  };

  const onKey = (e: KeyboardEvent) => {
    const step = 80;
    const keys: Record<string, () => void> = {
      ArrowLeft: () => panBy(-step, 0),
      ArrowRight: () => panBy(step, 0),
      ArrowUp: () => panBy(0, -step),
      ArrowDown: () => panBy(0, step),
      '+': () => zoomBy(2),
      '=': () => zoomBy(2),
      '-': () => zoomBy(0.5),
      Enter: () => props.onPick?.(view.lat, view.lon),
    };
    const act = keys[e.key];
    if (act !== undefined) {
      e.preventDefault();
      act();
    }
  };

  const tiles = props.tileUrl ? tileImages(view, props.tileUrl) : [];
  const tooCoarse = !props.tileUrl && view.zoom > BASEMAP_DETAIL_LIMIT;
  const dot = (p: MapPoint & { x: number; y: number }) => (
    <circle
      key={p.id}
      class={`pt ${p.tone ?? ''}`}
      cx={p.x}
      cy={p.y}
      r={p.tone === 'selected' ? 7 : 5}
      data-id={p.id}
      onClick={(e) => {
        e.stopPropagation();
        props.onSelect?.(p.id);
      }}
    >
      <title>{`${p.name} (${p.id})`}</title>
    </circle>
  );

  return (
    <div class="map">
      <div class="map-tools" role="group" aria-label="Map view">
        <button type="button" onClick={() => zoomBy(2)}>
          Zoom in
        </button>
        <button type="button" onClick={() => zoomBy(0.5)}>
          Zoom out
        </button>
        <button type="button" onClick={() => setView(props.fit !== undefined ? fitView(props.fit.positions) : WORLD)}>
          Fit
        </button>
        <button type="button" onClick={() => setView(WORLD)}>
          World
        </button>
        <span class="hint">
          {props.onPick ? 'Click the map (or press Enter) to pick a point; arrows pan, + and − zoom.' : 'Arrows pan, + and − zoom.'}
        </span>
      </div>
      {tooCoarse && (
        <p class="map-note" role="status" data-testid="basemap-note">
          The built-in offline map is too coarse at this zoom: coastlines, rivers and borders can be a kilometre off, so a point may seem to
          sit in water (the points themselves are exact). For street detail, start the console with{' '}
          <code>--tile-url https://…/{'{z}/{x}/{y}'}.png</code> (a tile server you are allowed to use).
        </p>
      )}
      <svg
        ref={svg}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="application"
        aria-roledescription="map"
        aria-label={props.label}
        // Lower case: on an SVG element Preact sets attributes verbatim, and only `tabindex` makes it focusable.
        tabindex={0}
        onKeyDown={onKey}
        onWheel={(e) => {
          e.preventDefault();
          const c = projection.invert?.(toSvg(e));
          zoomBy(
            e.deltaY < 0 ? 1.5 : 1 / 1.5,
            c === null || c === undefined ? undefined : [view.lon + (c[0] - view.lon) / 3, view.lat + (c[1] - view.lat) / 3],
          );
        }}
        onMouseDown={(e) => {
          drag.current = { x: e.clientX, y: e.clientY, view, moved: false };
        }}
        onMouseMove={(e) => {
          const d = drag.current;
          if (d === null) return;
          const r = svg.current?.getBoundingClientRect();
          const k = r === undefined || r.width === 0 ? 1 : WIDTH / r.width;
          const dx = (e.clientX - d.x) * k;
          const dy = (e.clientY - d.y) * k;
          if (Math.abs(dx) + Math.abs(dy) > 4) d.moved = true;
          if (!d.moved) return;
          const c = projectionFor(d.view).invert?.([WIDTH / 2 - dx, HEIGHT / 2 - dy]);
          if (c !== null && c !== undefined) setView({ ...d.view, lon: c[0], lat: Math.max(-85, Math.min(85, c[1])) });
        }}
        onMouseUp={(e) => {
          const d = drag.current;
          drag.current = null;
          if (d !== null && !d.moved && props.onPick) {
            const c = projection.invert?.(toSvg(e));
            if (c !== null && c !== undefined) props.onPick(Math.round(c[1] * 1e5) / 1e5, Math.round(c[0] * 1e5) / 1e5);
          }
        }}
        onMouseLeave={() => (drag.current = null)}
      >
        <rect class="sea" x={0} y={0} width={WIDTH} height={HEIGHT} />
        {tiles.map((t) => (
          <image key={t.href} href={t.href} x={t.x} y={t.y} width={t.size} height={t.size} />
        ))}
        <path class={tiles.length > 0 ? 'land over-tiles' : 'land'} d={basemap} />
        {(props.shapes ?? []).map((s, i) =>
          s.rings.map((rings, j) => <path key={`${i}-${j}`} class={`shape ${s.kind}`} d={path(polygonFor(rings)) ?? ''} />),
        )}
        {drawn.alone.map(dot)}
        {drawn.clusters.map((c) => (
          <g
            key={`${c.x}:${c.y}`}
            class="cluster"
            data-count={c.n}
            onClick={(e) => {
              e.stopPropagation();
              setView(splitView(c, view));
            }}
          >
            <circle cx={c.x} cy={c.y} r={clusterRadius(c.n)} />
            <title>{`${c.n} Locations; click to zoom in until they split`}</title>
          </g>
        ))}
        {drawn.singles.map(dot)}
        {/* Counts above everything, so a highlighted point drawn over a cluster never hides its number. */}
        {drawn.clusters.map((c) => (
          <text key={`${c.x}:${c.y}`} class="cluster-count" x={c.x} y={c.y} dy="0.35em" text-anchor="middle" aria-hidden="true">
            {c.n}
          </text>
        ))}
        {(props.markers ?? []).map((m) => {
          const xy = projection([m.lon, m.lat]);
          return xy === null ? null : (
            <g key={`${m.label}`} class="marker">
              <path d={`M${xy[0]},${xy[1]} l-7,-16 a8,8 0 1,1 14,0 z`} />
              <title>{m.label}</title>
            </g>
          );
        })}
      </svg>
    </div>
  );
}
