/**
 * Deliberately broken UCP Location businesses, for proving that the conformance checker fails
 * them under the right rule. Each is our real server behind a small faulty shim (a node:http
 * proxy on 127.0.0.1) that reproduces one mistake a real implementation makes: the shim rewrites
 * the domain request before it reaches the engine, the UCP payload on its way back, the profile
 * answer, a JSON-RPC error or the Platform profile URL, or refuses a request itself. A few faults
 * are configuration instead (a dataset, engine limits). Our server advertises the shim's origin,
 * so every call the checker makes goes through the fault. Loopback only.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isOpenAt, parseInstant } from '../../src/domain/hours.js';
import { DEFAULT_CONFIG, type ServerConfig } from '../../src/config.js';
import type { Geo, LocationRecord } from '../../src/domain/location.js';
import { haversineMeters } from '../../src/conformance/oracle.js';
import { FULL_PROFILE_PATH, UNSUPPORTED_VERSION_PATH } from '../../src/conformance/platform-profile.js';
import { fixtureRecords } from '../contract/fixture.js';
import { startOurServer, type OurServer } from './support.js';

type Json = Record<string, unknown>;
type Operation = 'search' | 'lookup';

export interface Shim {
  /** Answer a request itself instead of forwarding it; return true when it did. */
  intercept?(req: IncomingMessage, res: ServerResponse): boolean;
  /** Rewrite the domain request (MCP `arguments.location`, REST body) before the engine sees it. */
  request?(operation: Operation, request: Json): Json;
  /** Rewrite the UCP payload of a successful answer; `sent` is the request as the client sent it. */
  payload?(operation: Operation, sent: Json, payload: Json): Json;
  /** Rewrite the headers of the profile answer. */
  profileHeaders?(headers: Record<string, string | string[] | undefined>): void;
  /** Rewrite a JSON-RPC error object. */
  rpcError?(error: Json): Json;
  /** Refuse a domain request as invalid (MCP -32602, REST 400) instead of forwarding it. */
  refuse?(operation: Operation, request: Json): { pointer: string; message: string } | undefined;
  /** Rewrite the Platform profile URL of a call (MCP `meta["ucp-agent"].profile`, REST `UCP-Agent`). */
  agentProfile?: (url: string) => string;
  /** Answer a parsed `/ucp/mcp` body (message or batch) itself; undefined forwards it. */
  rpc?(message: unknown): { status: number; body: unknown } | undefined;
}

export interface BrokenServer {
  /** Origin the checker is pointed at. */
  url: string;
  close: () => Promise<void>;
}

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const TOOLS: Readonly<Record<string, Operation>> = { search_locations: 'search', lookup_locations: 'lookup' };

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function forward(
  upstream: URL,
  req: IncomingMessage,
  body: Buffer,
  rewrite: IncomingMessage['headers'] = {},
): Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const headers = { ...req.headers, ...rewrite, 'content-length': String(body.length) };
    const out = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers }, (res) => {
      void readBody(res).then((b) => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: b }), reject);
    });
    out.on('error', reject);
    out.end(body);
  });
}

function parse(buffer: Buffer): unknown {
  try {
    return JSON.parse(buffer.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Which operation a request is and the domain request inside it (`args`: the MCP arguments holding it). */
function domainOf(path: string, message: unknown): { operation: Operation; request: Json; args?: Json } | undefined {
  const rest = /^\/ucp\/locations\/(search|lookup)$/.exec(path);
  if (rest !== null && isRecord(message)) return { operation: rest[1] as Operation, request: message };
  if (path === '/ucp/mcp' && isRecord(message) && message['method'] === 'tools/call' && isRecord(message['params'])) {
    const params = message['params'];
    const operation = typeof params['name'] === 'string' ? TOOLS[params['name']] : undefined;
    const args = params['arguments'];
    if (operation === undefined || !isRecord(args) || !isRecord(args['location'])) return undefined;
    return { operation, request: args['location'], args };
  }
  return undefined;
}

/** A refusal as the binding writes it: JSON-RPC -32602 with a pointer, or REST 400 with a JSONPath. */
function refusal(path: string, message: unknown, refused: { pointer: string; message: string }): { status: number; body: Buffer } {
  if (path === '/ucp/mcp') {
    const id = isRecord(message) ? (message['id'] ?? null) : null;
    const error = { code: -32602, message: refused.message, data: { code: 'invalid_request', pointer: `/location${refused.pointer}` } };
    return { status: 200, body: Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, error })) };
  }
  const jsonPath = `$${refused.pointer
    .split('/')
    .slice(1)
    .map((t) => `['${t}']`)
    .join('')}`;
  const messages = [{ type: 'error', code: 'invalid_request', content: refused.message, severity: 'recoverable', path: jsonPath }];
  return { status: 400, body: Buffer.from(JSON.stringify({ ucp: { version: '2026-08-25', status: 'error' }, messages })) };
}

