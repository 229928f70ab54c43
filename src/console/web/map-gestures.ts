/**
 * How the world map answers the keyboard and the mouse: arrows pan, + and − zoom, Enter picks the
 * centre; the wheel zooms towards the pointer; a drag pans; a click that did not drag picks a point.
 */
import type { RefObject } from 'preact';
import { useRef } from 'preact/hooks';
import { HEIGHT, WIDTH, pannedView, projectionFor, zoomedView, type View } from './map-view.js';

const KEY_PAN_PX = 80;
/** Pointer travel, canvas px, before a press counts as a drag rather than a click. */
const DRAG_THRESHOLD_PX = 4;

interface Gestures {
  onKeyDown: (e: KeyboardEvent) => void;
  onWheel: (e: WheelEvent) => void;
  onMouseDown: (e: MouseEvent) => void;
  onMouseMove: (e: MouseEvent) => void;
  onMouseUp: (e: MouseEvent) => void;
  onMouseLeave: () => void;
}

export function useMapGestures(
  view: View,
  setView: (update: View | ((v: View) => View)) => void,
  svg: RefObject<SVGSVGElement>,
  onPick: ((lat: number, lon: number) => void) | undefined,
): Gestures {
  const drag = useRef<{ x: number; y: number; view: View; moved: boolean } | null>(null);
  const projection = projectionFor(view);
  /** Canvas px per CSS px (the SVG scales with its box). */
  const scale = (): number => {
    const r = svg.current?.getBoundingClientRect();
    return r === undefined || r.width === 0 ? 1 : WIDTH / r.width;
  };
  const toSvg = (e: MouseEvent): [number, number] => {
    const r = svg.current?.getBoundingClientRect();
    if (r === undefined || r.width === 0) return [0, 0];
    return [((e.clientX - r.left) * WIDTH) / r.width, ((e.clientY - r.top) * HEIGHT) / r.height];
  };
  const keys: Record<string, () => void> = {
    ArrowLeft: () => setView((v) => pannedView(v, -KEY_PAN_PX, 0)),
    ArrowRight: () => setView((v) => pannedView(v, KEY_PAN_PX, 0)),
    ArrowUp: () => setView((v) => pannedView(v, 0, -KEY_PAN_PX)),
    ArrowDown: () => setView((v) => pannedView(v, 0, KEY_PAN_PX)),
    '+': () => setView((v) => zoomedView(v, 2)),
    '=': () => setView((v) => zoomedView(v, 2)),
    '-': () => setView((v) => zoomedView(v, 0.5)),
    Enter: () => onPick?.(view.lat, view.lon),
  };
  return {
    onKeyDown: (e) => {
      const act = keys[e.key];
      if (act === undefined) return;
      e.preventDefault();
      act();
    },
    onWheel: (e) => {
      e.preventDefault();
      const c = projection.invert?.(toSvg(e));
      const about: [number, number] | undefined =
        c === null || c === undefined ? undefined : [view.lon + (c[0] - view.lon) / 3, view.lat + (c[1] - view.lat) / 3];
      setView((v) => zoomedView(v, e.deltaY < 0 ? 1.5 : 1 / 1.5, about));
    },
    onMouseDown: (e) => {
      drag.current = { x: e.clientX, y: e.clientY, view, moved: false };
    },
    onMouseMove: (e) => {
      const d = drag.current;
      if (d === null) return;
      const dx = (e.clientX - d.x) * scale();
      const dy = (e.clientY - d.y) * scale();
      if (Math.abs(dx) + Math.abs(dy) > DRAG_THRESHOLD_PX) d.moved = true;
      if (d.moved) setView(pannedView(d.view, -dx, -dy));
    },
    onMouseUp: (e) => {
      const d = drag.current;
      drag.current = null;
      if (d === null || d.moved || onPick === undefined) return;
      const c = projection.invert?.(toSvg(e));
      if (c !== null && c !== undefined) onPick(Math.round(c[1] * 1e5) / 1e5, Math.round(c[0] * 1e5) / 1e5);
    },
    onMouseLeave: () => {
      drag.current = null;
    },
  };
}
