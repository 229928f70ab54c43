/**
 * Layering, checked from every reach of src/ (ARCHITECTURE.md, habit 1). One table
 * (test/architecture/table.ts) says, for every top-level entry of src/, its side, what it may
 * import and which of its modules others may import; and, per folder, which Node built-ins and
 * packages it may load. The import graph is read with the TypeScript compiler API from .ts and
 * .tsx files (test/architecture/graph.ts): static imports and re-exports, `import()` calls,
 * type-level `import('…').T`, `ucp-location/…` self-references and `createRequire` functions.
 *
 * Three parts: the table against itself; the code against the table (each rule of
 * test/architecture/rules.ts must find nothing); and proofs that the rules hold when probed —
 * each forbidden reach of the 2026-12-03 review, added alone to an in-memory copy of src/, makes
 * the rules fail naming the file it was added to.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type ReadCache, type SourceTree, readGraph, selfExportsOf } from './architecture/graph.js';
import { RULES, allFindings, layerOf } from './architecture/rules.js';
import { describeCycle, importCycles } from './architecture/cycles.js';
import { EXTERNALS, FILE_EXCEPTIONS, LAYERS } from './architecture/table.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'src');

function readTree(dir: string): Map<string, string> {
  const tree = new Map<string, string>();
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const full = join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else tree.set(relative(dir, full).split(sep).join('/'), /\.tsx?$/.test(entry.name) ? readFileSync(full, 'utf8') : '');
    }
  };
  walk(dir);
  return tree;
}

const SELF = selfExportsOf(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Parameters<typeof selfExportsOf>[0]);
const TREE: SourceTree = readTree(SRC);
/** Readings of src/'s modules, reused by the probes below (each copy differs in one file). */
const CACHE: ReadCache = new Map();
const GRAPH = readGraph(TREE, SELF, CACHE);

const allImports = (layer: string): string[] => [...(LAYERS[layer]?.imports ?? []), ...(LAYERS[layer]?.typeImports ?? [])];

// ───────────────────────── the table against itself ─────────────────────────

describe('architecture: the layer table', () => {
  it('has a row for every top-level entry of src/, and no row for an entry that does not exist', () => {
    const entries = new Set([...TREE.keys()].filter((p) => /\.tsx?$/.test(p) && !/\.test\.tsx?$/.test(p)).map(layerOf));
    expect([...entries].filter((name) => !(name in LAYERS))).toEqual([]);
    expect(Object.keys(LAYERS).filter((name) => !entries.has(name))).toEqual([]);
  });

  it('names only layers that have a row, and modules that exist and are a face of their layer', () => {
    const bad = Object.keys(LAYERS).flatMap((layer) =>
      allImports(layer)
        .filter((a) => {
          if (!(layerOf(a) in LAYERS)) return true;
          if (!a.includes('/')) return false;
          const faces = LAYERS[layerOf(a)]?.faces;
          return !TREE.has(a) || (faces !== undefined && !faces.includes(a));
        })
        .map((a) => `${layer} → ${a}`),
    );
    const badFaces = Object.entries(LAYERS).flatMap(([layer, rule]) =>
      (rule.faces ?? []).filter((f) => !TREE.has(f) || layerOf(f) !== layer).map((f) => `${layer} face ${f}`),
    );
    expect([...bad, ...badFaces]).toEqual([]);
  });

  it('keeps the business side and the platform side apart (neither may import the other)', () => {
    const crossing = Object.entries(LAYERS).flatMap(([layer, rule]) =>
      allImports(layer)
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
      allImports(layer)
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
      for (const a of allImports(layer)) walk(layerOf(a), [...path, layer]);
      state.set(layer, 'done');
    };
    for (const layer of Object.keys(LAYERS)) walk(layer, []);
    expect(cycles).toEqual([]);
  });

  it('allow-lists name folders that exist; every exception names a module, a reason, and something to allow', () => {
    const folders = new Set(
      [...TREE.keys()].flatMap((p) =>
        p
          .split('/')
          .slice(0, -1)
          .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
      ),
    );
    const badFolders = Object.keys(EXTERNALS).filter((k) => !folders.has(k) && !TREE.has(`${k}.ts`));
    const badExceptions = FILE_EXCEPTIONS.filter(
      (x) =>
        !TREE.has(x.file) || x.reason.trim().length < 10 || [...(x.node ?? []), ...(x.packages ?? []), ...(x.require ?? [])].length === 0,
    ).map((x) => x.file);
    expect([...badFolders, ...badExceptions]).toEqual([]);
  });

  it('every allow-list and exception entry is used by some module (a stale allowance is a hole)', () => {
    const used = new Set(
      GRAPH.edges.flatMap((e) =>
        e.target.kind === 'node' || e.target.kind === 'package' ? [`${e.from}|${e.target.name}`, `${e.from}|${e.spec}`] : [],
      ),
    );
    const stale = FILE_EXCEPTIONS.flatMap((x) =>
      [...(x.node ?? []), ...(x.packages ?? []), ...(x.require ?? [])]
        .filter((n) => !used.has(`${x.file}|${n}`))
        .map((n) => `${x.file}: ${n}`),
    );
    expect(stale).toEqual([]);
  });
});

