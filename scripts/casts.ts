/**
 * npm run casts [-- --check | --write | --list [FOLDER]]
 *
 * Type assertions (`x as T` other than `as const`, and `<T>x`) in the shipped code — src/ without
 * tests and test-support/ — counted per folder from the TypeScript syntax tree, against the budget
 * committed in scripts/casts/budget.json. A cast says "trust me" where a type guard, a
 * discriminated union or a typed return could prove it; the budget makes every new one a reviewed
 * change.
 *
 *   (no flag)  the counts beside the budget
 *   --check    exit 1 when a folder is over its budget (npm run check runs this)
 *   --write    set the budget to today's counts (commit it with the change that moved them)
 *   --list     every cast, as file:line and its text (only under FOLDER when given)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Budget, compareWithBudget, listCasts, parseBudget, renderBudget } from './casts/budget.js';
import { castsByFolder } from './casts/count.js';
import { parseScriptArgs } from './script-args.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = join(ROOT, 'src');
const BUDGET_PATH = join(ROOT, 'scripts/casts/budget.json');

const USAGE = 'usage: npm run casts -- [--check | --write | --list [FOLDER]]';

function main(argv: string[]): number {
  const parsed = parseScriptArgs(argv, { check: { type: 'boolean' }, write: { type: 'boolean' }, list: { type: 'boolean' } }, USAGE);
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  if (values.list === true) {
    for (const cast of listCasts(SRC, positionals[0])) console.log(`src/${cast.file}:${cast.line}  ${cast.text}`);
    return 0;
  }
  const counts = castsByFolder(SRC);
  if (values.write === true) {
    writeFileSync(BUDGET_PATH, renderBudget(counts));
    console.log(`Wrote scripts/casts/budget.json: ${Object.values(counts).reduce((a, b) => a + b, 0)} casts.`);
    return 0;
  }
  let budget: Budget;
  try {
    budget = parseBudget(readFileSync(BUDGET_PATH, 'utf8'));
  } catch (error) {
    console.error(`scripts/casts/budget.json: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  const report = compareWithBudget(counts, budget);
  for (const line of report.lines) console.log(line);
  if (report.over.length > 0) {
    console.error(
      `\n${report.over.length} folder(s) over the cast budget: ${report.over.join(', ')}.\n` +
        'Prefer a type guard, a discriminated union or a typed return (npm run casts -- --list FOLDER shows each cast).\n' +
        'If the cast is truly the right tool, raise the budget with `npm run casts -- --write` and say why in the commit.',
    );
    return values.check === true ? 1 : 0;
  }
  return 0;
}

process.exitCode = main(process.argv.slice(2));
