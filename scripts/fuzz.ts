/**
 * npm run fuzz [-- --count 100000 --seconds 600 --seed 1 --concurrency 8]
 *
 * Mutation fuzzer for the business server's two bindings. Starts the demo server itself on
 * 127.0.0.1 (free port, rate limits off, a DNS resolver that refuses every name, so no mutated
 * profile URL can cause traffic off the machine), then sends seeded mutations of valid MCP
 * (JSON-RPC) and REST requests: deep nesting, type swaps, huge and odd numbers, byte damage,
 * truncation, duplicate keys, batches, wrong media types. Stops after --count calls or --seconds,
 * whichever comes first.
 *
 * Every call must be answered below 500 with a body in its binding's shape (JSON-RPC on /ucp/mcp,
 * a UCP error body on REST errors); a 5xx, a dropped or reset connection, or a crash is a failure.
 * Exit status: 0 when there was none, 1 otherwise (the first few are printed with the seed and
 * call number that reproduce them), 2 on a usage error.
 */
import { Agent, request } from 'node:http';
import { parseArgs } from 'node:util';
import { Rng } from '../bench/lib/rng.js';
import { createLogger } from '../src/logging.js';
import { parseConfig } from '../src/config.js';
import { DEMO_PLATFORM_PROFILE_URL, startServer } from '../src/server.js';

const USAGE = `usage: npm run fuzz -- [--count N] [--seconds S] [--seed X] [--concurrency C]
  --count        calls to make (default 10000)
  --seconds      stop after this long even if --count is not reached (default 120)
  --seed         seed of the mutations; the same seed replays the same calls (default 1)
  --concurrency  calls in flight at once (default 8)`;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface Call {
  path: '/ucp/mcp' | '/ucp/locations/search' | '/ucp/locations/lookup';
  body: string | Buffer;
  contentType: string;
  mutation: string;
}

interface Failure {
  call: number;
  mutation: string;
  path: string;
  what: string;
  body: string;
}

const META = { 'ucp-agent': { profile: DEMO_PLATFORM_PROFILE_URL } };
const UCP_AGENT = `profile="${DEMO_PLATFORM_PROFILE_URL}"`;

/** Valid requests of every operand, the seeds of all mutations. */
const SEARCHES: Json[] = [
  { query: 'grocery store' },
  {},
  { distance: { center: { latitude: 37.7955, longitude: -122.3937 }, max: 2000 }, pagination: { limit: 3 } },
  { serves: { point: { latitude: 37.9, longitude: -122.54 } } },
  { filters: { amenities: ['dev.ucp.amenity.wi_fi'], items: ['sku-sourdough'] } },
  { query: 'coffee', filters: { open_at: '2026-09-01T10:00:00-07:00' }, context: { locale: 'en-US' }, signals: {} },
];
const LOOKUPS: Json[] = [
  { ids: ['loc_downtown', 'dt-01', 'nope'] },
  { ids: ['loc_valley_grocers'], distance: { center: { latitude: 37.7936, longitude: -122.3958 }, max: 500 } },
];

function mcpCall(id: Json, tool: string, location: Json): Json {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: { meta: META, location } } };
}

const ODD_VALUES: Json[] = [
  null,
  true,
  0,
  -1,
  1e308,
  -1e-308,
  2 ** 53 + 1,
  '',
  'x'.repeat(5000),
  '\u0000\ud7ff\uffff',
  [],
  {},
  [null],
  { '': null },
  '2026-13-45T25:61:00',
  'https://platform.example/profiles/v2026-01/agent.json#x',
  'http://127.0.0.1:1/profile.json',
];
/** Numbers JSON.stringify cannot produce, spliced in as text. */
const ODD_NUMBER_TEXT = ['1e999999', '-1e999999', '123456789012345678901234567890', '-0', '0.0000000000000000000000001', '1E+2', '-9e-400'];

