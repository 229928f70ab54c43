/**
 * The import graph of src/, read with the TypeScript compiler API from a tree of files given as
 * text (the real src/ or an edited copy held in memory, which is how the test proves that a
 * forbidden reach is caught without touching a real file).
 *
 * Every way a module can reach another is an edge: `import` / `export … from`, `import x =
 * require(…)`, `import('…')` calls, type-level `import('…').T`, and the functions made by
 * `createRequire` (called, or their `.resolve`). A reach the reader cannot follow — a computed
 * `import()`, a `createRequire` function called with anything but a string literal or handed on —
 * is a problem of its own rather than a silent gap.
 */
import { builtinModules } from 'node:module';
import { posix } from 'node:path';
import ts from 'typescript';

/** Files of src/: path relative to src/ (posix separators) → text; only .ts/.tsx texts are parsed. */
export type SourceTree = ReadonlyMap<string, string>;

export type EdgeKind = 'import' | 'export' | 'import-call' | 'import-type' | 'import-equals' | 'require' | 'require-resolve';

export interface Edge {
  /** Importing module, relative to src/ (`domain/hours.ts`). */
  from: string;
  line: number;
  kind: EdgeKind;
  /** Specifier as written. */
  spec: string;
  /** Erased at build time (`import type`, `export type`, `import('…').T`): no runtime reach. */
  typeOnly: boolean;
  /**
   * What the specifier names: a module of src/ (relative specifiers, and `ucp-location/…`
   * self-references mapped through package.json's exports), a Node built-in, or a package.
   */
  target:
    | { kind: 'internal'; path: string; exists: boolean; selfReference: boolean }
    | { kind: 'outside'; path: string }
    | { kind: 'node'; name: string; prefixed: boolean }
    | { kind: 'package'; name: string };
}

export interface ReadProblem {
  from: string;
  line: number;
  problem: string;
}

export interface Graph {
  modules: readonly string[];
  edges: readonly Edge[];
  problems: readonly ReadProblem[];
}

const SOURCE = /\.tsx?$/;
export const isTestFile = (path: string): boolean => /\.test\.tsx?$/.test(path);
export const isTestSupport = (path: string): boolean => path.split('/').includes('test-support');

/** Modules the graph covers: .ts/.tsx under src/, tests left out (their imports are the test's business). */
export function modulesOf(tree: SourceTree): string[] {
  return [...tree.keys()].filter((p) => SOURCE.test(p) && !p.endsWith('.d.ts') && !isTestFile(p)).sort();
}

const BUILTINS = new Set(builtinModules.filter((m) => !m.startsWith('_')));
const SELF = 'ucp-location';

/** package.json `exports` → src/ module; `./package.json` leaves src/. */
export type SelfExports = ReadonlyMap<string, string>;

export function selfExportsOf(packageJson: { exports?: Record<string, string | { default?: string }> }): SelfExports {
  const map = new Map<string, string>();
  for (const [subpath, target] of Object.entries(packageJson.exports ?? {})) {
    const file = typeof target === 'string' ? target : target.default;
    if (file === undefined) continue;
    const spec = subpath === '.' ? SELF : `${SELF}/${subpath.slice(2)}`;
    map.set(spec, file.startsWith('./dist/') ? file.slice('./dist/'.length).replace(/\.js$/, '.ts') : `../${file.slice(2)}`);
  }
  return map;
}

/** The src/ module a relative specifier names: `.js` written for a `.ts` or `.tsx` source. */
function resolveRelative(tree: SourceTree, from: string, spec: string): Edge['target'] {
  const joined = posix.normalize(posix.join(posix.dirname(from), spec));
  if (joined.startsWith('../') || joined === '..') return { kind: 'outside', path: joined };
  const candidates = [joined];
  if (/\.(?:m|c)?js$/.test(joined)) candidates.push(joined.replace(/\.(m|c)?js$/, '.$1ts'), joined.replace(/\.js$/, '.tsx'));
  if (joined.endsWith('.jsx')) candidates.push(joined.replace(/\.jsx$/, '.tsx'));
  const found = candidates.find((c) => tree.has(c));
  // Unresolved: judged by the path it names (the .ts it would be), so a typo cannot hide a reach.
  return { kind: 'internal', path: found ?? candidates[1] ?? joined, exists: found !== undefined, selfReference: false };
}

