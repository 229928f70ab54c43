/** The dataset's Locations for maps and pickers, fetched once per page visit. */
import { useEffect, useState } from 'preact/hooks';
import { api, type MapLocation } from './api.js';
import type { MapPoint } from './map-types.js';

export function useMapLocations(): { locations: MapLocation[] | null; error: string | null } {
  const [locations, setLocations] = useState<MapLocation[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api<{ locations: MapLocation[] }>('/api/map').then(
      (r) => setLocations(r.locations),
      (e: Error) => setError(e.message),
    );
  }, []);
  return { locations, error };
}

export function pointsOf(locations: readonly MapLocation[], tone: (id: string) => MapPoint['tone']): MapPoint[] {
  const out: MapPoint[] = [];
  for (const l of locations) {
    if (l.geo === null) continue;
    const t = tone(l.id);
    const p: MapPoint = { id: l.id, name: l.name, lat: l.geo.latitude, lon: l.geo.longitude };
    if (t !== undefined) p.tone = t;
    out.push(p);
  }
  return out;
}

export function positionsOf(locations: readonly MapLocation[]): [number, number][] {
  return locations.flatMap((l) => (l.geo === null ? [] : [[l.geo.longitude, l.geo.latitude] as [number, number]]));
}