function main(argv: string[]): Promise<number> | number {
  let options;
  try {
    options = parseArgs({
      args: argv,
      options: {
        count: { type: 'string', default: '10000' },
        seconds: { type: 'string', default: '120' },
        seed: { type: 'string', default: '1' },
        concurrency: { type: 'string', default: '8' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }
  if (options.help === true) {
    console.log(USAGE);
    return 0;
  }
  const count = Number(options.count);
  const seconds = Number(options.seconds);
  const concurrency = Number(options.concurrency);
  if (![count, seconds, concurrency].every((n) => Number.isFinite(n) && n > 0)) {
    console.error(`--count, --seconds and --concurrency must be positive numbers\n${USAGE}`);
    return 2;
  }
  return fuzz({ count, seconds, seed: options.seed, concurrency: Math.floor(concurrency) });
}

async function fuzz(o: { count: number; seconds: number; seed: string; concurrency: number }): Promise<number> {
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    logger: createLogger({ level: 'silent' }),
    config: parseConfig({ rateLimits: { enabled: false } }),
    // No mutated profile URL may reach DNS or the network: every name is "unknown".
    resolveHost: (hostname) => Promise.reject(Object.assign(new Error(`fuzz: no DNS for ${hostname}`), { code: 'ENOTFOUND' })),
  });
  const target = new URL(server.url);
  const agent = new Agent({ keepAlive: true, maxSockets: o.concurrency });
  const statuses = new Map<number, number>();
  const mutations = new Map<string, number>();
  const failures: Failure[] = [];
  const started = performance.now();
  const deadline = started + o.seconds * 1000;
  let next = 0;
  let done = 0;
  let lastReport = started;

  const worker = async (): Promise<void> => {
    while (next < o.count && performance.now() < deadline) {
      const n = next++;
      // One generator per call: call n is the same whatever the concurrency or the timing.
      const call = makeCall(new Rng(`${o.seed}:${n}`));
      mutations.set(call.mutation, (mutations.get(call.mutation) ?? 0) + 1);
      const outcome = await send(target, agent, call);
      done++;
      if (typeof outcome === 'number') statuses.set(outcome, (statuses.get(outcome) ?? 0) + 1);
      const problem = typeof outcome === 'number' ? (outcome >= 500 ? `HTTP ${outcome}` : undefined) : outcome.error;
      if (problem !== undefined) {
        failures.push({
          call: n,
          mutation: call.mutation,
          path: call.path,
          what: problem,
          body: String(call.body).slice(0, 300),
        });
      }
      const now = performance.now();
      if (now - lastReport >= 10_000) {
        lastReport = now;
        console.error(`… ${n + 1} calls, ${failures.length} failures, ${Math.round(((n + 1) * 1000) / (now - started))} calls/s`);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: o.concurrency }, worker));
  } finally {
    agent.destroy();
    await server.close();
  }
  const elapsed = (performance.now() - started) / 1000;
  const calls = done;
  console.log(`fuzz: seed ${o.seed}, ${calls} calls in ${elapsed.toFixed(1)} s (${Math.round(calls / elapsed)} calls/s)`);
  console.log(
    `status: ${[...statuses.entries()]
      .sort(([a], [b]) => a - b)
      .map(([s, c]) => `${s}×${c}`)
      .join('  ')}`,
  );
  console.log(
    `mutations: ${[...mutations.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([m, c]) => `${m}×${c}`)
      .join('  ')}`,
  );
  const fiveXx = [...statuses.entries()].filter(([s]) => s >= 500).reduce((a, [, c]) => a + c, 0);
  const dropped = failures.filter((f) => f.what.startsWith('network')).length;
  console.log(
    `failures: ${failures.length} (5xx: ${fiveXx}, dropped connections: ${dropped}, wrong shape: ${failures.length - fiveXx - dropped})`,
  );
  for (const f of failures.slice(0, 5)) {
    console.log(`  call ${f.call} (${f.mutation}, ${f.path}): ${f.what}\n    body: ${JSON.stringify(f.body)}`);
  }
  return failures.length === 0 ? 0 : 1;
}

/** The status, or a network-level failure (the server dropped or reset the connection). */
function send(target: URL, agent: Agent, call: Call): Promise<number | { error: string }> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: call.path,
        method: 'POST',
        agent,
        headers: { 'content-type': call.contentType, 'ucp-agent': UCP_AGENT },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          const shape = checkShape(call, status, Buffer.concat(chunks).toString('utf8'));
          resolve(shape === undefined ? status : { error: `HTTP ${status}, ${shape}` });
        });
        res.on('error', (e) => resolve({ error: `network: ${e.message}` }));
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: `network: ${e.code ?? e.message}` }));
    req.end(call.body);
  });
}