function classify(tree: SourceTree, self: SelfExports, from: string, spec: string): Edge['target'] {
  if (spec.startsWith('.')) return resolveRelative(tree, from, spec);
  if (spec === SELF || spec.startsWith(`${SELF}/`)) {
    const path = self.get(spec);
    if (path === undefined) return { kind: 'internal', path: spec, exists: false, selfReference: true };
    if (path.startsWith('../')) return { kind: 'outside', path };
    return { kind: 'internal', path, exists: tree.has(path), selfReference: true };
  }
  if (spec.startsWith('node:')) return { kind: 'node', name: spec, prefixed: true };
  const bare = spec.split('/')[0] ?? spec;
  if (BUILTINS.has(spec) || BUILTINS.has(bare)) return { kind: 'node', name: `node:${spec}`, prefixed: false };
  const parts = spec.split('/');
  return { kind: 'package', name: spec.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? spec) };
}

function literalText(node: ts.Node | undefined): string | undefined {
  return node !== undefined && ts.isStringLiteralLike(node) ? node.text : undefined;
}

/** Reads one module's reaches. */
export function readModule(tree: SourceTree, self: SelfExports, from: string): { edges: Edge[]; problems: ReadProblem[] } {
  const text = tree.get(from) ?? '';
  const source = ts.createSourceFile(
    from,
    text,
    ts.ScriptTarget.Latest,
    true,
    from.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const edges: Edge[] = [];
  const problems: ReadProblem[] = [];
  const lineOf = (node: ts.Node): number => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const add = (node: ts.Node, kind: EdgeKind, spec: string, typeOnly: boolean): void => {
    edges.push({ from, line: lineOf(node), kind, spec, typeOnly, target: classify(tree, self, from, spec) });
  };
  const problem = (node: ts.Node, what: string): void => {
    problems.push({ from, line: lineOf(node), problem: `${what}: \`${node.getText(source).slice(0, 80)}\`` });
  };

  /** Local names of `createRequire` (`import { createRequire as r } from 'node:module'` included). */
  const createRequireNames = new Set(['createRequire']);
  /** Names bound to a `createRequire(…)` result in this file (scope-blind on purpose: stricter, never laxer). */
  const requireNames = new Set<string>();
  const isCreateRequireCall = (node: ts.Node): node is ts.CallExpression =>
    ts.isCallExpression(node) &&
    ((ts.isIdentifier(node.expression) && createRequireNames.has(node.expression.text)) ||
      (ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'createRequire'));
  const collectNames = (node: ts.Node): void => {
    if (ts.isImportSpecifier(node) && (node.propertyName ?? node.name).text === 'createRequire') createRequireNames.add(node.name.text);
    ts.forEachChild(node, collectNames);
  };
  collectNames(source);
  const collectRequireNames = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && node.initializer !== undefined && isCreateRequireCall(node.initializer)) {
      if (ts.isIdentifier(node.name)) requireNames.add(node.name.text);
      const statement = node.parent.parent;
      if (ts.isVariableStatement(statement) && statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) {
        problem(node, 'a createRequire function exported (its callers could load anything)');
      }
    }
    ts.forEachChild(node, collectRequireNames);
  };
  collectRequireNames(source);

  /** A `require` function (a createRequire call, or a name bound to one) used at `fn`: it must be called with a literal. */
  const requireUse = (fn: ts.Expression): void => {
    const parent = fn.parent;
    if (ts.isCallExpression(parent) && parent.expression === fn) {
      const spec = literalText(parent.arguments[0]);
      if (spec === undefined) problem(parent, 'a createRequire function called with a computed argument');
      else add(parent, 'require', spec, false);
      return;
    }
    if (ts.isPropertyAccessExpression(parent) && parent.expression === fn && parent.name.text === 'resolve') {
      const call = parent.parent;
      if (ts.isCallExpression(call) && call.expression === parent) {
        const spec = literalText(call.arguments[0]);
        if (spec === undefined) problem(call, 'require.resolve from createRequire with a computed argument');
        else add(call, 'require-resolve', spec, false);
        return;
      }
    }
    problem(parent, 'a createRequire function handed on instead of called with a string literal');
  };

  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const spec = literalText(node.moduleSpecifier);
      if (spec !== undefined) {
        const clause = node.importClause;
        const allTypes =
          clause !== undefined &&
          (clause.isTypeOnly ||
            (clause.name === undefined &&
              clause.namedBindings !== undefined &&
              ts.isNamedImports(clause.namedBindings) &&
              clause.namedBindings.elements.length > 0 &&
              clause.namedBindings.elements.every((e) => e.isTypeOnly)));
        add(node, 'import', spec, allTypes);
      }
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier !== undefined) {
      const spec = literalText(node.moduleSpecifier);
      if (spec !== undefined) add(node, 'export', spec, node.isTypeOnly);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const spec = literalText(node.moduleReference.expression);
      if (spec === undefined) problem(node, 'a computed import = require()');
      else add(node, 'import-equals', spec, node.isTypeOnly);
    } else if (ts.isImportTypeNode(node)) {
      const spec = ts.isLiteralTypeNode(node.argument) ? literalText(node.argument.literal) : undefined;
      if (spec === undefined) problem(node, 'a type-level import() without a string literal');
      else add(node, 'import-type', spec, true);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const spec = literalText(node.arguments[0]);
      if (spec === undefined) problem(node, 'a computed import() (the reader cannot tell what it loads; use a string literal)');
      else add(node, 'import-call', spec, false);
    } else if (isCreateRequireCall(node)) {
      if (!(ts.isVariableDeclaration(node.parent) && node.parent.initializer === node && ts.isIdentifier(node.parent.name))) {
        requireUse(node);
      }
    } else if (ts.isIdentifier(node) && createRequireNames.has(node.text)) {
      const parent = node.parent;
      const named =
        ts.isImportSpecifier(parent) ||
        ((ts.isPropertyAccessExpression(parent) || ts.isPropertyAssignment(parent)) && parent.name === node);
      const called = ts.isCallExpression(parent) && parent.expression === node;
      if (!named && !called) problem(parent, 'createRequire handed on instead of called');
    } else if (ts.isIdentifier(node) && requireNames.has(node.text)) {
      const parent = node.parent;
      const declaring = ts.isVariableDeclaration(parent) && parent.name === node;
      const propertyName = (ts.isPropertyAccessExpression(parent) || ts.isPropertyAssignment(parent)) && parent.name === node;
      if (!declaring && !propertyName) requireUse(node);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { edges, problems };
}

/** One module's reading, kept with the text it was read from. */
export type ReadCache = Map<string, { text: string; edges: Edge[]; problems: ReadProblem[] }>;

/**
 * The graph of a tree. With `cache`, a module whose text is unchanged is not parsed again — valid
 * only across trees with the same file names (resolution depends on which files exist), as an
 * edited copy of src/ has.
 */
export function readGraph(tree: SourceTree, self: SelfExports, cache?: ReadCache): Graph {
  const modules = modulesOf(tree);
  const read = modules.map((m) => {
    const text = tree.get(m) ?? '';
    const hit = cache?.get(m);
    if (hit !== undefined && hit.text === text) return hit;
    const fresh = { text, ...readModule(tree, self, m) };
    cache?.set(m, fresh);
    return fresh;
  });
  return { modules, edges: read.flatMap((r) => r.edges), problems: read.flatMap((r) => r.problems) };
}
