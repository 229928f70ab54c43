/**
 * The layer table of src/: for every top-level entry (folder or file), its side, what it is, what
 * it may import, and which of its modules others may import (its public face); then, per folder,
 * the Node built-ins and packages its modules may load, with per-file exceptions that each say
 * why. test/architecture.test.ts checks the code against this table, and the layer section of
 * docs/architecture.md is generated from it (test/docs/layers.test.ts keeps the two equal).
 */

export type Side = 'core' | 'business' | 'platform' | 'entry';

export interface LayerRule {
  side: Side;
  /** One line for the docs: what lives here. */
  what: string;
  /**
   * What this layer may import (besides itself): a layer name allows that layer's public face (or
   * any of its modules when it has no face); a path relative to src/ (`store/store.ts`) allows that
   * one module, which must be one of the layer's faces.
   */
  imports: readonly string[];
  /** Allowed only as types (`import type`, `import('…').T`): erased at build time, no runtime reach. */
  typeImports?: readonly string[];
  /**
   * The modules other layers may import; everything else in the layer is internal to it. Absent:
   * the layer has no internals to hide (core layers, whose modules are each a small public piece).
   */
  faces?: readonly string[];
}

const CORE = ['errors', 'logging', 'protocol', 'domain'];
/** The store port; each adapter's entry point is a face of its own. */
const STORE_PORT = 'store/store.ts';
const STORE_ADAPTERS = ['store/sqlite/index.ts', 'store/postgres/index.ts', 'store/memory-index/index.ts'];

export const LAYERS: Readonly<Record<string, LayerRule>> = {
  // ── core: role-neutral, imported by both sides ──
  errors: { side: 'core', what: 'the error classes of both families (wire errors, local errors)', imports: [] },
  logging: { side: 'core', what: 'pino logging that truncates coordinates', imports: ['errors'] },
  protocol: {
    side: 'core',
    what: 'UCP core, knows nothing of Locations: names, profiles, versions, negotiation, schemas, safe fetching, rate-limit arithmetic, RFC 9421 message signatures (signatures/)',
    imports: ['errors'],
  },
  domain: {
    side: 'core',
    what: 'Location semantics, pure: hours, geodesy, serves coverage, predicates, ranking, cursors',
    imports: ['errors', 'protocol'],
  },
  'http-kit': {
    side: 'core',
    what: 'what every HTTP server here shares: loopback semantics, the Host/Origin guard, the bounded body reader, the failure-to-answer table, JSON-RPC refusals',
    imports: ['errors', 'protocol'],
  },
  // ── business side ──
  store: {
    side: 'business',
    what: 'the LocationStore port and its adapters (SQLite, PostgreSQL, the in-memory index `serve` reads from)',
    imports: ['errors', 'protocol', 'domain'],
    faces: [STORE_PORT, ...STORE_ADAPTERS],
  },
  service: {
    side: 'business',
    what: 'the use cases, search and lookup: where domain meets store',
    imports: ['errors', 'protocol', 'domain', STORE_PORT],
  },
  data: {
    side: 'business',
    what: 'the import pipeline: readers, converters (OSM, JSON-LD, Business Profile), validation, inventory, workers',
    imports: ['errors', 'protocol', 'domain', STORE_PORT],
  },
  'shared-state': {
    side: 'business',
    what: 'Redis back-ends for the server’s caches and rate limits, shared by a fleet',
    imports: ['errors', 'protocol'],
    faces: ['shared-state/index.ts'],
  },
  config: { side: 'business', what: 'the server configuration file, every key checked', imports: [...CORE, 'service'] },
  'trusted-profiles': {
    side: 'business',
    what: 'Platform profiles a Business pre-approves from files (`serve --trust-platform-profile`)',
    imports: ['errors', 'protocol'],
    typeImports: ['config'],
  },
  transport: {
    side: 'business',
    what: 'HTTP server, `/.well-known/ucp`, the MCP and REST bindings; sees the engine only through transport/operations.ts',
    imports: [...CORE, 'http-kit'],
    typeImports: ['config'],
    faces: ['transport/index.ts'],
  },
  server: {
    side: 'business',
    what: '`ucp-location/server`, the composition root: wires config, a store adapter, the service and the transports',
    imports: [...CORE, STORE_PORT, ...STORE_ADAPTERS, 'shared-state', 'service', 'data', 'config', 'trusted-profiles', 'transport'],
  },
  tenants: {
    side: 'business',
    what: 'many businesses in one process: the registry of tenants by domain, `serve --tenants` routed by host name, per-tenant cursor keys and budgets',
    imports: [...CORE, 'config', 'server', 'transport', 'shared-state'],
    faces: ['tenants/index.ts'],
  },
  metrics: {
    side: 'business',
    what: 'the Prometheus metrics of the business servers of a process, and the `/metrics` endpoint',
    imports: CORE,
    typeImports: ['server', 'transport', STORE_PORT],
    faces: ['metrics/index.ts'],
  },
  console: {
    side: 'business',
    what: 'the operator console: a JSON API over the service and the import path, and its web app (console/web/)',
    imports: [...CORE, 'http-kit', STORE_PORT, 'service', 'config', 'data'],
  },
  // ── platform side ──
  client: {
    side: 'platform',
    what: '`ucp-location/client`, the Platform SDK: discover, negotiate, search, lookup over MCP or REST',
    imports: ['errors', 'protocol', 'domain'],
    faces: ['client/index.ts'],
  },
  conformance: {
    side: 'platform',
    what: 'the black-box checker: probes a Business only through what any Platform could send',
    imports: ['errors', 'protocol', 'domain', 'client'],
  },
  agent: {
    side: 'platform',
    what: 'the agent bridge: an MCP server for LLM hosts built on the client (never the Business’s store or service)',
    imports: [...CORE, 'http-kit', 'client'],
  },
  // ── entry points ──
  cli: {
    side: 'entry',
    what: '`ucp-location <verb>`: parses options, starts either side, prints a table or --json',
    imports: [
      ...CORE,
      STORE_PORT,
      ...STORE_ADAPTERS,
      'data',
      'server',
      'trusted-profiles',
      'tenants',
      'metrics',
      'client',
      'conformance',
      'agent',
      'console',
    ],
  },
  index: {
    side: 'entry',
    what: 'the package root: types, errors and pure helpers (a Platform-only user never loads a store)',
    imports: ['errors', 'protocol', 'domain'],
  },
};