/** Every answer in its binding's shape: JSON-RPC on /ucp/mcp (or nothing for 202), UCP errors on REST. */
function checkShape(call: Call, status: number, text: string): string | undefined {
  if (status === 202 && call.path === '/ucp/mcp') return text === '' ? undefined : '202 with a body';
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `body is not JSON: ${JSON.stringify(text.slice(0, 80))}`;
  }
  if (call.path === '/ucp/mcp') {
    const items = Array.isArray(body) ? body : [body];
    const ok = items.every((i) => typeof i === 'object' && i !== null && (i as { jsonrpc?: unknown }).jsonrpc === '2.0');
    return ok && (!Array.isArray(body) || body.length > 0) ? undefined : 'not a JSON-RPC answer';
  }
  if (status >= 400) {
    const ucp = (body as { ucp?: { status?: unknown } } | null)?.ucp;
    return ucp?.status === 'error' ? undefined : 'REST error without a UCP error body';
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Mutations

const MUTATIONS = ['valid', 'deep', 'type_swap', 'odd_number', 'byte_damage', 'truncate', 'duplicate_key', 'batch', 'media_type'] as const;

function makeCall(rng: Rng): Call {
  const mcp = rng.chance(0.6);
  const lookup = rng.chance(0.3);
  const location = structuredClone(rng.pick(lookup ? LOOKUPS : SEARCHES));
  const base: Json = mcp ? mcpCall(rng.int(1000), lookup ? 'lookup_locations' : 'search_locations', location) : location;
  const path = mcp ? '/ucp/mcp' : lookup ? '/ucp/locations/lookup' : '/ucp/locations/search';
  const mutation = rng.pick(MUTATIONS);
  const call = (body: string | Buffer, contentType = 'application/json'): Call => ({ path, body, contentType, mutation });
  switch (mutation) {
    case 'valid':
      return call(JSON.stringify(base));
    case 'deep': {
      // Up to 200,000 levels: past the depth limit, and sometimes past the size limit too.
      const depth = rng.pick([10, 63, 65, 1_000, 3_000, 10_000, 200_000]);
      const [open, close] = rng.pick([
        ['[', ']'],
        ['{"a":', '}'],
        ['{"a":[', ']}'],
      ] as const);
      const text = JSON.stringify(replaceRandomNode(rng, base, '__DEEP__'));
      return call(text.replace('"__DEEP__"', open.repeat(depth) + '1' + close.repeat(depth)));
    }
    case 'type_swap': {
      let value = base;
      for (let i = rng.int(3) + 1; i > 0; i--) value = replaceRandomNode(rng, value, rng.pick(ODD_VALUES));
      return call(JSON.stringify(value));
    }
    case 'odd_number': {
      const text = JSON.stringify(replaceRandomNode(rng, base, '__NUM__'));
      return call(text.replace('"__NUM__"', rng.pick(ODD_NUMBER_TEXT)));
    }
    case 'byte_damage': {
      const bytes = Buffer.from(JSON.stringify(base));
      for (let i = rng.int(8) + 1; i > 0; i--) bytes[rng.int(bytes.length)] = rng.int(256);
      return call(bytes);
    }
    case 'truncate': {
      const text = JSON.stringify(base);
      return call(text.slice(0, rng.int(text.length)));
    }
    case 'duplicate_key': {
      // JSON.parse keeps the last of duplicate members; a conflicting first one must not matter.
      const text = JSON.stringify(base);
      const at = text.indexOf('{', rng.int(Math.max(1, text.length - 1)));
      if (at < 0) return call(text);
      const dup = `"${rng.pick(['location', 'ids', 'query', 'jsonrpc', 'method', 'params', 'id', 'distance'])}":${JSON.stringify(rng.pick(ODD_VALUES))},`;
      const closing = text.indexOf('}', at);
      return call(text.slice(0, at + 1) + (closing === at + 1 ? dup.slice(0, -1) : dup) + text.slice(at + 1));
    }
    case 'batch': {
      // Past the per-batch limit (20) too: each further request is refused on its own (R-J1).
      const size = rng.pick([0, 1, 2, 5, 20, 21, 25, 40]);
      const items: Json[] = Array.from({ length: size }, (_, i) => {
        const tool = rng.chance(0.5) ? 'search_locations' : 'lookup_locations';
        const plain: { [key: string]: Json } = rng.chance(0.2)
          ? { jsonrpc: '2.0', method: 'notifications/initialized' }
          : {
              jsonrpc: '2.0',
              id: i,
              method: 'tools/call',
              params: { name: tool, arguments: { meta: META, location: structuredClone(rng.pick(SEARCHES)) } },
            };
        // Members JSON-RPC does not define are tolerated, and must stay harmless.
        const item: Json = rng.chance(0.1) ? { ...plain, extra: rng.pick(ODD_VALUES) } : plain;
        return rng.chance(0.3) ? replaceRandomNode(rng, item, rng.pick(ODD_VALUES)) : item;
      });
      return { ...call(JSON.stringify(items)), path: '/ucp/mcp' };
    }
    case 'media_type':
      return call(
        JSON.stringify(base),
        rng.pick(['text/plain', 'application/json; charset=latin1', '', 'application/x-www-form-urlencoded']),
      );
  }
}

/** A copy of `value` with one node (possibly the root) chosen uniformly replaced by `replacement`. */
function replaceRandomNode(rng: Rng, value: Json, replacement: Json): Json {
  const copy = structuredClone(value);
  const slots: { parent: Json[] | Record<string, Json>; key: string | number }[] = [];
  const stack: Json[] = [copy];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (Array.isArray(node)) {
      node.forEach((child, i) => {
        slots.push({ parent: node, key: i });
        stack.push(child);
      });
    } else if (node !== null && typeof node === 'object') {
      for (const [k, child] of Object.entries(node)) {
        slots.push({ parent: node, key: k });
        stack.push(child);
      }
    }
  }
  const choice = rng.int(slots.length + 1);
  if (choice === slots.length) return replacement;
  const slot = slots[choice];
  if (slot === undefined) return replacement;
  (slot.parent as Record<string | number, Json>)[slot.key] = replacement;
  return copy;
}

process.exitCode = await main(process.argv.slice(2));