// ───────────────────────── the code against the table ─────────────────────────

describe('architecture: src/ follows the table', () => {
  it('reads every .ts and .tsx module of src/ (tests aside), the console web app included', () => {
    expect(GRAPH.modules.some((m) => m.endsWith('.tsx'))).toBe(true);
    expect(GRAPH.modules.filter((m) => m.endsWith('.tsx')).every((m) => m.startsWith('console/web/'))).toBe(true);
  });

  for (const rule of RULES) {
    it(rule.title, () => {
      expect(rule.check(GRAPH)).toEqual([]);
    });
  }
});

// ───────────────────────── probing the rules ─────────────────────────

/** A forbidden reach: `add` is appended to `file` in an in-memory copy of src/. */
interface Reach {
  file: string;
  add: string;
  /** Why it is forbidden (the rule that must catch it). */
  caughtBy: string;
}

const REACHES: readonly Reach[] = [
  {
    file: 'server.ts',
    add: "import { rawRequest } from './transport/test-support/raw-http.js';\nvoid rawRequest;",
    caughtBy: 'production modules never import a test-support/ module',
  },
  {
    file: 'transport/http.ts',
    add: "export type Sneaky = import('../store/sqlite/sqlite-location-store.js').SqliteLocationStore;",
    caughtBy: 'every reach between layers (runtime, type-level or self-reference) is allowed by the importing layer’s row',
  },
  {
    file: 'domain/hours.ts',
    add: "import { readFileSync as sneakyRead } from 'node:fs';\nvoid sneakyRead;",
    caughtBy: 'Node built-ins are spelled node:… and each folder loads only the built-ins its allow-list names',
  },
  {
    file: 'client/client.ts',
    add: "export const sneaky = () => import('ucp-location/server');",
    caughtBy: 'every reach between layers (runtime, type-level or self-reference) is allowed by the importing layer’s row',
  },
  {
    file: 'service.ts',
    add: "const sneakyName = ['.', 'store', 'sqlite', 'index.js'].join('/');\nexport const sneaky = () => import(sneakyName);",
    caughtBy: 'every reach can be read: no computed import(), no createRequire function called with anything but a string literal',
  },
  {
    file: 'console/web/app.tsx',
    add: "import { SCHEMA_SQL as sneaky } from '../../store/sqlite/schema.js';\nvoid sneaky;",
    caughtBy: 'every reach between layers (runtime, type-level or self-reference) is allowed by the importing layer’s row',
  },
  {
    file: 'agent/tools.ts',
    add: "import { createRequire as sneakyRequire } from 'node:module';\nexport const sneaky = sneakyRequire(import.meta.url)('../service.js');",
    caughtBy: 'createRequire loads only the string literals its module’s exception admits',
  },
];