export interface BrokenServerOptions {
  /** Replaces the fixture dataset. */
  records?: LocationRecord[];
  /** Server configuration (limits, rate limits); default all defaults. */
  config?: ServerConfig;
}

/** Starts our server behind `shim`. */
export async function startBrokenServer(shim: Shim, options: BrokenServerOptions = {}): Promise<BrokenServer> {
  // Set once our server is up behind the proxy (which must listen first to give it its origin).
  // eslint-disable-next-line prefer-const -- read by the proxy's handler above the assignment
  let upstream: URL | undefined;
  const proxy: Server = createServer((req, res) => {
    void (async () => {
      if (shim.intercept?.(req, res) === true) return;
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const raw = await readBody(req);
      const message = parse(raw);
      const own = path === '/ucp/mcp' ? shim.rpc?.(message) : undefined;
      if (own !== undefined) {
        const out = Buffer.from(JSON.stringify(own.body));
        res.writeHead(own.status, { 'content-type': 'application/json', 'content-length': String(out.length) });
        res.end(out);
        return;
      }
      const domain = domainOf(path, message);
      const sent = domain === undefined ? undefined : structuredClone(domain.request);
      const refused = domain === undefined ? undefined : shim.refuse?.(domain.operation, structuredClone(domain.request));
      if (refused !== undefined) {
        const out = refusal(path, message, refused);
        res.writeHead(out.status, { 'content-type': 'application/json', 'content-length': String(out.body.length) });
        res.end(out.body);
        return;
      }
      let body = raw;
      let changed = false;
      if (domain !== undefined && shim.request !== undefined) {
        const next = shim.request(domain.operation, structuredClone(domain.request));
        if (domain.args !== undefined) domain.args['location'] = next;
        else body = Buffer.from(JSON.stringify(next));
        changed = true;
      }
      const requestHeaders: IncomingMessage['headers'] = {};
      if (domain !== undefined && shim.agentProfile !== undefined) {
        const agent = domain.args?.['meta'];
        if (isRecord(agent) && isRecord(agent['ucp-agent']) && typeof agent['ucp-agent']['profile'] === 'string') {
          agent['ucp-agent']['profile'] = shim.agentProfile(agent['ucp-agent']['profile']);
          changed = true;
        }
        const header = req.headers['ucp-agent'];
        const rewrite = shim.agentProfile;
        if (typeof header === 'string')
          requestHeaders['ucp-agent'] = header.replace(/profile="([^"]*)"/, (_m, url: string) => `profile="${rewrite(url)}"`);
      }
      if (changed && domain?.args !== undefined) body = Buffer.from(JSON.stringify(message));
      const answer = await forward(upstream as URL, req, body, requestHeaders);
      let out = answer.body;
      const json = parse(answer.body);
      if (domain !== undefined && sent !== undefined && answer.status === 200 && shim.payload !== undefined) {
        if (path === '/ucp/mcp' && isRecord(json) && isRecord(json['result']) && isRecord(json['result']['structuredContent'])) {
          const result = json['result'];
          const payload = shim.payload(domain.operation, sent, result['structuredContent'] as Json);
          result['structuredContent'] = payload;
          result['content'] = [{ type: 'text', text: JSON.stringify(payload) }];
          out = Buffer.from(JSON.stringify(json));
        } else if (path !== '/ucp/mcp' && isRecord(json)) {
          out = Buffer.from(JSON.stringify(shim.payload(domain.operation, sent, json)));
        }
      }
      if (path === '/ucp/mcp' && shim.rpcError !== undefined && isRecord(json) && isRecord(json['error'])) {
        json['error'] = shim.rpcError(json['error']);
        out = Buffer.from(JSON.stringify(json));
      }
      const headers = { ...answer.headers };
      delete headers['content-length'];
      delete headers['transfer-encoding'];
      if (path === '/.well-known/ucp') shim.profileHeaders?.(headers);
      res.writeHead(answer.status, { ...headers, 'content-length': String(out.length) });
      res.end(out);
    })().catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`shim failure: ${String(err)}`);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  let ours: OurServer;
  try {
    // The shim rewrites request bodies on their way in, as a man in the middle would, so the signed
    // digest no longer matches what reaches us: the Business behind it takes callers at their word
    // (the shim is the Business the checker judges, and it verifies nothing).
    const config = options.config ?? DEFAULT_CONFIG;
    ours = await startOurServer({
      baseUrl: origin,
      ...options,
      config: { ...config, signatures: { ...config.signatures, verify: 'off' } },
    });
  } catch (error) {
    proxy.close();
    throw error;
  }
  upstream = new URL(ours.server.url);
  return {
    url: origin,
    close: async () => {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      await ours.close();
    },
  };
}

