/** What a page hands the world map: points, shapes (radii, areas, the search circle) and pins. */
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