/**
 * Folders holding interchangeable adapters: a subfolder never imports a sibling subfolder (shared
 * code moves up to the parent, as store/record-rows.ts did). `test-support/` is not an adapter.
 */
export const ADAPTER_PARENTS = ['store', 'transport', 'shared-state'];

// ───────────────────────── Node built-ins and packages ─────────────────────────

export interface Externals {
  /** Node built-ins, spelled `node:…`. */
  node?: readonly string[];
  /** npm packages (the name, not a subpath). */
  packages?: readonly string[];
}

/**
 * What each folder's modules may load. The most specific folder listed for a module applies,
 * alone (a subfolder does not inherit: console/web/ runs in a browser, unlike console/). Tests
 * and test-support/ are not shipped and are not judged here. domain/ and protocol/ do no I/O:
 * their few modules that must are the exceptions below.
 */
export const EXTERNALS: Readonly<Record<string, Externals>> = {
  errors: {},
  logging: { node: ['node:async_hooks'], packages: ['pino'] },
  // node:crypto computes (budget keys are digests); it does no I/O.
  protocol: { node: ['node:crypto'], packages: ['ajv', 'ajv-formats', 'ipaddr.js'] },
  // RFC 9421 signatures for both sides: digests, ECDSA/EdDSA and the RFC 8941 Signature fields.
  'protocol/signatures': { node: ['node:crypto'], packages: ['structured-headers'] },
  domain: { node: ['node:crypto'], packages: ['luxon', 'geographiclib-geodesic', 'iso-3166'] },
  // node:http for its request and response types; the kit starts no server of its own.
  'http-kit': { node: ['node:http'], packages: ['ipaddr.js'] },
  store: {},
  'store/sqlite': { node: ['node:fs', 'node:os', 'node:path'], packages: ['better-sqlite3'] },
  'store/postgres': { node: ['node:crypto'], packages: ['pg'] },
  // node:fs / node:path: the index file beside an SQLite store; node:crypto: the file's checksum.
  'store/memory-index': { node: ['node:crypto', 'node:fs', 'node:fs/promises', 'node:path'], packages: ['flatbush'] },
  service: {},
  data: {
    node: ['node:fs', 'node:fs/promises', 'node:path', 'node:os', 'node:url', 'node:worker_threads'],
    packages: ['geo-tz', 'htmlparser2', 'opening_hours'],
  },
  'shared-state': { node: ['node:crypto'], packages: ['ioredis'] },
  config: { node: ['node:fs/promises', 'node:path'], packages: ['zod'] },
  'trusted-profiles': { node: ['node:crypto', 'node:fs', 'node:fs/promises'] },
  transport: { node: ['node:crypto', 'node:http', 'node:net', 'node:perf_hooks', 'node:stream'], packages: ['structured-headers'] },
  'transport/mcp': { node: ['node:crypto', 'node:http', 'node:perf_hooks', 'node:stream'], packages: ['@modelcontextprotocol/sdk'] },
  server: { node: ['node:crypto', 'node:fs', 'node:http', 'node:stream', 'node:url'] },
  // node:url for IDNA (domainToASCII), node:http for the router's socket.
  tenants: { node: ['node:crypto', 'node:fs', 'node:fs/promises', 'node:http', 'node:net', 'node:path', 'node:url'] },
  metrics: { node: ['node:http'], packages: ['prom-client'] },
  console: {
    node: ['node:crypto', 'node:fs', 'node:http', 'node:net', 'node:os', 'node:path', 'node:url'],
    packages: ['luxon'],
  },
  // Bundled for the browser by scripts/build-console.mjs: no Node built-in exists there.
  'console/web': { packages: ['preact', 'd3-geo', 'topojson-client', 'topojson-specification', 'world-atlas'] },
  client: {
    node: ['node:crypto', 'node:fs', 'node:http', 'node:net'],
    packages: ['@modelcontextprotocol/sdk', 'undici', 'structured-headers'],
  },
  conformance: { node: ['node:crypto', 'node:util'], packages: ['undici'] },
  agent: {
    node: ['node:crypto', 'node:fs', 'node:fs/promises', 'node:http', 'node:net', 'node:stream'],
    packages: ['@modelcontextprotocol/sdk', 'luxon', 'zod'],
  },
  cli: { node: ['node:cluster', 'node:crypto', 'node:fs', 'node:fs/promises', 'node:path'], packages: ['commander', 'luxon'] },
  index: {},
};