// ───────────────────────── the faults ─────────────────────────

/** Silently caps every radius at 50 km instead of refusing what it cannot honour (R-S4). */
export const clampsRadius: Shim = {
  request: (_op, r) => {
    const d = r['distance'];
    if (isRecord(d) && typeof d['max'] === 'number' && d['max'] > 50_000) d['max'] = 50_000;
    return r;
  },
};

/**
 * Measures `distance` on a sphere (haversine, IUGG mean radius) instead of the WGS 84 ellipsoid
 * (R-S4): asks the engine for a slightly larger radius, then keeps what the sphere accepts.
 */
export const sphericalDistance: Shim = {
  request: (_op, r) => {
    const d = r['distance'];
    // Only well-formed radii: request validation stays the engine's.
    if (isRecord(d) && typeof d['max'] === 'number' && d['max'] >= 0) d['max'] = d['max'] * 1.01 + 100;
    return r;
  },
  payload: (_op, sent, payload) => {
    const d = sent['distance'];
    if (!isRecord(d) || !Array.isArray(payload['locations'])) return payload;
    const center = d['center'] as Geo;
    const max = d['max'] as number;
    const locations = payload['locations'].filter(
      (l) => isRecord(l) && isRecord(l['geo']) && haversineMeters(center, l['geo'] as unknown as Geo) <= max,
    );
    return { ...payload, locations };
  },
};

/** Evaluates `filters.hours.open_at` in UTC, ignoring each Location's `timezone` (R-S6). */
export const hoursInUtc: Shim = {
  request: (_op, r) => {
    const filters = r['filters'];
    // Only well-formed instants: request validation stays the engine's.
    if (isRecord(filters) && isRecord(filters['hours']) && validInstant(filters['hours']['open_at'])) {
      delete filters['hours'];
      if (Object.keys(filters).length === 0) delete r['filters'];
    }
    return r;
  },
  payload: (_op, sent, payload) => {
    const filters = sent['filters'];
    const hours = isRecord(filters) ? filters['hours'] : undefined;
    if (!isRecord(hours) || typeof hours['open_at'] !== 'string' || !Array.isArray(payload['locations'])) return payload;
    const openAt = hours['open_at'];
    const locations = payload['locations'].filter((l) => isRecord(l) && isOpenAt({ ...(l as object), timezone: 'Etc/UTC' }, openAt));
    return { ...payload, locations };
  },
};

function validInstant(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    parseInstant(value);
    return true;
  } catch {
    return false;
  }
}

