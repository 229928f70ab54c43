/**
 * The rules the code must follow, as functions from the import graph to the offending reaches.
 * Each finding starts with the module it is in (`domain/hours.ts:3 …`), so a failure names the
 * file to fix. test/architecture.test.ts runs them on src/ and on edited copies of it.
 */
import { type Edge, type Graph, isTestSupport } from './graph.js';
import { ADAPTER_PARENTS, EXTERNALS, type Externals, FILE_EXCEPTIONS, LAYERS } from './table.js';

/** Top-level entry of a path relative to src/: `domain/hours.ts` → `domain`, `errors.ts` → `errors`. */
export function layerOf(path: string): string {
  const [first = '', ...rest] = path.split('/');
  return rest.length > 0 ? first : first.replace(/\.tsx?$/, '');
}

type InternalEdge = Edge & { target: { kind: 'internal'; path: string; exists: boolean; selfReference: boolean } };
const internalEdges = (g: Graph): InternalEdge[] => g.edges.filter((e): e is InternalEdge => e.target.kind === 'internal');

function show(e: Edge): string {
  const how = e.typeOnly ? ' (type)' : e.kind === 'import-call' ? ' (import())' : e.kind.startsWith('require') ? ' (createRequire)' : '';
  return `${e.from}:${e.line} → ${e.spec}${how}`;
}

/** Does a row's list admit `target`? A layer name admits its faces (any module when it has none); a path admits itself. */
function admits(entries: readonly string[] | undefined, target: string): boolean {
  return (entries ?? []).some((a) => {
    if (a.includes('/')) return a === target;
    if (a !== layerOf(target)) return false;
    const faces = LAYERS[a]?.faces;
    return faces === undefined || faces.includes(target);
  });
}

function externalsFor(file: string): Externals {
  const folders = Object.keys(EXTERNALS).filter((k) => file.startsWith(`${k}/`) || file.replace(/\.tsx?$/, '') === k);
  const most = folders.sort((a, b) => b.length - a.length)[0];
  return most === undefined ? {} : (EXTERNALS[most] ?? {});
}

export interface Rule {
  title: string;
  check(g: Graph): string[];
}

