/** What the world map draws over the basemap: coverage shapes, points, clusters and their counts, pins. */
import type { GeoPath } from 'd3-geo';
import { polygonFor } from './map-basemap.js';
import type { Cluster, PlacedPoint } from './map-clusters.js';
import type { MapMarker, MapShape } from './map-types.js';
import { clusterRadius, type projectionFor } from './map-view.js';

export function ShapeLayer({ shapes, path }: { shapes: readonly MapShape[]; path: GeoPath }) {
  return (
    <>
      {shapes.map((s, i) =>
        s.rings.map((rings, j) => <path key={`${i}-${j}`} class={`shape ${s.kind}`} d={path(polygonFor(rings)) ?? ''} />),
      )}
    </>
  );
}

export function PointDot({ point, onSelect }: { point: PlacedPoint; onSelect: ((id: string) => void) | undefined }) {
  return (
    <circle
      class={`pt ${point.tone ?? ''}`}
      cx={point.x}
      cy={point.y}
      r={point.tone === 'selected' ? 7 : 5}
      data-id={point.id}
      onClick={(e) => {
        e.stopPropagation();
        onSelect?.(point.id);
      }}
    >
      <title>{`${point.name} (${point.id})`}</title>
    </circle>
  );
}

export function ClusterMark({ cluster, onOpen }: { cluster: Cluster; onOpen: (c: Cluster) => void }) {
  return (
    <g
      class="cluster"
      data-count={cluster.n}
      onClick={(e) => {
        e.stopPropagation();
        onOpen(cluster);
      }}
    >
      <circle cx={cluster.x} cy={cluster.y} r={clusterRadius(cluster.n)} />
      <title>{`${cluster.n} Locations; click to zoom in until they split`}</title>
    </g>
  );
}

/** Drawn above everything, so a highlighted point drawn over a cluster never hides its number. */
export function ClusterCount({ cluster }: { cluster: Cluster }) {
  return (
    <text class="cluster-count" x={cluster.x} y={cluster.y} dy="0.35em" text-anchor="middle" aria-hidden="true">
      {cluster.n}
    </text>
  );
}

export function MarkerPins({ markers, projection }: { markers: readonly MapMarker[]; projection: ReturnType<typeof projectionFor> }) {
  return (
    <>
      {markers.map((m) => {
        const xy = projection([m.lon, m.lat]);
        return xy === null ? null : (
          <g key={m.label} class="marker">
            <path d={`M${xy[0]},${xy[1]} l-7,-16 a8,8 0 1,1 14,0 z`} />
            <title>{m.label}</title>
          </g>
        );
      })}
    </>
  );
}
