/**
 * The store port is the whole contract (issue #29): what only some stores can do is declared on
 * `LocationStore` (src/store/store.ts) as optional members, and nothing finds a capability by
 * casting a store or testing its shape at run time. And no class in src/store/ grows past 300
 * lines: an adapter is split into reads, writes and (PostgreSQL) its change feed instead.
 *
 * Read with the TypeScript compiler API. Each rule is also probed with a snippet that breaks it.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const MAX_CLASS_LINES = 300;

function sourceFiles(dir: string, withTests: boolean): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && (withTests || !/\.test\.tsx?$/.test(e.name)))
    .map((e) => join(e.parentPath, e.name));
}

function parse(name: string, text: string): ts.SourceFile {
  return ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true, name.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
}

function walk(node: ts.Node, visit: (n: ts.Node) => void): void {
  visit(node);
  node.forEachChild((child) => walk(child, visit));
}

/** The optional members of `LocationStore`, read from the port itself. */
function optionalCapabilities(port: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  walk(port, (n) => {
    if (!ts.isInterfaceDeclaration(n) || n.name.text !== 'LocationStore') return;
    for (const m of n.members) if (m.questionToken !== undefined && m.name !== undefined && ts.isIdentifier(m.name)) names.add(m.name.text);
  });
  return names;
}

/** Casts and run-time shape tests that discover a store capability, as `file:line text`. */
function capabilityDiscovery(file: ts.SourceFile, capabilities: Set<string>): string[] {
  const found: string[] = [];
  const where = (n: ts.Node): string => `${file.fileName}:${file.getLineAndCharacterOfPosition(n.getStart()).line + 1} ${n.getText()}`;
  // A cast discovers a capability when its type intersects a store with more, picks a capability
  // from the port (`Pick<LocationStore, 'caughtUp'>`), or adds one as a function it may lack
  // (`{ readiness?: () => … }`). A JSON shape with a `lastImport` field is no discovery.
  const namesCapability = (type: ts.TypeNode): boolean => {
    let found = false;
    let portNamed = false;
    walk(type, (t) => {
      if (ts.isTypeReferenceNode(t) && t.typeName.getText() === 'LocationStore') portNamed = true;
      if (ts.isIntersectionTypeNode(t) && t.types.some((u) => ts.isTypeReferenceNode(u) && u.typeName.getText() === 'LocationStore'))
        found = true;
      if ((ts.isPropertySignature(t) || ts.isMethodSignature(t)) && ts.isIdentifier(t.name) && capabilities.has(t.name.text)) {
        const callable = ts.isMethodSignature(t) || (t.type !== undefined && ts.isFunctionTypeNode(t.type));
        if (callable || t.questionToken !== undefined) found = true;
      }
    });
    walk(type, (t) => {
      if (portNamed && ts.isLiteralTypeNode(t) && ts.isStringLiteral(t.literal) && capabilities.has(t.literal.text)) found = true;
    });
    return found;
  };
  walk(file, (n) => {
    // `store as LocationStore & { readiness?: … }`, `store as Partial<Pick<…, 'caughtUp'>>`
    if ((ts.isAsExpression(n) || ts.isTypeAssertionExpression(n)) && namesCapability(n.type)) found.push(where(n));
    // `typeof store.readiness === 'function'`
    if (ts.isTypeOfExpression(n) && ts.isPropertyAccessExpression(n.expression) && capabilities.has(n.expression.name.text)) {
      found.push(where(n.parent));
    }
    // `'readiness' in store`
    if (
      ts.isBinaryExpression(n) &&
      n.operatorToken.kind === ts.SyntaxKind.InKeyword &&
      ts.isStringLiteral(n.left) &&
      capabilities.has(n.left.text)
    ) {
      found.push(where(n));
    }
  });
  return found;
}

/** Classes longer than the limit, as `file ClassName: N lines`. */
function longClasses(file: ts.SourceFile, max = MAX_CLASS_LINES): string[] {
  const found: string[] = [];
  walk(file, (n) => {
    if (!ts.isClassDeclaration(n) && !ts.isClassExpression(n)) return;
    const first = file.getLineAndCharacterOfPosition(n.getStart()).line;
    const last = file.getLineAndCharacterOfPosition(n.getEnd()).line;
    if (last - first + 1 > max) found.push(`${file.fileName} ${n.name?.text ?? '(anonymous)'}: ${last - first + 1} lines`);
  });
  return found;
}

const rel = (path: string): string => relative(ROOT, path).split(sep).join('/');
const PORT = parse('src/store/store.ts', readFileSync(join(ROOT, 'src/store/store.ts'), 'utf8'));
const CAPABILITIES = optionalCapabilities(PORT);

describe('architecture: the store port is the whole contract (#29)', () => {
  it('declares the optional capabilities on the port, each with a comment saying what a store without it does', () => {
    for (const name of ['pin', 'exportIndex', 'exportAvailability', 'readiness', 'changeFeed', 'caughtUp', 'lastImport', 'amenityIds']) {
      expect(CAPABILITIES).toContain(name);
    }
    walk(PORT, (n) => {
      if (!ts.isInterfaceDeclaration(n) || n.name.text !== 'LocationStore') return;
      const undocumented = n.members
        .filter((m) => m.questionToken !== undefined)
        .filter((m) => ts.getJSDocCommentsAndTags(m).length === 0)
        .map((m) => m.name?.getText());
      expect(undocumented).toEqual([]);
    });
  });

  it('no cast or shape test discovers a store capability, in src/ or test/', () => {
    const files = [...sourceFiles(join(ROOT, 'src'), true), ...sourceFiles(join(ROOT, 'test'), true)];
    const mentions = new RegExp(`\\b(${[...CAPABILITIES].join('|')})\\b`);
    const found = files.flatMap((f) => {
      const text = readFileSync(f, 'utf8');
      return mentions.test(text) ? capabilityDiscovery(parse(rel(f), text), CAPABILITIES) : [];
    });
    expect(found).toEqual([]);
  });

  it(`no class in src/store/ is longer than ${MAX_CLASS_LINES} lines`, () => {
    const found = sourceFiles(join(ROOT, 'src/store'), false).flatMap((f) => longClasses(parse(rel(f), readFileSync(f, 'utf8'))));
    expect(found).toEqual([]);
  });

  it('the rules find what they forbid (probes)', () => {
    const probe = (text: string): string[] => capabilityDiscovery(parse('probe.ts', text), CAPABILITIES);
    expect(probe('const own = store as LocationStore & { readiness?: () => Promise<unknown> };')).toHaveLength(1);
    expect(probe("const c = (store as Partial<Pick<LocationStore, 'caughtUp'>>).caughtUp;")).toHaveLength(1);
    expect(probe("if (typeof store.changeFeed === 'object') {}")).toHaveLength(1);
    expect(probe("if ('pin' in store) {}")).toHaveLength(1);
    expect(probe('const own = inner as { readiness?: () => Promise<unknown> };')).toHaveLength(1);
    expect(probe('await store.readiness?.(); const s = stores[0] as LocationStore;')).toEqual([]);
    expect(probe('const body = (await res.json()) as { lastImport: { warningCount: number } };')).toEqual([]);
    const long = `class Big {\n${'  x = 1;\n'.repeat(MAX_CLASS_LINES - 1)}}\n`;
    expect(longClasses(parse('big.ts', long))).toHaveLength(1);
    expect(longClasses(parse('ok.ts', `class Fits {\n${'  x = 1;\n'.repeat(MAX_CLASS_LINES - 2)}}\n`))).toEqual([]);
  });
});
