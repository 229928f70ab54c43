/**
 * npm run docs:layers [-- --check]
 *
 * Writes the layer section of docs/architecture.md (between its `generated: layers` markers) from
 * the layer table the architecture test enforces (test/architecture/table.ts), so the page cannot
 * draw an import the code does not have. test/docs/layers.test.ts fails when the two differ.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { layerSectionOf, PAGE, withLayerSection } from '../test/architecture/doc-section.js';

const page = readFileSync(PAGE, 'utf8');
const next = withLayerSection(page);
if (process.argv.includes('--check')) {
  if (layerSectionOf(page) !== layerSectionOf(next)) {
    console.error('docs/architecture.md: the layer section is out of date; run npm run docs:layers');
    process.exitCode = 1;
  }
} else if (next !== page) {
  writeFileSync(PAGE, next);
  console.log('docs/architecture.md: layer section rewritten from test/architecture/table.ts');
} else {
  console.log('docs/architecture.md: layer section up to date');
}
