/**
 * Which rules the tests say they verify, read from the test sources without running them.
 *
 * The convention: a test verifies the rule ids written in its title and in the titles of the
 * `describe` blocks around it (`it('is closed at the exact closing minute (R-H1)')`). A range
 * `R-H1..R-H4` stands for every id between. For `it.each(table)('… %s …')` titles that take text
 * from the table, ids written in the table's string literals count too. Titles are read with the
 * TypeScript parser, so only text written literally counts: an id assembled at run time
 * (`it(name)`, `${rule}`) is invisible here; write it out.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';

/** One place a rule id is written in a title (or an `.each` table feeding a title). */
export interface Citation {
  id: string;
  /** Repository-relative, forward slashes. */
  file: string;
  line: number;
}

/** One test (an `it`/`test` call) and the ids it declares, its own and its describes'. */
export interface TestCase {
  file: string;
  line: number;
  /** The describe titles and the test title joined with ` > `, as written in the source. */
  title: string;
  ids: string[];
  /** `it.skip` / `it.todo` declare nothing verified; they are still checked for unknown ids. */
  skipped: boolean;
}

export interface ScanResult {
  tests: TestCase[];
  citations: Citation[];
}

/** `R-S4`, and ranges `R-H1..R-H4` (also with an en dash) within one letter group. */
const ID_OR_RANGE = /\bR-([A-Z]{1,3})([0-9]+)(?:\s*(?:\.\.|–)\s*R-\1([0-9]+))?\b/g;

/** The rule ids written in a piece of text, ranges expanded, each with its offset in the text. */
export function idsInText(text: string): { id: string; index: number }[] {
  const found: { id: string; index: number }[] = [];
  for (const m of text.matchAll(ID_OR_RANGE)) {
    const [, letters, from, to] = m;
    const start = Number(from);
    const end = to === undefined ? start : Number(to);
    // A reversed range is a typo: report its ends so the unknown-id check does not silently pass it.
    if (end < start) found.push({ id: `R-${letters}${from}`, index: m.index }, { id: `R-${letters}${to}`, index: m.index });
    else for (let n = start; n <= end; n++) found.push({ id: `R-${letters}${n}`, index: m.index });
  }
  return found;
}

const GROUPS = new Map([
  ['describe', 0],
  ['suite', 0],
  // test/support/services.ts: describeWith(services, title, body).
  ['describeWith', 1],
]);
const TESTS = new Set(['it', 'test']);
const MODIFIERS = new Set(['skip', 'only', 'todo', 'fails', 'concurrent', 'sequential', 'shuffle', 'each', 'for', 'runIf', 'skipIf']);

interface Callee {
  base: string;
  modifiers: Set<string>;
  table: ts.Expression | undefined;
}

/** `it`, `it.skip`, `it.each(table)`, `describe.runIf(x).each(t)`… → base name, modifiers, table. */
function readCallee(expr: ts.Expression): Callee | undefined {
  const modifiers = new Set<string>();
  let table: ts.Expression | undefined;
  let node = expr;
  for (;;) {
    if (ts.isIdentifier(node)) return { base: node.text, modifiers, table };
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const name = node.expression.name.text;
      if (!['each', 'for', 'runIf', 'skipIf'].includes(name)) return undefined;
      modifiers.add(name);
      if (name === 'each' || name === 'for') table = node.arguments[0];
      node = node.expression.expression;
    } else if (ts.isPropertyAccessExpression(node) && MODIFIERS.has(node.name.text)) {
      modifiers.add(node.name.text);
      node = node.expression;
    } else {
      return undefined;
    }
  }
}

/** The string literals inside an expression (template literal parts included), in order. */
function literalsIn(node: ts.Node): ts.Node[] {
  const out: ts.Node[] = [];
  const visit = (n: ts.Node): void => {
    if (
      ts.isStringLiteral(n) ||
      ts.isNoSubstitutionTemplateLiteral(n) ||
      ts.isTemplateHead(n) ||
      ts.isTemplateMiddle(n) ||
      ts.isTemplateTail(n)
    ) {
      out.push(n);
    }
    ts.forEachChild(n, visit);
  };
  visit(node);
  return out;
}

function literalText(n: ts.Node): string {
  return ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateLiteralToken(n) ? n.text : '';
}

/** The initializer of `const name = …` in this file, so `it.each(cases)` can read `cases`. */
function declarationOf(source: ts.SourceFile, name: string): ts.Expression | undefined {
  let found: ts.Expression | undefined;
  const visit = (n: ts.Node): void => {
    if (found !== undefined) return;
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.name.text === name && n.initializer !== undefined)
      found = n.initializer;
    else ts.forEachChild(n, visit);
  };
  visit(source);
  return found;
}