export const RULES: readonly Rule[] = [
  {
    title: 'every module of src/ belongs to a layer that has a row (classify a new folder or file before using it)',
    check: (g) => g.modules.filter((m) => !(layerOf(m) in LAYERS)).map((m) => `${m}: no row for ${layerOf(m)} in the layer table`),
  },
  {
    title: 'every reach between layers (runtime, type-level or self-reference) is allowed by the importing layer’s row',
    check: (g) =>
      internalEdges(g)
        .filter((e) => layerOf(e.from) !== layerOf(e.target.path))
        .filter((e) => {
          const rule = LAYERS[layerOf(e.from)];
          if (rule === undefined) return false; // reported by the rule above
          return !admits(rule.imports, e.target.path) && !(e.typeOnly && admits(rule.typeImports, e.target.path));
        })
        .map((e) => `${show(e)}   [${layerOf(e.from)} may not import ${e.target.path}]`),
  },
  {
    title: 'outside client/, transport/, store/ and shared-state/, only their public faces are imported',
    check: (g) =>
      internalEdges(g)
        .filter((e) => layerOf(e.from) !== layerOf(e.target.path))
        .filter((e) => {
          const faces = LAYERS[layerOf(e.target.path)]?.faces;
          return faces !== undefined && !faces.includes(e.target.path);
        })
        .map((e) => `${show(e)}   [${e.target.path} is internal to ${layerOf(e.target.path)}/]`),
  },
  {
    title: 'a relative specifier names a file that exists, and a self-reference a subpath package.json exports',
    check: (g) =>
      internalEdges(g)
        .filter((e) => !e.target.exists)
        .map((e) => `${show(e)}   [${e.target.selfReference ? 'not an export of package.json' : 'no such file in src/'}]`),
  },
  {
    title: 'nothing in src/ imports a file outside src/ (a clone or the npm tarball has no test/ or ../shared)',
    check: (g) => g.edges.filter((e) => e.target.kind === 'outside').map(show),
  },
  {
    title: 'production modules never import a test-support/ module',
    check: (g) =>
      internalEdges(g)
        .filter((e) => !isTestSupport(e.from) && isTestSupport(e.target.path))
        .map(show),
  },
  {
    title: 'every reach can be read: no computed import(), no createRequire function called with anything but a string literal',
    check: (g) => g.problems.map((p) => `${p.from}:${p.line} ${p.problem}`),
  },
  {
    title: 'createRequire loads only the string literals its module’s exception admits',
    check: (g) =>
      g.edges
        .filter((e) => e.kind === 'require' || e.kind === 'require-resolve')
        .filter((e) => !FILE_EXCEPTIONS.some((x) => x.file === e.from && (x.require ?? []).includes(e.spec)))
        .map((e) => `${show(e)}   [no createRequire exception for ${e.from} admits '${e.spec}']`),
  },
  {
    title: 'Node built-ins are spelled node:… and each folder loads only the built-ins its allow-list names',
    check: (g) =>
      g.edges
        .filter((e) => e.target.kind === 'node' && !isTestSupport(e.from))
        .flatMap((e) => {
          if (e.target.kind !== 'node') return [];
          if (!e.target.prefixed) return [`${show(e)}   [spell it ${e.target.name}]`];
          const name = e.target.name;
          const own = externalsFor(e.from).node ?? [];
          const excepted = FILE_EXCEPTIONS.some((x) => x.file === e.from && (x.node ?? []).includes(name));
          return own.includes(name) || excepted ? [] : [`${show(e)}   [${name} is not on the allow-list of ${e.from}]`];
        }),
  },
  {
    title: 'each folder loads only the packages its allow-list names',
    check: (g) =>
      g.edges
        .filter((e) => e.target.kind === 'package' && !isTestSupport(e.from))
        .flatMap((e) => {
          if (e.target.kind !== 'package') return [];
          const name = e.target.name;
          const own = externalsFor(e.from).packages ?? [];
          const excepted = FILE_EXCEPTIONS.some((x) => x.file === e.from && (x.packages ?? []).includes(name));
          return own.includes(name) || excepted ? [] : [`${show(e)}   [${name} is not on the allow-list of ${e.from}]`];
        }),
  },
  {
    title: 'sibling adapters never import each other (store/sqlite ↮ store/postgres, transport/mcp ↮ transport/rest, …)',
    check: (g) =>
      internalEdges(g)
        .filter((e) => {
          const [fromParent, fromAdapter, ...fromRest] = e.from.split('/');
          const [toParent, toAdapter, ...toRest] = e.target.path.split('/');
          if (fromParent === undefined || !ADAPTER_PARENTS.includes(fromParent) || fromParent !== toParent) return false;
          // Only files inside two different subfolders count; test-support may use any adapter.
          if (fromRest.length === 0 || toRest.length === 0 || fromAdapter === 'test-support') return false;
          return fromAdapter !== toAdapter;
        })
        .map(show),
  },
  {
    title: 'the store port and the shared row derivation (store/*.ts) import no adapter',
    check: (g) =>
      internalEdges(g)
        .filter((e) => /^store\/[^/]+\.ts$/.test(e.from) && /^store\/[^/]+\//.test(e.target.path))
        .map(show),
  },
  {
    title: 'the package root never reaches SQLite, pg, Redis, an HTTP server or the MCP SDK (transitively)',
    check: (g) => {
      const forbidden = ['better-sqlite3', 'pg', 'ioredis', 'node:http', 'node:https', '@modelcontextprotocol/sdk'];
      const seen = new Set<string>();
      const found: string[] = [];
      const stack = ['index.ts'];
      for (let current = stack.pop(); current !== undefined; current = stack.pop()) {
        if (seen.has(current)) continue;
        seen.add(current);
        for (const e of g.edges.filter((x) => x.from === current && !x.typeOnly)) {
          if (e.target.kind === 'internal') stack.push(e.target.path);
          else if ((e.target.kind === 'node' || e.target.kind === 'package') && forbidden.includes(e.target.name)) found.push(show(e));
        }
      }
      return found;
    },
  },
];

/** Every finding of every rule, for the proofs that an edited tree fails. */
export function allFindings(g: Graph): Array<{ rule: string; finding: string }> {
  return RULES.flatMap((r) => r.check(g).map((finding) => ({ rule: r.title, finding })));
}
