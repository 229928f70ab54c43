/**
 * Layering, checked from the import statements of src/ (ARCHITECTURE.md, habit 1). One table says,
 * for every top-level entry of src/ (folder or file), what it may import; everything else here
 * checks the code against the table, or the table against itself:
 *
 *   core:      errors, logging ← protocol ← domain
 *   business:  store ← service, data ← config ← transport (types only) ← server
 *              (shared-state: Redis adapters for the server's caches and rate limits)
 *   platform:  client ← conformance, agent
 *   entry:     cli (may start either side), index (the package root: pure helpers only)
 *
 * The two sides never import each other, whatever the table says (a test checks the table).
 * A new top-level folder fails the suite until it has a row: where it sits is a decision.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

type Side = 'core' | 'business' | 'platform' | 'entry';

interface LayerRule {
  side: Side;
  /**
   * What this layer may import (besides itself): a layer name allows any module in it; a path
   * relative to src/ (`store/store.ts`) allows that one module — used where a layer has a public
   * face and internals (the store port and each adapter's index.ts).
   */
  imports: readonly string[];
  /** Allowed only as `import type` / `export type` (erased at build time, so no runtime reach). */
  typeImports?: readonly string[];
}

/** The public faces of store/: the port, and each adapter's entry point. Nothing else outside store/ may import store internals. */
const STORE_PORT = 'store/store.ts';
const STORE_ADAPTERS = ['store/sqlite/index.ts', 'store/postgres/index.ts', 'store/memory-index/index.ts'];
const CORE = ['errors', 'logging', 'protocol', 'domain'];

const LAYERS: Readonly<Record<string, LayerRule>> = {
  // ── core: role-neutral, imported by both sides ──
  errors: { side: 'core', imports: [] },
  logging: { side: 'core', imports: ['errors'] },
  protocol: { side: 'core', imports: ['errors'] },
  domain: { side: 'core', imports: ['errors', 'protocol'] },
  // ── business side ──
  store: { side: 'business', imports: ['errors', 'protocol', 'domain'] },
  service: { side: 'business', imports: ['errors', 'protocol', 'domain', STORE_PORT] },
  data: { side: 'business', imports: ['errors', 'protocol', 'domain', STORE_PORT] },
  'shared-state': { side: 'business', imports: ['errors', 'protocol'] },
  config: { side: 'business', imports: [...CORE, 'service'] },
  // Platform profiles a Business pre-approves from files (serve --trust-platform-profile).
  'trusted-profiles': { side: 'business', imports: ['errors', 'protocol'], typeImports: ['config'] },
  // Transports see the engine only through the interfaces in transport/operations.ts: no store,
  // no service, no data; the server's settings only as types.
  transport: { side: 'business', imports: CORE, typeImports: ['config'] },
  // The composition root of a Business: wires config, store adapter, service and transports.
  server: {
    side: 'business',
    imports: [
      ...CORE,
      STORE_PORT,
      ...STORE_ADAPTERS,
      'shared-state/index.ts',
      'service',
      'data',
      'config',
      'trusted-profiles',
      'transport',
    ],
  },
  // The operator console (ucp-location console): pages and a JSON API over the same service the
  // transports call, and the CLI's own import path (data/) for the import page.
  console: { side: 'business', imports: [...CORE, STORE_PORT, 'service', 'config', 'data'] },
  // ── platform side ──
  client: { side: 'platform', imports: ['errors', 'protocol', 'domain'] },
  conformance: { side: 'platform', imports: ['errors', 'protocol', 'domain', 'client'] },
  // The agent bridge: an MCP server for LLM hosts built on client/ (never the Business's store, service or transports).
  agent: { side: 'platform', imports: [...CORE, 'client'] },
  // ── entry points ──
  cli: {
    side: 'entry',
    imports: [...CORE, STORE_PORT, ...STORE_ADAPTERS, 'data', 'server', 'trusted-profiles', 'client', 'conformance', 'agent', 'console'],
  },
  // The package root: types, errors and pure helpers (a Platform-only user never loads a store).
  index: { side: 'entry', imports: ['errors', 'protocol', 'domain'] },
};

