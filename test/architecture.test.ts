/**
 * Layering, re-derived from the import statements of src/ (ARCHITECTURE.md, habit 1):
 *   protocol core ← location domain ← stores ← service ← transports ← CLI
 * and the package boundaries that keep a Platform-only user from loading SQLite, pg or an HTTP server.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return full.endsWith('.ts') && !full.endsWith('.test.ts') ? [full] : [];
  });
}

interface ImportEdge {
  from: string; // path relative to src/, e.g. 'domain/hours.ts'
  spec: string; // as written
  target: string | null; // resolved path relative to src/ for relative imports, else null
}

const IMPORT_RE = /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function importsOf(file: string): ImportEdge[] {
  const text = readFileSync(file, 'utf8');
  const from = relative(SRC, file);
  const edges: ImportEdge[] = [];
  for (const m of text.matchAll(IMPORT_RE)) {
    const spec = m[1] ?? m[2];
    if (spec === undefined) continue;
    const target = spec.startsWith('.') ? relative(SRC, resolve(dirname(file), spec)).replace(/\.js$/, '.ts') : null;
    edges.push({ from, spec, target });
  }
  return edges;
}

const files = sourceFiles(SRC);
const edges = files.flatMap(importsOf);

function layerOf(path: string): string {
  const first = path.split('/')[0] ?? '';
  return path.includes('/') ? first : path.replace(/\.ts$/, '');
}

function violations(fromLayer: string, allowed: (targetLayer: string, target: string) => boolean): string[] {
  return edges
    .filter((e) => layerOf(e.from) === fromLayer && e.target !== null)
    .filter((e) => !allowed(layerOf(e.target as string), e.target as string))
    .map((e) => `${e.from} → ${e.spec}`);
}

function packageViolations(pkg: RegExp, allowedDirs: string[]): string[] {
  return edges
    .filter((e) => e.target === null && pkg.test(e.spec))
    .filter((e) => !allowedDirs.some((d) => e.from.startsWith(d)))
    .map((e) => `${e.from} → ${e.spec}`);
}

describe('architecture: layers import downward only', () => {
  it('protocol/ imports only itself and errors', () => {
    expect(violations('protocol', (l) => l === 'protocol' || l === 'errors')).toEqual([]);
  });

  it('domain/ imports only itself, protocol/ and errors (no store, transport, client, cli)', () => {
    expect(violations('domain', (l) => ['domain', 'protocol', 'errors'].includes(l))).toEqual([]);
  });

  it('store/ never imports service, transports, client or cli', () => {
    expect(violations('store', (l) => ['store', 'domain', 'protocol', 'errors'].includes(l))).toEqual([]);
  });

  it('client/ imports protocol/, domain/ and errors only — never store/ or transport/', () => {
    expect(violations('client', (l) => ['client', 'protocol', 'domain', 'errors'].includes(l))).toEqual([]);
  });

  it('conformance/ is platform-side: protocol/, domain/, client/ and errors only — never store/, transport/ or service', () => {
    expect(violations('conformance', (l) => ['conformance', 'protocol', 'domain', 'client', 'errors'].includes(l))).toEqual([]);
  });

  it('agent/ is platform-side: client/, protocol/, domain/, errors and logging only — never store/, service or transport/', () => {
    expect(violations('agent', (l) => ['agent', 'client', 'protocol', 'domain', 'errors', 'logging'].includes(l))).toEqual([]);
  });

  it('transport/ never imports the CLI', () => {
    expect(violations('transport', (l) => l !== 'cli' && l !== 'client')).toEqual([]);
  });
});

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
    while (stack.length > 0) {
      const current = stack.pop() as string;
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