/** Reports every Location's inputs as its canonical id: normalises ids and drops the others (R-L1). */
export const canonicalInputs: Shim = {
  payload: (op, _sent, payload) => {
    if (op !== 'lookup' || !Array.isArray(payload['locations'])) return payload;
    return { ...payload, locations: payload['locations'].map((l: unknown) => (isRecord(l) ? { ...l, inputs: [{ id: l['id'] }] } : l)) };
  },
};

/** Drops the batch_limit_applied message: an oversize batch is silently truncated (R-L3). */
export const silentBatchLimit: Shim = {
  payload: (op, _sent, payload) => {
    if (op !== 'lookup' || !Array.isArray(payload['messages'])) return payload;
    const messages = payload['messages'].filter((m) => !(isRecord(m) && m['code'] === 'batch_limit_applied'));
    const { messages: _dropped, ...rest } = payload;
    return messages.length > 0 ? { ...rest, messages } : rest;
  },
};

/** Serves the profile through a redirect (R-D5, R-N3). */
export const redirectsProfile: Shim = {
  intercept: (req, res) => {
    if ((req.url ?? '').split('?')[0] !== '/.well-known/ucp') return false;
    req.resume();
    res.writeHead(301, { location: '/profiles/ucp.json', 'cache-control': 'public, max-age=300' }).end();
    return true;
  },
};

/** Serves the profile without any validator (R-D5). */
export const noProfileValidator: Shim = {
  profileHeaders: (headers) => {
    delete headers['etag'];
    delete headers['last-modified'];
  },
};

/** Answers an unknown tool with -32601 (method not found) instead of MCP's -32602 (R-M1). */
export const unknownToolAsMethod: Shim = {
  rpcError: (error) =>
    typeof error['message'] === 'string' && error['message'].startsWith('Unknown tool') ? { ...error, code: -32601 } : error,
};

/** The fixture with a private hub published as public: the Business leaks it (R-S11). */
export function leakyRecords(): LocationRecord[] {
  return fixtureRecords().map((r) => (r.id === 'loc_la_private_hub' ? { ...r, visibility: 'public' as const } : r));
}

/**
 * Reads `serves` leniently instead of refusing it (R-S5): of several targets only the first is
 * used, and an address naming no country, region or postal code is dropped, so the search
 * silently broadens to a browse. An empty map and unknown keys are still refused (by the engine).
 */
export const lenientServes: Shim = {
  request: (_op, r) => {
    const serves = r['serves'];
    if (!isRecord(serves)) return r;
    const [first, ...others] = Object.keys(serves);
    if (first !== undefined && others.length > 0) r['serves'] = { [first]: serves[first] };
    const address = isRecord(r['serves']) ? r['serves']['address'] : undefined;
    if (
      isRecord(address) &&
      !['address_country', 'address_region', 'postal_code'].some((k) => typeof address[k] === 'string' && address[k] !== '')
    )
      delete r['serves'];
    return r;
  },
};

/**
 * Reads an `open_at` instant without offset as UTC instead of refusing it (R-M1: every schema
 * failure is an invalid-params error): "2026-11-30T10:00:00" quietly becomes "…Z".
 */
export const acceptsOffsetlessInstant: Shim = {
  request: (_op, r) => {
    const filters = r['filters'];
    const hours = isRecord(filters) ? filters['hours'] : undefined;
    const openAt = isRecord(hours) ? hours['open_at'] : undefined;
    if (isRecord(hours) && typeof openAt === 'string' && /T\d\d:\d\d:\d\d$/.test(openAt)) hours['open_at'] = `${openAt}Z`;
    return r;
  },
};

/** Item ids the fixture's Locations carry. */
const KNOWN_ITEMS = new Set(fixtureRecords().flatMap((r) => r.items ?? []));

/** Refuses `filters.items` naming an item it does not carry as an invalid request, instead of matching nothing (R-S8). */
export const refusesUnknownItems: Shim = {
  refuse: (_op, r) => {
    const filters = r['filters'];
    const items = isRecord(filters) && Array.isArray(filters['items']) ? filters['items'] : [];
    const unknown = items.find((item) => typeof item !== 'string' || !KNOWN_ITEMS.has(item));
    return unknown === undefined
      ? undefined
      : { pointer: '/filters/items', message: `filters.items: unknown item ${JSON.stringify(unknown)}` };
  },
};

