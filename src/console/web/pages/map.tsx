import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, type ConsoleConfig, type LocationCard } from '../api.js';
import { go } from '../routes.js';
import { pointsOf, positionsOf, useMapLocations } from '../locations.js';
import { WorldMap, type MapShape } from '../map.js';

/** The selected point: what an operator checks first (address, today's hours, amenities). */
function PointPanel({ id }: { id: string }) {
  const [card, setCard] = useState<LocationCard | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setCard(null);
    api<LocationCard>(`/api/location?id=${encodeURIComponent(id)}`).then(
      (c) => {
        setCard(c);
        setError(null);
      },
      (e: Error) => setError(e.message),
    );
  }, [id]);
  if (error !== null) return <p role="alert">{error}</p>;
  if (card === null) return <p aria-live="polite">Loading…</p>;
  return (
    <div class="card" data-testid="point-panel">
      <p>
        <strong>{card.name}</strong>
        <br />
        <code>{card.id}</code>
      </p>
      <dl>
        <dt>Address</dt>
        <dd data-testid="card-address">{card.address ?? 'No street address'}</dd>
        <dt>Now</dt>
        <dd data-testid="card-hours" class={`state ${card.hours.state}`}>
          {card.hours.text}
        </dd>
        <dt>Today</dt>
        <dd data-testid="card-today">
          {card.today ?? 'unknown'}
          {card.timezone !== null ? ` (${card.timezone})` : ''}
        </dd>
        <dt>Amenities</dt>
        <dd data-testid="card-amenities">
          {card.amenities.length === 0 ? (
            'none listed'
          ) : (
            <ul>
              {card.amenities.map((a) => (
                <li key={a.id}>
                  {a.description ?? a.id} <code>{a.id}</code>
                </li>
              ))}
            </ul>
          )}
        </dd>
        <dt>Position</dt>
        <dd>{card.geo === null ? 'No coordinates' : `${card.geo.latitude.toFixed(5)}, ${card.geo.longitude.toFixed(5)}`}</dd>
      </dl>
      <ul class="links">
        <li>
          <a href={`#/hours?id=${encodeURIComponent(card.id)}`}>The week's hours</a>
        </li>
        <li>
          <button type="button" onClick={() => go('why', card.id)}>
            Why is it (not) matched by the current request?
          </button>
        </li>
      </ul>
    </div>
  );
}

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
          {locations.length} public Location(s); nearby ones are grouped into numbered clusters (click one to zoom until it splits).
          Coverage radii are geodesic circles.
        </p>
      </div>
      <aside aria-labelledby="sel-h" class="panel">
        <h2 id="sel-h">Selected Location</h2>
        {selected === null ? <p>Click a point on the map.</p> : <PointPanel id={selected} />}
      </aside>
    </div>
  );
}
