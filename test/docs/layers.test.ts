/**
 * docs/architecture.md draws the layers from the same table the architecture test enforces
 * (test/architecture/table.ts): the generated section must be what the table renders today.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { layerSectionOf, PAGE, withLayerSection } from '../architecture/doc-section.js';
import { LAYERS } from '../architecture/table.js';

describe('docs/architecture.md: the layer section', () => {
  const page = readFileSync(PAGE, 'utf8');

  it('is what the layer table renders (run npm run docs:layers after changing the table)', () => {
    expect(layerSectionOf(page), 'docs/architecture.md: the layer section is out of date; run npm run docs:layers').toBe(
      layerSectionOf(withLayerSection(page)),
    );
  });

  it('names every layer of the table, agent/, server.ts and trusted-profiles.ts included', () => {
    const section = layerSectionOf(page) ?? '';
    for (const name of ['`agent/`', '`server.ts`', '`trusted-profiles.ts`']) expect(section).toContain(name);
    for (const layer of Object.keys(LAYERS)) expect(section).toMatch(new RegExp(`\\| \`${layer}(/|\\.ts)\` \\|`));
  });

  it('draws no import the table does not allow (the old cli → transport → service stack is gone)', () => {
    expect(page).not.toMatch(/cli\/[^\n]*\n\s*↓\s*\n\s*transport\//);
  });
});
