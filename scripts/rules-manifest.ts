/**
 * npm run rules:sync [-- --spec <SPEC.md> --manifest <manifest.json>]
 *
 * Copies the requirement list of ../shared/SPEC.md into test/rules/spec-requirements.txt and
 * rewrites test/rules/manifest.json from it: every rule id with its section, its first sentence
 * and a digest of its whole text. Without SPEC.md (a clone not beside shared/, the npm tarball) it
 * says so and leaves both alone: that is not an error, the committed copies are what tests and
 * `npm run rules` read. The flags exist for the script's own tests.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import {
  extractRequirements,
  loadManifest,
  MANIFEST_PATH,
  parseSpecRules,
  renderManifest,
  REQUIREMENTS_PATH,
  SPEC_PATH,
  specPresent,
} from './rules/spec.js';

function main(argv: string[]): number {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { spec: { type: 'string' }, manifest: { type: 'string' }, requirements: { type: 'string' } },
    }));
  } catch (error) {
    console.error(
      `${error instanceof Error ? error.message : String(error)}\nusage: npm run rules:sync [-- --spec <SPEC.md> --manifest <file> --requirements <file>]`,
    );
    return 2;
  }
  const spec = values.spec ?? SPEC_PATH;
  const manifestPath = values.manifest ?? MANIFEST_PATH;
  // Beside a --manifest given elsewhere (the script's tests), never over the committed copy.
  const requirementsPath =
    values.requirements ?? (values.manifest === undefined ? REQUIREMENTS_PATH : join(dirname(values.manifest), 'spec-requirements.txt'));
  const shown = relative(process.cwd(), manifestPath) || manifestPath;
  if (!specPresent(spec)) {
    console.log(`No SPEC.md at ${spec}: this checkout does not sit beside shared/. ${shown} is left as committed.`);
    return 0;
  }
  const requirements = extractRequirements(readFileSync(spec, 'utf8'));
  const rules = parseSpecRules(requirements);
  if (rules.length === 0) {
    console.error(`${spec} has no rule bullets ("- R-XX …"); refusing to write an empty manifest`);
    return 1;
  }
  let previousRequirements: string | undefined;
  try {
    previousRequirements = readFileSync(requirementsPath, 'utf8');
  } catch {
    // Not vendored yet: written below.
  }
  if (previousRequirements !== requirements) writeFileSync(requirementsPath, requirements);
  const next = renderManifest(rules);
  let before: Set<string> | undefined;
  let previous: string | undefined;
  try {
    previous = readFileSync(manifestPath, 'utf8');
    before = new Set(loadManifest(manifestPath).rules.map((r) => r.id));
  } catch {
    // No manifest yet, or an unreadable one: it is rewritten from SPEC.md either way.
  }
  if (previous === next) {
    console.log(`${shown} is up to date (${rules.length} rules).`);
    return 0;
  }
  writeFileSync(manifestPath, next);
  const after = new Set(rules.map((r) => r.id));
  const added = [...after].filter((id) => before !== undefined && !before.has(id));
  const removed = before === undefined ? [] : [...before].filter((id) => !after.has(id));
  const changes = [added.length > 0 ? `added ${added.join(', ')}` : '', removed.length > 0 ? `removed ${removed.join(', ')}` : ''].filter(
    Boolean,
  );
  console.log(`Wrote ${shown}: ${rules.length} rules${changes.length > 0 ? `; ${changes.join('; ')}` : ''}.`);
  if (removed.length > 0) console.log('Tests citing a removed id now fail; npm run rules lists them under "Unknown rule ids cited".');
  return 0;
}

process.exitCode = main(process.argv.slice(2));
