import { useMemo, useState } from 'preact/hooks';
import type { ConsoleConfig } from '../api.js';
import { go } from '../app.js';
import { pointsOf, positionsOf, useMapLocations } from '../locations.js';
import { WorldMap, type MapShape } from '../map.js';

export function MapPage({ config }: { config: ConsoleConfig }) {
  const { locations, error } = useMapLocations();
  const [selected, setSelected] = useState<string | null>(null);
  const [coverage, setCoverage] = useState(true);
  const shapes = useMemo<MapShape[]>(() => {
    if (locations === null || !coverage) return [];
    const out: MapShape[] = [];
    for (const l of locations) {
      if (l.radius !== null) out.push({ kind: 'radius', rings: [[l.radius]] });
      for (const a of l.areas) out.push({ kind: 'area', rings: a.type === 'Polygon' ? [a.coordinates] : a.coordinates });
    }
    return out;
  }, [locations, coverage]);
  if (error !== null) return <p role="alert">{error}</p>;
  if (locations === null) return <p aria-live="polite">Loading…</p>;
  const chosen = locations.find((l) => l.id === selected);
  return (
    <div class="two">
      <div>
        <label class="inline">
          <input type="checkbox" checked={coverage} onChange={(e) => setCoverage(e.currentTarget.checked)} /> Show coverage (radii and
          areas)
        </label>
        <WorldMap
          label={`Map of ${locations.length} public Locations`}
          points={pointsOf(locations, (id) => (id === selected ? 'selected' : undefined))}
          shapes={shapes}
          tileUrl={config.tileUrl}
          onSelect={setSelected}
          fit={{ key: 'all', positions: positionsOf(locations) }}
        />
        <p class="hint">
          {locations.length} public Location(s); nearby ones are grouped into numbered clusters until you zoom in. Coverage radii are
          geodesic circles.
        </p>
      </div>
      <aside aria-labelledby="sel-h" class="panel">
        <h2 id="sel-h">Selected Location</h2>
        {chosen === undefined ? (
          <p>Click a point on the map.</p>
        ) : (
          <div>
            <p>
              <strong>{chosen.name}</strong>
              <br />
              <code>{chosen.id}</code>
            </p>
            <p>
              {chosen.geo === null ? 'No coordinates.' : `${chosen.geo.latitude}, ${chosen.geo.longitude}`}
              <br />
              {chosen.radius !== null ? 'Has a delivery radius. ' : ''}
              {chosen.areas.length > 0 ? `${chosen.areas.length} coverage area(s).` : ''}
            </p>
            <ul class="links">
              <li>
                <a href={`#/hours?id=${encodeURIComponent(chosen.id)}`}>Hours of this Location</a>
              </li>
              <li>
                <button type="button" onClick={() => go('why', chosen.id)}>
                  Why is it (not) matched by the current request?
                </button>
              </li>
            </ul>
          </div>
        )}
      </aside>
    </div>
  );
}
