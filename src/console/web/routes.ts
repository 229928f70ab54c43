/**
 * The console's pages and their URL hashes (`#/why?id=…`): read by the shell (app.tsx) and
 * followed by pages that link to another page, without either importing the other.
 */
export const PAGES = [
  ['overview', 'Overview'],
  ['map', 'Map'],
  ['playground', 'Playground'],
  ['why', 'Why not matched'],
  ['hours', 'Hours'],
  ['import', 'Import'],
] as const;
export type PageName = (typeof PAGES)[number][0];

/** The page and Location id the current hash names (the overview when it names no page). */
export function parseHash(): { page: PageName; id: string } {
  const [name, query] = window.location.hash.replace(/^#\/?/, '').split('?');
  const page = PAGES.find((p) => p[0] === name)?.[0] ?? 'overview';
  return { page, id: new URLSearchParams(query ?? '').get('id') ?? '' };
}

/** Opens `page`, about the Location `id` when given. */
export function go(page: PageName, id?: string): void {
  window.location.hash = `#/${page}${id !== undefined && id !== '' ? `?id=${encodeURIComponent(id)}` : ''}`;
}