/** A title as written: literal text, a template with its `${…}` parts as source, anything else as source. */
function titleText(node: ts.Expression, source: ts.SourceFile): string {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return node.getText(source).slice(1, -1);
  return node.getText(source);
}

/** The names a `const [a, {b}] of …` binding introduces. */
function boundNames(name: ts.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((e) => (ts.isOmittedExpression(e) ? [] : boundNames(e.name)));
}

/**
 * For a template title such as `rejects: ${rule}` inside `for (const [rule, …] of TABLE)`, the
 * iterated expression (TABLE): the title's text comes from it. Undefined for any other title.
 */
function loopTableOf(title: ts.Expression): ts.Expression | undefined {
  if (!ts.isTemplateExpression(title)) return undefined;
  const used = new Set<string>();
  const collect = (n: ts.Node): void => {
    if (ts.isIdentifier(n)) used.add(n.text);
    ts.forEachChild(n, collect);
  };
  for (const span of title.templateSpans) collect(span.expression);
  for (let n: ts.Node | undefined = title.parent; n !== undefined; n = n.parent) {
    if (!ts.isForOfStatement(n) || !ts.isVariableDeclarationList(n.initializer)) continue;
    const names = n.initializer.declarations.flatMap((d) => boundNames(d.name));
    if (names.some((name) => used.has(name))) return n.expression;
  }
  return undefined;
}

/** Reads one test source. `file` is the repository-relative name used in results. */
export function scanSource(file: string, text: string): ScanResult {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const tests: TestCase[] = [];
  const citations: Citation[] = [];
  const lineOf = (pos: number): number => source.getLineAndCharacterOfPosition(pos).line + 1;

  /** Ids in the literals of `node`, recorded as citations; returned for the test's declaration. */
  const cite = (node: ts.Node): string[] => {
    const ids: string[] = [];
    for (const lit of literalsIn(node)) {
      const body = literalText(lit);
      for (const { id, index } of idsInText(body)) {
        ids.push(id);
        citations.push({ id, file, line: lineOf(lit.getStart(source)) + (body.slice(0, index).match(/\n/g)?.length ?? 0) });
      }
    }
    return ids;
  };

  const visit = (node: ts.Node, titles: string[], inherited: string[]): void => {
    if (ts.isCallExpression(node)) {
      const callee = readCallee(node.expression);
      const titleIndex = callee === undefined ? undefined : (GROUPS.get(callee.base) ?? (TESTS.has(callee.base) ? 0 : undefined));
      const titleNode = titleIndex === undefined ? undefined : node.arguments[titleIndex];
      if (callee !== undefined && titleNode !== undefined && literalsIn(titleNode).length > 0) {
        const title = titleText(titleNode, source);
        const own = cite(titleNode);
        // `%s`, `%i`, `$name`…: the title takes text from the table, so ids written there count.
        // Likewise `${rule}` in a test made by `for (const [rule, …] of TABLE)`.
        const table = callee.table !== undefined && /%[sdifjoO#%]|\$[A-Za-z_#]/.test(title) ? callee.table : loopTableOf(titleNode);
        if (table !== undefined) own.push(...cite(ts.isIdentifier(table) ? (declarationOf(source, table.text) ?? table) : table));
        const ids = [...new Set([...inherited, ...own])];
        if (GROUPS.has(callee.base)) {
          for (const arg of node.arguments) if (arg !== titleNode) visit(arg, [...titles, title], ids);
          return;
        }
        const skipped = callee.modifiers.has('skip') || callee.modifiers.has('todo');
        tests.push({ file, line: lineOf(titleNode.getStart(source)), title: [...titles, title].join(' > '), ids, skipped });
        return;
      }
    }
    ts.forEachChild(node, (child) => visit(child, titles, inherited));
  };
  visit(source, [], []);
  return { tests, citations };
}

const SCANNED_DIRS = ['src', 'test', 'bench'];

/** Every .ts file under src/, test/ and bench/ that imports vitest (tests and test-defining helpers). */
export function testSources(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir)) {
      if (entry === 'node_modules' || entry.startsWith('.')) continue;
      const full = join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (entry.endsWith('.ts') && /\bfrom\s+['"]vitest['"]/.test(readFileSync(full, 'utf8'))) out.push(full);
    }
  };
  for (const dir of SCANNED_DIRS) {
    const full = join(root, dir);
    if (statSync(full, { throwIfNoEntry: false })?.isDirectory() === true) walk(full);
  }
  return out.sort();
}

/** Scans every test source of the repository at `root`. */
export function scanRepository(root: string): ScanResult {
  const tests: TestCase[] = [];
  const citations: Citation[] = [];
  for (const full of testSources(root)) {
    const file = relative(root, full).split(sep).join('/');
    const result = scanSource(file, readFileSync(full, 'utf8'));
    tests.push(...result.tests);
    citations.push(...result.citations);
  }
  return { tests, citations };
}