/**
 * Derives a serves target from the buyer's `context` locality (R-S3): a search that carries
 * context is narrowed to the Locations serving that country / region / postal code.
 */
export const contextAsServes: Shim = {
  request: (_op, r) => {
    const context = r['context'];
    if (!isRecord(context) || r['serves'] !== undefined) return r;
    const address = Object.fromEntries(
      ['address_country', 'address_region', 'postal_code'].flatMap((k) =>
        typeof context[k] === 'string' && context[k] !== '' ? [[k, context[k]]] : [],
      ),
    );
    if (Object.keys(address).length > 0) r['serves'] = { address };
    return r;
  },
};

/**
 * Never compares the Platform's `ucp.version` (R-G3). Modelled at the door: a call naming the
 * checker's profile that declares an unsupported release is answered as if it named the checker's
 * regular profile (same origin), so it goes through as though the versions matched.
 */
export const ignoresPlatformVersion: Shim = {
  agentProfile: (url) =>
    url.endsWith(UNSUPPORTED_VERSION_PATH) ? `${url.slice(0, -UNSUPPORTED_VERSION_PATH.length)}${FULL_PROFILE_PATH}` : url,
};

/**
 * Never reuses a fetched Platform profile (R-G2): every call names the profile with a fresh query
 * string, so the Business (whose cache is keyed by URL) fetches it again each time — as a
 * Business without a profile cache would.
 */
let refetchCounter = 0;
export const refetchesProfile: Shim = {
  agentProfile: (url) => `${url}${url.includes('?') ? '&' : '?'}fresh=${++refetchCounter}`,
};

/** Throttles MCP calls with -32000 but drops `error.data.retry_after` (R-G7). */
export const rateLimitWithoutRetryAfter: Shim = {
  rpcError: (error) =>
    error['code'] === -32000 && isRecord(error['data']) && 'retry_after' in error['data']
      ? { code: error['code'], message: error['message'] }
      : error,
};

/** A per-IP budget small enough for the rate-limit probe to reach in a test. */
export function tightRateLimitConfig(): ServerConfig {
  return { ...DEFAULT_CONFIG, rateLimits: { ...DEFAULT_CONFIG.rateLimits, perIp: { limit: 40, windowSeconds: 60 } } };
}

export function tightRateLimit(): BrokenServerOptions {
  return { config: tightRateLimitConfig() };
}

/**
 * A per-address budget a whole run cannot exhaust: for faults that make the checker send far more
 * calls than usual (an endless walk), so the budget's 429s do not blur the fault under test.
 */
export function roomyRateLimit(): BrokenServerOptions {
  return { config: { ...DEFAULT_CONFIG, rateLimits: { ...DEFAULT_CONFIG.rateLimits, perIp: { limit: 100_000, windowSeconds: 60 } } } };
}

/** Cursor value the stalling server hands out once a browse has really ended. */
const STALL_CURSOR = 'stall';

/**
 * Never lets a browse end (R-S9): where the last page would say `has_next_page: false`, it
 * announces another page with a cursor of its own, and answers that cursor with an empty page
 * that announces yet another. No Location repeats and none is new: the walk goes nowhere.
 */
export const stallingBrowse: Shim = {
  request: (op, r) => {
    const pagination = r['pagination'];
    if (op !== 'search' || !isRecord(pagination) || pagination['cursor'] !== STALL_CURSOR) return r;
    // A search nothing matches stands in for "the page after the end".
    return { query: 'zzqx no such location zzqx', pagination: { limit: pagination['limit'] ?? 10 } };
  },
  payload: (op, sent, payload) => {
    const isBrowse = Object.keys(sent).every((k) => k === 'pagination');
    const pagination = payload['pagination'];
    if (op !== 'search' || !isBrowse || !isRecord(pagination) || pagination['has_next_page'] !== false) return payload;
    return { ...payload, pagination: { has_next_page: true, cursor: STALL_CURSOR } };
  },
};

