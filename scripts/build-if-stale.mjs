#!/usr/bin/env node
// `prestart`: build dist/ when it is missing or older than the sources, so `npm ci && npm start`
// works in a fresh clone without every `npm ci` (and every consumer install) running tsc.
// Plain JavaScript with no dependencies: it must run before anything is built.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const marker = join(root, 'dist', 'cli', 'main.js');
// The console's bundled web app (scripts/build-console.mjs) is part of the build too.
const consoleBundle = join(root, 'dist', 'console', 'web', 'app.js');

/** Newest modification time of the files the build reads (tests excluded: they are not built). */
function newestInput() {
  let newest = 0;
  const visit = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'test-support') visit(path);
      } else if (/\.(ts|tsx|css|html)$/.test(entry.name) && !entry.name.endsWith('.test.ts')) {
        newest = Math.max(newest, statSync(path).mtimeMs);
      }
    }
  };
  visit(join(root, 'src'));
  for (const config of ['tsconfig.json', 'tsconfig.build.json']) newest = Math.max(newest, statSync(join(root, config)).mtimeMs);
  return newest;
}

const reason =
  !existsSync(marker) || !existsSync(consoleBundle)
    ? 'dist/ is missing'
    : Math.min(statSync(marker).mtimeMs, statSync(consoleBundle).mtimeMs) < newestInput()
      ? 'src/ changed since the last build'
      : undefined;
if (reason === undefined) process.exit(0);

let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  if (existsSync(marker)) {
    process.stderr.write(`${reason}, but TypeScript is not installed (npm ci --omit=dev?): starting the existing build.\n`);
    process.exit(0);
  }
  process.stderr.write(`${reason} and TypeScript is not installed: run \`npm ci\` (with dev dependencies), then \`npm start\`.\n`);
  process.exit(1);
}

process.stderr.write(`${reason}: building it (tsc -p tsconfig.build.json)…\n`);
const started = Date.now();
const build = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) {
  process.stderr.write('the build failed (see above); fix it, or run `npm run build` to see the errors again.\n');
  process.exit(build.status ?? 1);
}
const bundle = spawnSync(process.execPath, [join(root, 'scripts', 'build-console.mjs')], { cwd: root, stdio: 'inherit' });
if (bundle.status !== 0) {
  process.stderr.write('bundling the console failed (see above); run `npm run build` to see the errors again.\n');
  process.exit(bundle.status ?? 1);
}
process.stderr.write(`built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
