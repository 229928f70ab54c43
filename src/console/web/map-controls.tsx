/** The world map's buttons and the note that the offline outlines are too coarse at street zoom. */

interface ToolsProps {
  zoomBy: (factor: number) => void;
  fit: () => void;
  world: () => void;
  /** The map picks a point on click (the hint says so). */
  picks: boolean;
}

export function MapTools({ zoomBy, fit, world, picks }: ToolsProps) {
  return (
    <div class="map-tools" role="group" aria-label="Map view">
      <button type="button" onClick={() => zoomBy(2)}>
        Zoom in
      </button>
      <button type="button" onClick={() => zoomBy(0.5)}>
        Zoom out
      </button>
      <button type="button" onClick={fit}>
        Fit
      </button>
      <button type="button" onClick={world}>
        World
      </button>
      <span class="hint">
        {picks ? 'Click the map (or press Enter) to pick a point; arrows pan, + and − zoom.' : 'Arrows pan, + and − zoom.'}
      </span>
    </div>
  );
}

export function BasemapNote() {
  return (
    <p class="map-note" role="status" data-testid="basemap-note">
      The built-in offline map is too coarse at this zoom: coastlines, rivers and borders can be a kilometre off, so a point may seem to sit
      in water (the points themselves are exact). For street detail, start the console with{' '}
      <code>--tile-url https://…/{'{z}/{x}/{y}'}.png</code> (a tile server you are allowed to use).
    </p>
  );
}
