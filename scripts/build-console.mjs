#!/usr/bin/env node
// Bundles the operator console's web app (src/console/web) into dist/console/web with esbuild:
// one script, one stylesheet and the page, with the world basemap (world-atlas) inside the
// script, so the console needs no network at all. Part of `npm run build` and `prepack`.
// Plain JavaScript: it runs before anything is compiled.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const source = join(root, 'src', 'console', 'web');
const out = join(root, 'dist', 'console', 'web');
mkdirSync(out, { recursive: true });

await build({
  entryPoints: [join(source, 'main.tsx')],
  outfile: join(out, 'app.js'),
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'eof',
  logLevel: 'warning',
  tsconfig: join(source, 'tsconfig.json'),
});
copyFileSync(join(source, 'index.html'), join(out, 'index.html'));
copyFileSync(join(source, 'app.css'), join(out, 'app.css'));