/**
 * A bounded browse with no bound (R-S2): the whole directory, page after page. 190 generated
 * public Locations join the fixture's 30, and pages hold at most 4, so the checker's R-S2 walk
 * (50 pages of at most 4 = 200) is still growing when its budget runs out. Its R-S9 walk (pages
 * of 2) pages correctly and passes. Rate limits are off: the walks are long.
 */
export function exportingDirectory(): BrokenServerOptions {
  const generated: LocationRecord[] = Array.from({ length: 190 }, (_, i) => ({
    id: `x_export_${String(i).padStart(3, '0')}`,
    name: `Outback Depot ${i}`,
    geo: { latitude: -25 + Math.floor(i / 20) * 0.1, longitude: 133 + (i % 20) * 0.1 },
  }));
  return {
    records: [...fixtureRecords(), ...generated],
    config: {
      ...DEFAULT_CONFIG,
      limits: { ...DEFAULT_CONFIG.limits, defaultPageSize: 4, maxPageSize: 4, browseCap: 1_000_000 },
      rateLimits: { ...DEFAULT_CONFIG.rateLimits, enabled: false },
    },
  };
}

const RPC_MEMBERS = ['jsonrpc', 'id', 'method', 'params', 'result', 'error'];
const idOf = (m: unknown): unknown => (isRecord(m) ? (m['id'] ?? null) : null);
const isToolCall = (m: unknown): boolean => isRecord(m) && m['method'] === 'tools/call';

/** Refuses a batch longer than 20 messages with one -32600 object (R-J1: an array, per element). */
export const refusesLongBatches: Shim = {
  rpc: (message) =>
    Array.isArray(message) && message.length > 20
      ? {
          status: 400,
          body: { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: a batch may hold at most 20 messages.' } },
        }
      : undefined,
};

/** Refuses a message with a member JSON-RPC does not define (R-J1: tolerated). */
export const refusesExtraMembers: Shim = {
  rpc: (message) =>
    isRecord(message) && Object.keys(message).some((k) => !RPC_MEMBERS.includes(k))
      ? {
          status: 400,
          body: {
            jsonrpc: '2.0',
            id: idOf(message),
            error: { code: -32600, message: 'Invalid Request: a request needs "id" and "method".' },
          },
        }
      : undefined,
};

/** After 30 tool calls, refuses each with a well-shaped 429 whose id is null (R-J1: it echoes the id). */
export function nullIdOn429(): Shim {
  let calls = 0;
  return {
    rpc: (message) => {
      if (!isToolCall(message) || ++calls <= 30) return undefined;
      const error = { code: -32000, message: 'Rate limit exceeded; retry after 60 s', data: { retry_after: 60 } };
      return { status: 429, body: { jsonrpc: '2.0', id: null, error } };
    },
  };
}

/** After 10 tool calls, refuses each as a discovery failure that asks to retry later (R-G7: a rate limit). */
export function discoveryBudgetAsUnreachable(): Shim {
  let calls = 0;
  return {
    rpc: (message) => {
      if (!isToolCall(message) || ++calls <= 10) return undefined;
      const content = 'Platform profile discovery is temporarily rate-limited; retry in 2 s.';
      const error = { code: -32001, message: `UCP discovery failed: ${content}`, data: { code: 'profile_unreachable', content } };
      return { status: 200, body: { jsonrpc: '2.0', id: idOf(message), error } };
    },
  };
}

/** Binds a search cursor to a member its answer reported as ignored (R-J2): leaving it out breaks the cursor. */
export const cursorBindsIgnoredMembers: Shim = {
  refuse: (operation, request) => {
    const pagination = request['pagination'];
    if (operation !== 'search' || !isRecord(pagination) || typeof pagination['cursor'] !== 'string') return undefined;
    if (Object.keys(request).some((k) => k.startsWith('conformance_'))) return undefined;
    return { pointer: '/pagination/cursor', message: 'invalid_cursor: it was issued for a different query' };
  },
};
