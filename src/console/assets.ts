/**
 * The console's single-page app as files: built into dist/console/web by `npm run build`, so
 * nothing is fetched from the network, and served with a Content-Security-Policy that allows
 * nothing else (but the tile server an operator names).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '../errors.js';

/** The paths of the app, and the file each serves. */
export const ASSETS: Readonly<Record<string, string>> = {
  '/': 'index.html',
  '/index.html': 'index.html',
  '/app.js': 'app.js',
  '/app.css': 'app.css',
};

const TYPES: Readonly<Record<string, string>> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

/** The Content-Type of an asset file, by its extension. */
export function assetType(file: string): string {
  return TYPES[file.slice(file.lastIndexOf('.') + 1)] ?? 'application/octet-stream';
}

/** The folder holding the built app: `explicit`, else next to this module, else dist/console/web of the checkout. */
export function findAssets(explicit: string | undefined): string {
  const candidates =
    explicit !== undefined
      ? [explicit]
      : [fileURLToPath(new URL('./web/', import.meta.url)), fileURLToPath(new URL('../../dist/console/web/', import.meta.url))];
  for (const dir of candidates) if (existsSync(`${dir}/app.js`)) return dir;
  throw new ConfigError(`The console's web app is not built (looked in ${candidates.join(', ')}); run \`npm run build\` first.`);
}

/** The page's policy: its own scripts and styles only, images also from the tile server when one is set. */
export function contentSecurityPolicy(tileUrl: string | undefined): string {
  let tiles = '';
  if (tileUrl !== undefined) {
    try {
      tiles = ` ${new URL(tileUrl.replace(/[{}]/g, '')).origin}`;
    } catch {
      tiles = '';
    }
  }
  return `default-src 'self'; img-src 'self' data:${tiles}; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'`;
}
