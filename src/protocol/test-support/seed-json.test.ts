import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LOCATION_MCP_SEED, OVERVIEW_SEED, scanSeed, seedJsonExamples, seedsPresent, SNAPSHOT } from './seed-json.js';

describe('seed JSON examples', () => {
  // Beside shared/ the snapshot must be exactly what the seeds yield; to regenerate it, write
  // {file: scanSeed(file)} for both seeds to seed-examples.json (2-space JSON, final newline).
  it.runIf(seedsPresent())('the snapshot used by clones without ../shared/seeds is what the seeds yield', () => {
    const snapshot = JSON.parse(readFileSync(SNAPSHOT, 'utf8')) as unknown;
    expect(snapshot).toEqual({ [LOCATION_MCP_SEED]: scanSeed(LOCATION_MCP_SEED), [OVERVIEW_SEED]: scanSeed(OVERVIEW_SEED) });
  });

  it('finds the envelope examples of both seeds, seeds present or not', () => {
    expect(seedJsonExamples(LOCATION_MCP_SEED).some((e) => e['method'] === 'tools/call')).toBe(true);
    expect(seedJsonExamples(OVERVIEW_SEED).length).toBeGreaterThan(0);
  });
});