/**
 * Folders holding interchangeable adapters: a subfolder never imports a sibling subfolder (shared
 * code moves up to the parent, as store/record-rows.ts did). `test-support/` is not an adapter.
 */
const ADAPTER_PARENTS = ['store', 'transport', 'shared-state'];

// ───────────────────────── import graph ─────────────────────────

interface ImportEdge {
  /** Importing module, relative to src/ (`domain/hours.ts`). */
  from: string;
  /** Specifier as written. */
  spec: string;
  /** Resolved module relative to src/ for relative specifiers (may start with `..` when it leaves src/); null for packages. */
  target: string | null;
  /** `import type` / `export type`: erased at build time. */
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return full.endsWith('.ts') && !full.endsWith('.test.ts') ? [full] : [];
  });
}

/** Every static import / re-export and every `import('…')` with a literal specifier, from the syntax tree. */
function importsOf(file: string): ImportEdge[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const from = relative(SRC, file);
  const edges: ImportEdge[] = [];
  const add = (spec: string, typeOnly: boolean): void => {
    const target = spec.startsWith('.') ? relative(SRC, resolve(dirname(file), spec)).replace(/\.js$/, '.ts') : null;
    edges.push({ from, spec, target, typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, node.importClause?.isTypeOnly === true);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, node.isTypeOnly);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg !== undefined && ts.isStringLiteralLike(arg)) add(arg.text, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

const files = sourceFiles(SRC);
const edges = files.flatMap(importsOf);
const internal = edges.filter((e): e is ImportEdge & { target: string } => e.target !== null);

/** Top-level entry of a path relative to src/: `domain/hours.ts` → `domain`, `errors.ts` → `errors`. */
function layerOf(path: string): string {
  const [first = '', ...rest] = path.split('/');
  return rest.length > 0 ? first : first.replace(/\.ts$/, '');
}

function allows(entries: readonly string[] | undefined, target: string): boolean {
  return (entries ?? []).some((a) => (a.includes('/') ? a === target : a === layerOf(target)));
}

function show(e: ImportEdge): string {
  return `${e.from} → ${e.spec}${e.typeOnly ? ' (type)' : ''}`;
}

// ───────────────────────── the table against itself ─────────────────────────

describe('architecture: the layer table', () => {
  it('has a row for every top-level entry of src/ (classify a new folder or file before using it)', () => {
    const entries = readdirSync(SRC)
      .filter((name) => statSync(join(SRC, name)).isDirectory() || (name.endsWith('.ts') && !name.endsWith('.test.ts')))
      .map((name) => name.replace(/\.ts$/, ''));
    expect(entries.filter((name) => !(name in LAYERS))).toEqual([]);
  });

  it('names only layers that have a row, and modules that exist', () => {
    const bad = Object.entries(LAYERS).flatMap(([layer, rule]) =>
      [...rule.imports, ...(rule.typeImports ?? [])]
        .filter((a) => !(layerOf(a) in LAYERS) || (a.includes('/') && !existsSync(join(SRC, a))))
        .map((a) => `${layer} → ${a}`),
    );
    expect(bad).toEqual([]);
  });

  it('keeps the business side and the platform side apart (neither may import the other)', () => {
    const crossing = Object.entries(LAYERS).flatMap(([layer, rule]) =>
      [...rule.imports, ...(rule.typeImports ?? [])]
        .filter((a) => {
          const other = LAYERS[layerOf(a)]?.side;
          return (rule.side === 'business' && other === 'platform') || (rule.side === 'platform' && other === 'business');
        })
        .map((a) => `${layer} (${rule.side}) → ${a}`),
    );
    expect(crossing).toEqual([]);
  });

  it('lets core layers import only core layers, and nothing import an entry point', () => {
    const bad = Object.entries(LAYERS).flatMap(([layer, rule]) =>
      [...rule.imports, ...(rule.typeImports ?? [])]
        .filter((a) => {
          const other = LAYERS[layerOf(a)]?.side;
          return other === 'entry' || (rule.side === 'core' && other !== 'core');
        })
        .map((a) => `${layer} → ${a}`),
    );
    expect(bad).toEqual([]);
  });

  it('is acyclic: layers import downward only', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const walk = (layer: string, path: string[]): void => {
      if (state.get(layer) === 'done') return;
      if (state.get(layer) === 'open') {
        cycles.push([...path.slice(path.indexOf(layer)), layer].join(' → '));
        return;
      }
      state.set(layer, 'open');
      const rule = LAYERS[layer];
      for (const a of [...(rule?.imports ?? []), ...(rule?.typeImports ?? [])]) walk(layerOf(a), [...path, layer]);
      state.set(layer, 'done');
    };
    for (const layer of Object.keys(LAYERS)) walk(layer, []);
    expect(cycles).toEqual([]);
  });
});

// ───────────────────────── the code against the table ─────────────────────────

describe('architecture: imports follow the layer table', () => {
  it('every import between top-level entries is allowed by the importing layer’s row', () => {
    const offending = internal
      .filter((e) => layerOf(e.from) !== layerOf(e.target) && !e.target.startsWith('..'))
      .filter((e) => {
        const rule = LAYERS[layerOf(e.from)];
        if (rule === undefined) return false; // reported by the table test
        return !allows(rule.imports, e.target) && !(e.typeOnly && allows(rule.typeImports, e.target));
      })
      .map((e) => `${show(e)}   [${layerOf(e.from)} may not import ${e.target}]`);
    expect(offending).toEqual([]);
  });

  it('nothing in src/ imports a file outside src/ (a clone or the npm tarball has no test/ or ../shared)', () => {
    expect(internal.filter((e) => e.target.startsWith('..')).map(show)).toEqual([]);
  });

  it('sibling adapters never import each other (store/sqlite ↮ store/postgres, transport/mcp ↮ transport/rest, …)', () => {
    const sideways = internal
      .filter((e) => {
        const [fromParent, fromAdapter, ...fromRest] = e.from.split('/');
        const [toParent, toAdapter, ...toRest] = e.target.split('/');
        if (fromParent === undefined || !ADAPTER_PARENTS.includes(fromParent) || fromParent !== toParent) return false;
        // Only files inside two different subfolders count; test-support may use any adapter.
        if (fromRest.length === 0 || toRest.length === 0 || fromAdapter === 'test-support') return false;
        return fromAdapter !== toAdapter;
      })
      .map(show);
    expect(sideways).toEqual([]);
  });

  it('the store port and the shared row derivation (store/*.ts) import no adapter', () => {
    const down = internal.filter((e) => /^store\/[^/]+\.ts$/.test(e.from) && /^store\/[^/]+\//.test(e.target)).map(show);
    expect(down).toEqual([]);
  });
});

// ───────────────────────── packages ─────────────────────────

function packageViolations(pkg: RegExp, allowedDirs: string[]): string[] {
  return edges
    .filter((e) => e.target === null && pkg.test(e.spec))
    .filter((e) => !allowedDirs.some((d) => e.from.startsWith(d)))
    .map(show);
}

describe('architecture: heavy or Node-only packages stay in their rooms', () => {
  it('the MCP SDK is imported only by transport/mcp/, client/ and agent/', () => {
    expect(packageViolations(/^@modelcontextprotocol\//, ['transport/mcp/', 'client/', 'agent/'])).toEqual([]);
  });

  it('better-sqlite3 is imported only by store/sqlite/', () => {
    expect(packageViolations(/^better-sqlite3$/, ['store/sqlite/'])).toEqual([]);
  });

  it('pg is imported only by store/postgres/', () => {
    expect(packageViolations(/^pg$/, ['store/postgres/'])).toEqual([]);
  });

  it('the package root never reaches SQLite, pg, Redis or an HTTP server (transitively)', () => {
    const seen = new Set<string>();
    const externals = new Set<string>();
    const stack = ['index.ts'];
    for (let current = stack.pop(); current !== undefined; current = stack.pop()) {
      if (seen.has(current)) continue;
      seen.add(current);
      for (const e of edges.filter((x) => x.from === current)) {
        if (e.target !== null) stack.push(e.target);
        else externals.add(e.spec);
      }
    }
    const forbidden = [...externals].filter((s) =>
      ['better-sqlite3', 'pg', 'ioredis', 'node:http', 'node:https', '@modelcontextprotocol/sdk'].some(
        (f) => s === f || s.startsWith(`${f}/`),
      ),
    );
    expect(forbidden).toEqual([]);
  });
});