/** Further walk-arounds the rules must also catch. */
const MORE_REACHES: readonly Reach[] = [
  {
    file: 'conformance/report.ts',
    add: "import { Sneaky } from '../client/no-such-module.js';\nvoid Sneaky;",
    caughtBy: 'a relative specifier names a file that exists, and a self-reference a subpath package.json exports',
  },
  {
    file: 'agent/tools.ts',
    add: "import { UcpLocationClient as Sneaky } from '../client/client.js';\nvoid Sneaky;",
    caughtBy: 'outside client/, transport/, store/ and shared-state/, only their public faces are imported',
  },
  {
    file: 'cli/main.ts',
    add: "import { buildUcpApp as sneaky } from '../transport/app.js';\nvoid sneaky;",
    caughtBy: 'every reach between layers (runtime, type-level or self-reference) is allowed by the importing layer’s row',
  },
  {
    file: 'logging.ts',
    add: 'export const sneaky = (name: string): unknown => createRequire(import.meta.url)(name);',
    caughtBy: 'every reach can be read: no computed import(), no createRequire function called with anything but a string literal',
  },
  {
    file: 'logging.ts',
    add: 'export const sneakyRequire = createRequire(import.meta.url);',
    caughtBy: 'every reach can be read: no computed import(), no createRequire function called with anything but a string literal',
  },
  {
    file: 'protocol/names.ts',
    add: "import { readFileSync as sneaky } from 'fs';\nvoid sneaky;",
    caughtBy: 'Node built-ins are spelled node:… and each folder loads only the built-ins its allow-list names',
  },
  {
    file: 'domain/geodesy.ts',
    add: "import Database from 'better-sqlite3';\nvoid Database;",
    caughtBy: 'each folder loads only the packages its allow-list names',
  },
  {
    file: 'console/web/main.tsx',
    add: "import { readFileSync as sneaky } from 'node:fs';\nvoid sneaky;",
    caughtBy: 'Node built-ins are spelled node:… and each folder loads only the built-ins its allow-list names',
  },
  {
    file: 'index.ts',
    add: "export type Sneaky = import('ucp-location/not-exported').X;",
    caughtBy: 'a relative specifier names a file that exists, and a self-reference a subpath package.json exports',
  },
  {
    file: 'store/sqlite/schema.ts',
    add: "export { connect as sneaky } from '../postgres/connection.js';",
    caughtBy: 'sibling adapters never import each other (store/sqlite ↮ store/postgres, transport/mcp ↮ transport/rest, …)',
  },
];

function findingsWith(reach: Reach): Array<{ rule: string; finding: string }> {
  const copy = new Map(TREE);
  const before = copy.get(reach.file);
  if (before === undefined) throw new Error(`${reach.file} is not in src/: the probe needs updating`);
  copy.set(reach.file, `${before}\n${reach.add}\n`);
  // A probe's own text is never cached: each copy is read against src/'s readings.
  return allFindings(readGraph(copy, SELF, new Map(CACHE)));
}

describe('architecture: each forbidden reach fails the rules, naming its file', () => {
  for (const reach of [...REACHES, ...MORE_REACHES]) {
    it(`src/${reach.file} + ${reach.add.split('\n').slice(-1)[0] ?? ''}`, () => {
      const findings = findingsWith(reach);
      // The copy differs from src/ by this one reach, so every finding is about it, in its file.
      expect(findings.length).toBeGreaterThan(0);
      expect(findings.filter((f) => !f.finding.startsWith(`${reach.file}:`))).toEqual([]);
      expect(findings.map((f) => f.rule)).toContain(reach.caughtBy);
    });
  }

  it('the untouched copy passes (the probes above fail because of their reach alone)', () => {
    expect(allFindings(readGraph(new Map(TREE), SELF, new Map(CACHE)))).toEqual([]);
  });
});

// ───────────────────────── file-level import cycles ─────────────────────────

describe('architecture: no file-level import cycle in src/', () => {
  it('no module reaches itself through its imports (type-only imports count: they tie the files together too)', () => {
    // Each cycle is named as a loop of files (`a.ts → b.ts → a.ts`), so a failure says what to untangle.
    expect(importCycles(GRAPH).map(describeCycle)).toEqual([]);
  });

  it('a cycle added to a copy of src/ fails, named as its loop of files', () => {
    const copy = new Map(TREE);
    const edit = (file: string, line: string): void => {
      const before = copy.get(file);
      if (before === undefined) throw new Error(`${file} is not in src/: the probe needs updating`);
      copy.set(file, `${before}\n${line}\n`);
    };
    // domain/geodesy.ts → domain/text.ts is new; domain/text.ts → domain/geodesy.ts closes the loop.
    edit('domain/geodesy.ts', "export type { VocabularyEntry as SneakyA } from './text.js';");
    edit('domain/text.ts', "import { geodesicDistanceMeters as sneakyB } from './geodesy.js';\nvoid sneakyB;");
    expect(importCycles(readGraph(copy, SELF, new Map(CACHE))).map(describeCycle)).toEqual([
      'domain/geodesy.ts → domain/text.ts → domain/geodesy.ts',
    ]);
  });

  it('names a longer loop through every file in it, in import order', () => {
    const copy = new Map(TREE);
    copy.set('probe/a.ts', "import './b.js';");
    copy.set('probe/b.ts', "export * from './c.js';");
    copy.set('probe/c.ts', "export const c = () => import('./a.js');");
    expect(importCycles(readGraph(copy, SELF, new Map(CACHE))).map(describeCycle)).toEqual([
      'probe/a.ts → probe/b.ts → probe/c.ts → probe/a.ts',
    ]);
  });
});