export interface FileException {
  /** Module relative to src/. */
  file: string;
  node?: readonly string[];
  packages?: readonly string[];
  /** String literals this module's `createRequire` functions may load or resolve. */
  require?: readonly string[];
  reason: string;
}

export const FILE_EXCEPTIONS: readonly FileException[] = [
  {
    file: 'domain/locality-names.ts',
    node: ['node:fs', 'node:module', 'node:path'],
    packages: ['i18n-iso-countries', 'cldr-subdivisions-full'],
    require: ['i18n-iso-countries/langs/en.json', 'cldr-subdivisions-full/package.json'],
    reason: 'reads the CLDR and ISO country names bundled in those packages, found through require.resolve',
  },
  {
    file: 'protocol/safe-fetch.ts',
    packages: ['undici'],
    reason: 'the one guarded way the code fetches a URL (size, time and address limits)',
  },
  {
    file: 'protocol/pinned-agent.ts',
    node: ['node:dns/promises'],
    packages: ['undici'],
    reason: 'the HTTP agent that connects only to the address it resolved and checked',
  },
  {
    file: 'protocol/network-resolver.ts',
    node: ['node:dns/promises'],
    reason: 'resolves Platform host names with DNS queries over the network (c-ares), not on the thread pool the store needs',
  },
  {
    file: 'protocol/signatures/key-file.ts',
    node: ['node:fs/promises'],
    reason:
      'reads a signing key file (`serve --signing-key`, `lookup --signing-key`) and writes a new one (`platform-profile init --key-out`)',
  },
  {
    file: 'protocol/pinned-schemas.ts',
    node: ['node:fs', 'node:path', 'node:url'],
    reason: 'reads the schema files shipped in schemas/',
  },
  {
    file: 'protocol/profile.ts',
    node: ['node:fs'],
    reason: 'reads the profile schemas shipped in schemas/',
  },
  {
    file: 'logging.ts',
    node: ['node:module'],
    packages: ['pino-pretty'],
    require: ['pino-pretty'],
    reason: 'loads pino-pretty (CommonJS) only when readable lines are asked for, so JSON logging never pays for it',
  },
  {
    file: 'data/workers.ts',
    node: ['node:module'],
    packages: ['tsx'],
    require: ['tsx/esm/api'],
    reason: 'a worker started from the TypeScript sources (tests, tsx) registers tsx, found through require.resolve',
  },
];

// ───────────────────────── the docs section ─────────────────────────

const SIDES: ReadonlyArray<{ side: Side; title: string }> = [
  { side: 'entry', title: 'Entry points' },
  { side: 'business', title: 'Business side' },
  { side: 'platform', title: 'Platform side' },
  { side: 'core', title: 'Core (both sides)' },
];

/** `store/store.ts` → `store/store.ts`; a layer → `layer/` or `layer.ts`. */
function shown(entry: string, isFolder: (layer: string) => boolean): string {
  if (entry.includes('/')) return `\`${entry}\``;
  return isFolder(entry) ? `\`${entry}/\`` : `\`${entry}.ts\``;
}

/**
 * The layer section of docs/architecture.md, rendered from LAYERS. `isFolder` tells a folder
 * layer from a top-level file (the table does not record it; the tree does).
 */
export function renderLayerSection(isFolder: (layer: string) => boolean): string {
  const lines: string[] = [];
  for (const { side, title } of SIDES) {
    lines.push(`**${title}**`, '', '| layer | what | may import | others may import |', '|---|---|---|---|');
    for (const [layer, rule] of Object.entries(LAYERS)) {
      if (rule.side !== side) continue;
      const runtime = rule.imports.map((i) => shown(i, isFolder));
      const types = (rule.typeImports ?? []).map((i) => `${shown(i, isFolder)} (types only)`);
      const may = [...runtime, ...types].join(', ') || '—';
      const faces = rule.faces === undefined ? 'any module' : rule.faces.map((f) => `\`${f}\``).join(', ');
      lines.push(`| ${shown(layer, isFolder)} | ${rule.what} | ${may} | ${faces} |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}
