/** The generated layer section of docs/architecture.md: where it sits and what it must say. */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderLayerSection } from './table.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const PAGE = join(ROOT, 'docs/architecture.md');
export const BEGIN = '<!-- generated: layers — from test/architecture/table.ts by `npm run docs:layers`; edit the table, not this -->';
export const END = '<!-- end generated: layers -->';

const isFolder = (layer: string): boolean => {
  const path = join(ROOT, 'src', layer);
  return existsSync(path) && statSync(path).isDirectory();
};

/** The text between the markers, or undefined when the page lacks them. */
export function layerSectionOf(page: string): string | undefined {
  const start = page.indexOf(BEGIN);
  const end = page.indexOf(END);
  return start < 0 || end < start ? undefined : page.slice(start + BEGIN.length, end);
}

/** The page with its layer section rendered from the table. */
export function withLayerSection(page: string): string {
  const start = page.indexOf(BEGIN);
  const end = page.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/architecture.md has no ${BEGIN} … ${END} markers`);
  return `${page.slice(0, start + BEGIN.length)}\n\n${renderLayerSection(isFolder)}\n${page.slice(end)}`;
}
