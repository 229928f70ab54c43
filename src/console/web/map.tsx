/**
 * An offline world map drawn into SVG with d3-geo (Web Mercator) over Natural Earth country
 * outlines from the world-atlas package, bundled into the app (map-basemap.ts). Points cluster on
 * a screen grid when they would overlap; highlighted points (results, the selection) are always
 * drawn alone (map-clusters.ts). Optional XYZ tiles are drawn under the outlines when the console
 * was started with --tile-url.
 */
import { geoPath } from 'd3-geo';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { basemapAt } from './map-basemap.js';
import { placePoints, splitView } from './map-clusters.js';
import { BasemapNote, MapTools } from './map-controls.js';
import { useMapGestures } from './map-gestures.js';
import { ClusterCount, ClusterMark, MarkerPins, PointDot, ShapeLayer } from './map-layers.js';
import type { MapMarker, MapPoint, MapShape } from './map-types.js';
import { BASEMAP_DETAIL_LIMIT, HEIGHT, WIDTH, WORLD, fitView, projectionFor, tileImages, zoomedView, type View } from './map-view.js';

export type { MapMarker, MapPoint, MapShape } from './map-types.js';
export { BASEMAP_DETAIL_LIMIT } from './map-view.js';

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

export function WorldMap(props: Props) {
  const [view, setView] = useState<View>(WORLD);
  const svg = useRef<SVGSVGElement>(null);
  const fitKey = props.fit?.key;
  useEffect(() => {
    if (props.fit !== undefined) setView(fitView(props.fit.positions));
    // Refit only when the caller says the content changed.
  }, [fitKey]);

  const projection = useMemo(() => projectionFor(view), [view]);
  const path = useMemo(() => geoPath(projection), [projection]);
  const basemap = useMemo(() => path(basemapAt(view.zoom)) ?? '', [path, view.zoom]);
  const drawn = useMemo(() => placePoints(props.points, projection), [props.points, projection]);
  const gestures = useMapGestures(view, setView, svg, props.onPick);
  const tiles = props.tileUrl ? tileImages(view, props.tileUrl) : [];
  const select = props.onSelect;

  return (
    <div class="map">
      <MapTools
        zoomBy={(factor) => setView((v) => zoomedView(v, factor))}
        fit={() => setView(props.fit !== undefined ? fitView(props.fit.positions) : WORLD)}
        world={() => setView(WORLD)}
        picks={props.onPick !== undefined}
      />
      {!props.tileUrl && view.zoom > BASEMAP_DETAIL_LIMIT && <BasemapNote />}
      <svg
        ref={svg}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="application"
        aria-roledescription="map"
        aria-label={props.label}
        // Lower case: on an SVG element Preact sets attributes verbatim, and only `tabindex` makes it focusable.
        tabindex={0}
        {...gestures}
      >
        <rect class="sea" x={0} y={0} width={WIDTH} height={HEIGHT} />
        {tiles.map((t) => (
          <image key={t.href} href={t.href} x={t.x} y={t.y} width={t.size} height={t.size} />
        ))}
        <path class={tiles.length > 0 ? 'land over-tiles' : 'land'} d={basemap} />
        <ShapeLayer shapes={props.shapes ?? []} path={path} />
        {drawn.alone.map((p) => (
          <PointDot key={p.id} point={p} onSelect={select} />
        ))}
        {drawn.clusters.map((c) => (
          <ClusterMark key={`${c.x}:${c.y}`} cluster={c} onOpen={(cluster) => setView(splitView(cluster, view))} />
        ))}
        {drawn.singles.map((p) => (
          <PointDot key={p.id} point={p} onSelect={select} />
        ))}
        {drawn.clusters.map((c) => (
          <ClusterCount key={`${c.x}:${c.y}`} cluster={c} />
        ))}
        <MarkerPins markers={props.markers ?? []} projection={projection} />
      </svg>
    </div>
  );
}
