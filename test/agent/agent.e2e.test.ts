/**
 * `ucp-location agent` end to end: the real CLI as a child process, the official MCP SDK client
 * over stdio and over Streamable HTTP, in front of real businesses on loopback — one offering only
 * MCP, one only REST, one down — and, in a second bridge, one business per failure class.
 *
 * Every answer of a run is collected; the last test of each suite checks that no private Location
 * appeared in any of them, and that the bridge's log never held a precise buyer coordinate.
 */
import { request as httpRequest } from 'node:http';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPlatformProfile } from '../../src/client/platform-profile.js';
import { startProfileHost, type ProfileHost } from '../client/support/peers.js';
import { useScratchDir } from '../support/scratch.js';
import { connectAgent, textOf, type AgentConnection, type AgentMode } from './support/agent-process.js';
import { CENTER, PER_BUSINESS, startErrorFleet, startMainFleet, type Fleet } from './support/fleet.js';
import { allowForChildProcesses } from '../support/child-process-budget.js';

allowForChildProcesses();

interface View {
  business: string;
  location: { id: string; name: string; amenities?: Record<string, unknown>; inputs?: { id: string }[] };
  distance_meters?: number;
  hours: { state: string; text: string; timezone?: string };
}
interface FindResult {
  order: string;
  results: View[];
  next_cursor?: string;
  failures: { business: string; kind: string; code: string; reason: string; retry_after_seconds?: number }[];
  businesses_asked: string[];
  radius_defaulted?: boolean;
  first_position: number;
  total_sorted?: number;
}

function structured<T>(result: CallToolResult): T {
  expect(result.structuredContent).toBeDefined();
  return result.structuredContent as T;
}

const MODES: AgentMode[] = ['stdio', 'http'];

/**
 * The per-business timeout of the businesses meant to answer: the businesses run in this test
 * process, and beside twenty other processes on two cores a profile answer took over 5 s. The
 * suite is about what the bridge says, so they get a minute; the one business that must time out
 * ("slow") keeps a timeout of its own.
 */
const PATIENT_MS = 60_000;
const configDir = useScratchDir('ucp-agent-patient');
/** An agent configuration file with PATIENT_MS as every business's default timeout. */
function patientConfig(): string {
  const path = join(configDir(), 'patient.json');
  writeFileSync(path, JSON.stringify({ timeoutMs: PATIENT_MS }));
  return path;
}

describe.each(MODES)('agent bridge over %s: two businesses (MCP only, REST only) and one down', (mode) => {
  let fleet: Fleet & { proxies: { north: { requests: string[] }; south: { requests: string[] } } };
  let agent: AgentConnection;
  const answers: CallToolResult[] = [];
  const call = async (name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> => {
    const result = await agent.call(name, args);
    answers.push(result);
    return result;
  };

  let profiles: ProfileHost | undefined;

  beforeAll(async () => {
    fleet = await startMainFleet();
    // Over stdio the bridge serves its generated profile; over HTTP it names one published elsewhere.
    let profileFlags = ['--serve-profile'];
    if (mode === 'http') {
      profiles = await startProfileHost();
      profileFlags = ['--platform-profile', profiles.publish('/.well-known/ucp-platform.json', buildPlatformProfile()), '--allow-loopback'];
    }
    agent = await connectAgent(mode, [...fleet.flags.flatMap((f) => ['--business', f]), '--config', patientConfig(), ...profileFlags]);
  });

  afterAll(async () => {
    await agent?.close();
    await fleet?.close();
    await profiles?.close();
  });

  it('lists three tools with flat input schemas, a description on every property, and output schemas', async () => {
    const { tools } = await agent.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['list_businesses', 'find_locations', 'get_locations']);
    for (const tool of tools) {
      expect(tool.description?.length).toBeGreaterThan(80);
      expect(tool.outputSchema).toBeDefined();
      expect(tool.annotations?.readOnlyHint).toBe(true);
      for (const [name, property] of Object.entries(tool.inputSchema.properties ?? {})) {
        expect((property as { description?: string }).description, `${tool.name}.${name}`).toMatch(/\w/);
        expect(['meta', 'location', 'profile']).not.toContain(name);
      }
    }
    const find = tools.find((t) => t.name === 'find_locations');
    expect(Object.keys(find?.inputSchema.properties ?? {})).toEqual([
      'business',
      'query',
      'near',
      'radius',
      'open_now',
      'open_at',
      'amenities',
      'items',
      'language',
      'limit',
      'cursor',
    ]);
  });

  it('list_businesses: one line per business with its status; the two live ones over the transport each offers', async () => {
    const result = await call('list_businesses');
    expect(result.isError).toBeFalsy();
    const text = textOf(result);
    expect(text).toMatch(/^3 businesses configured, 2 ok:/);
    expect(text).toMatch(/- north \(http:\/\/127\.0\.0\.1:\d+\): ok — UCP 2026-08-25, search \+ lookup, over MCP/);
    expect(text).toMatch(/- south \(http:\/\/127\.0\.0\.1:\d+\): ok — UCP 2026-08-25, search \+ lookup, over REST/);
    expect(text).toMatch(/- down \(http:\/\/127\.0\.0\.1:\d+\): unreachable — down could not be reached \(.*ECONNREFUSED/);
    const { businesses } = structured<{ businesses: { name: string; status: string; transport?: string; capabilities: string[] }[] }>(
      result,
    );
    expect(businesses.map((b) => [b.name, b.status, b.transport])).toEqual([
      ['north', 'ok', 'mcp'],
      ['south', 'ok', 'rest'],
      ['down', 'unreachable', undefined],
    ]);
    expect(businesses[0]?.capabilities).toEqual(['dev.ucp.common.location.search', 'dev.ucp.common.location.lookup']);
  });

  it('find_locations near: one list from both businesses, nearest first, the down one named — a successful result', async () => {
    const result = await call('find_locations', { query: 'grocery', near: CENTER, radius: '3km', limit: 12 });
    expect(result.isError).toBeFalsy();
    const found = structured<FindResult>(result);
    // The answer's text goes with every assertion: on a failure it says what the model saw.
    const seen = textOf(result);
    expect(found.order, seen).toBe('distance');
    expect(found.failures, seen).toEqual([expect.objectContaining({ business: 'down', kind: 'unreachable' })]);
    expect(found.results, seen).toHaveLength(12);
    expect(new Set(found.results.map((r) => r.business)), seen).toEqual(new Set(['north', 'south']));
    const distances = found.results.map((r) => r.distance_meters ?? -1);
    expect(distances, seen).toEqual([...distances].sort((a, b) => a - b));
    expect(found.next_cursor).toEqual(expect.any(String));
    const text = textOf(result);
    expect(text).toMatch(/^Locations 1–12 of \d+ matching "grocery" within 3 km of the given point, nearest first, from 3 businesses/);
    expect(text).toMatch(/\n1\. (North|South) Market \d+ — (north|south), id "\w+", \d+ m away\n/);
    expect(text).toMatch(/(Open|Closed) now/);
    expect(text).toContain('(America/New_York)');
    expect(text).toMatch(/Not included: down could not be reached/);
    expect(text).toMatch(/More results: call find_locations with \{"cursor": "[\w-]+"\} \(and "limit": 12\)\./);
    // Each business was reached over its one binding only.
    expect(fleet.proxies.north.requests.some((r) => r.startsWith('POST /ucp/mcp'))).toBe(true);
    expect(fleet.proxies.north.requests.some((r) => r.includes('/ucp/locations/'))).toBe(false);
    expect(fleet.proxies.south.requests.some((r) => r === 'POST /ucp/locations/search')).toBe(true);
    expect(fleet.proxies.south.requests.some((r) => r.startsWith('POST /ucp/mcp'))).toBe(false);
  });

  it('the cursor continues the merged list to its end without repeats; a changed cursor is refused', async () => {
    const first = structured<FindResult>(await call('find_locations', { near: CENTER, radius: '3km', limit: 20 }));
    const seen = first.results.map((r) => `${r.business}/${r.location.id}`);
    let cursor = first.next_cursor;
    let last = first.results.at(-1)?.distance_meters ?? 0;
    let pages = 1;
    while (cursor !== undefined) {
      const page = structured<FindResult>(await call('find_locations', { cursor, limit: 20 }));
      expect(page.first_position).toBe(seen.length + 1);
      expect(page.results[0]?.distance_meters ?? 0).toBeGreaterThanOrEqual(last);
      last = page.results.at(-1)?.distance_meters ?? last;
      seen.push(...page.results.map((r) => `${r.business}/${r.location.id}`));
      cursor = page.next_cursor;
      pages += 1;
    }
    expect(pages).toBeGreaterThan(1);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toHaveLength(first.total_sorted ?? -1);
    expect(seen.length).toBeLessThanOrEqual(2 * PER_BUSINESS);

    const again = structured<FindResult>(await call('find_locations', { near: CENTER, radius: '3km', limit: 5 }));
    const cursorText = again.next_cursor ?? '';
    const tampered = `${cursorText.slice(0, 30)}${cursorText[30] === 'A' ? 'B' : 'A'}${cursorText.slice(31)}`;
    const refused = await call('find_locations', { cursor: tampered });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^"cursor" is not one this bridge issued .*call find_locations again without "cursor"/);
    const mismatch = await call('find_locations', { cursor: cursorText, query: 'something else' });
    expect(mismatch.isError).toBe(true);
    expect(textOf(mismatch)).toMatch(/continues a different list/);
    // The same arguments repeated with the cursor are fine.
    const repeated = await call('find_locations', { cursor: cursorText, near: CENTER, radius: '3km', limit: 5 });
    expect(structured<FindResult>(repeated).first_position).toBe(6);
  });

  it('without near the businesses take turns in their own order, and the cursor continues the turns', async () => {
    const first = structured<FindResult>(await call('find_locations', { query: 'grocery', limit: 6 }));
    expect(first.order).toBe('turns');
    expect(first.results.map((r) => r.business)).toEqual(['north', 'south', 'north', 'south', 'north', 'south']);
    const second = structured<FindResult>(await call('find_locations', { cursor: first.next_cursor, limit: 6 }));
    const ids = [...first.results, ...second.results].map((r) => r.location.id);
    expect(new Set(ids).size).toBe(12);
    expect(second.results.map((r) => r.business)).toEqual(['north', 'south', 'north', 'south', 'north', 'south']);
  });

  it('open_now, amenities and items filter every business; near without radius is 5 km and says so', async () => {
    const open = await call('find_locations', { near: CENTER, open_now: true, limit: 50 });
    const found = structured<FindResult>(open);
    expect(found.radius_defaulted).toBe(true);
    expect(textOf(open)).toContain('No radius was given, so 5 km was used');
    expect(found.results.length).toBe(PER_BUSINESS); // the always-open half of both datasets
    expect(found.results.every((r) => r.hours.state === 'open' && r.hours.timezone === 'America/New_York')).toBe(true);
    expect(found.results.every((r) => Number(r.location.id.split('_')[1]) % 2 === 0)).toBe(true);

    const parking = structured<FindResult>(
      await call('find_locations', { near: CENTER, amenities: ['dev.ucp.amenity.parking'], limit: 50 }),
    );
    expect(parking.results.length).toBe(2 * (PER_BUSINESS / 3));
    expect(parking.results.every((r) => r.location.amenities?.['dev.ucp.amenity.parking'] !== undefined)).toBe(true);

    const milk = await call('find_locations', { near: CENTER, items: ['sku-milk'], business: 'south', limit: 50 });
    expect(
      structured<FindResult>(milk)
        .results.map((r) => r.location.id)
        .sort(),
    ).toEqual(['south_00', 'south_04', 'south_08', 'south_12', 'south_16', 'south_20']);
    expect(textOf(milk)).toContain('Has the requested items: sku-milk');
  });

  it('get_locations resolves aliases, names unknown ids, and never reveals a private Location', async () => {
    const result = await call('get_locations', {
      business: 'north',
      ids: ['north_03', 'north-store-3', 'north-store-5', 'nope', 'north_hidden', 'north-hub'],
    });
    expect(result.isError).toBeFalsy();
    const got = structured<{ results: View[]; not_found: string[] }>(result);
    expect(got.results.map((r) => r.location.id)).toEqual(['north_03', 'north_05']);
    expect(got.results[0]?.location.inputs).toEqual([{ id: 'north_03' }, { id: 'north-store-3' }]);
    expect(got.not_found).toEqual(['nope', 'north_hidden', 'north-hub']);
    const text = textOf(result);
    expect(text).toMatch(/^north: 2 Locations for 6 ids\./);
    expect(text).toContain('Asked for as: "north-store-3"');
    expect(text).toContain('Not found at north (unknown there, or not public): "nope", "north_hidden", "north-hub".');
    // Over REST too (south), by business URL rather than name.
    const southUrl = fleet.flags[1]?.split('=')[1] ?? '';
    const south = structured<{ results: View[] }>(await call('get_locations', { business: southUrl, ids: ['south-store-7'] }));
    expect(south.results.map((r) => r.location.id)).toEqual(['south_07']);
  });

  it('input problems are tool results with isError and one sentence naming the argument — never JSON-RPC errors', async () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['find_locations', { query: 'grocery', near: 'Los Angeles' }, /^"near" got the text "Los Angeles", but it must be coordinates/],
      [
        'find_locations',
        { query: 'grocery', location: { query: 'grocery' } },
        /^Unknown argument "location": find_locations accepts only .* this bridge adds the UCP envelope/,
      ],
      ['find_locations', { near: CENTER, radius: '5' }, /^"radius" "5" has no unit; write "5km", "5 mi" or "5m"/],
      ['find_locations', { radius: '5km' }, /^"radius" needs "near"/],
      [
        'find_locations',
        { business: 'nowhere' },
        /^No business is called "nowhere"; use one of the configured names or URLs: north \(http/,
      ],
      [
        'find_locations',
        { open_at: 'tomorrow at 6' },
        /^"open_at" got "tomorrow at 6" \(a string\); it must be a date-time, e\.g\. "2026-11-30T18:30:00-05:00" \(an instant\) or "2026-12-06T10:00"/,
      ],
      ['get_locations', { ids: ['north_01'] }, /^"business" is required with more than one business configured; use one of: north/],
      ['get_locations', { business: 'north', ids: 'north_01' }, /^"ids" got "north_01" \(a string\); it must be a non-empty array/],
      ['list_businesses', { verbose: true }, /^list_businesses takes only "language"/],
    ];
    for (const [tool, args, expected] of cases) {
      const result = await call(tool, args);
      expect(result.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
      expect(textOf(result)).toMatch(expected);
      expect(textOf(result)).not.toMatch(/\n\s+at /); // no stack trace
    }
    // The one business asked is down: an error the model can act on, not an empty success.
    const down = await call('find_locations', { business: 'down', query: 'grocery' });
    expect(down.isError).toBe(true);
    expect(textOf(down)).toMatch(/^down could not be reached \(.*\)\. Try again later, or use another business\.$/);
    // An unknown tool is a protocol fault: JSON-RPC -32602.
    await expect(agent.client.callTool({ name: 'search_locations', arguments: {} })).rejects.toSatisfy(
      (e: unknown) => e instanceof McpError && e.code === -32602 && /Unknown tool "search_locations"/.test(e.message),
    );
  });

  it.runIf(mode === 'http')('over HTTP: only the MCP path, and only requests addressed to this loopback host (DNS rebinding)', async () => {
    const url = new URL(agent.url ?? '');
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    const post = (host: string, path = url.pathname): Promise<{ status: number; text: string }> =>
      new Promise((resolve, reject) => {
        const req = httpRequest(
          {
            host: url.hostname,
            port: url.port,
            path,
            method: 'POST',
            headers: { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          },
          (res) => {
            let text = '';
            res.on('data', (c: Buffer) => (text += c.toString('utf8')));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
          },
        );
        req.on('error', reject);
        req.end(initialize);
      });
    expect((await post(url.host)).status).toBe(200);
    const rebound = await post('evil.example');
    expect(rebound.status).toBe(403);
    expect((await post(url.host, '/other')).status).toBe(404);
  });

  it('a scripted session: list → find near + open now → next page → get by alias', async () => {
    const list = await call('list_businesses');
    const okNames = structured<{ businesses: { name: string; status: string }[] }>(list)
      .businesses.filter((b) => b.status === 'ok')
      .map((b) => b.name);
    expect(okNames).toEqual(['north', 'south']);

    const page1 = await call('find_locations', { query: 'grocery', near: CENTER, radius: '2 mi', open_now: true, limit: 4 });
    const first = structured<FindResult>(page1);
    expect(first.results).toHaveLength(4);
    expect(first.results.every((r) => /^Open (now|24 hours)/.test(r.hours.text))).toBe(true);
    expect(textOf(page1)).toMatch(/within 2 mi of the given point/);
    expect(textOf(page1)).toMatch(/\d\.\d mi away|\d+ ft away/);

    const page2 = await call('find_locations', { cursor: first.next_cursor });
    const second = structured<FindResult>(page2);
    expect(second.first_position).toBe(5);
    expect(second.results.every((r) => r.hours.state === 'open')).toBe(true);
    const pick = second.results[0];
    expect(pick).toBeDefined();

    // The model refers to the store by its alias, as a buyer would quote it.
    const alias = `${pick?.business ?? ''}-store-${Number(pick?.location.id.split('_')[1])}`;
    const got = await call('get_locations', { business: pick?.business, ids: [alias] });
    const detail = structured<{ results: View[] }>(got);
    expect(detail.results.map((r) => r.location.id)).toEqual([pick?.location.id]);
    expect(textOf(got)).toContain(`Asked for as: "${alias}"`);
  });

  it('no private Location appeared in any answer, and the log never held a precise coordinate', () => {
    expect(answers.length).toBeGreaterThan(20);
    const everything = JSON.stringify(answers);
    for (const id of ['north_hidden', 'south_hidden']) {
      // Named only where the model asked for it and was told it was not found.
      const mentions = everything.split(id).length - 1;
      expect(mentions, id).toBeLessThanOrEqual(id.startsWith('north') ? 2 : 0);
    }
    expect(everything).not.toMatch(/Hidden Hub/);
    expect(agent.stderr()).not.toContain(String(CENTER.latitude).slice(0, 6)); // 40.712…: at most 2 decimals
    expect(agent.stderr()).not.toContain(String(CENTER.longitude).slice(0, 7));
    expect(agent.stderr()).toMatch(/"distance":\{"center":\{"latitude":40\.71,"longitude":-74\}/);
  });
});

describe.each(MODES)('agent bridge over %s: every failure class of a business', (mode) => {
  let fleet: Fleet & { slow: string };
  let agent: AgentConnection;
  const scratch = useScratchDir('ucp-agent-config');

  beforeAll(async () => {
    fleet = await startErrorFleet();
    // The slow business comes from a configuration file (its own timeout, REST forced); the
    // platform profile is a file as `platform-profile init` writes it.
    const config = join(scratch(), 'agent.json');
    writeFileSync(
      config,
      JSON.stringify({ timeoutMs: PATIENT_MS, businesses: [{ name: 'slow', url: fleet.slow, timeoutMs: 800, transport: 'rest' }] }),
    );
    const profile = join(scratch(), 'platform.json');
    writeFileSync(profile, JSON.stringify(buildPlatformProfile(), null, 2));
    agent = await connectAgent(mode, [
      ...fleet.flags.flatMap((f) => ['--business', f]),
      '--config',
      config,
      '--serve-profile',
      profile,
      '--log-level',
      'warn',
    ]);
  });

  afterAll(async () => {
    await agent?.close();
    await fleet?.close();
  });

  it('list_businesses reports incompatible ones with the reason, and what each supports', async () => {
    const result = await agent.call('list_businesses');
    const text = textOf(result);
    expect(text).toMatch(/- tight \(.*\): ok — UCP 2026-08-25, search \+ lookup, over MCP/);
    expect(text).toMatch(/- lookuponly \(.*\): ok — UCP 2026-08-25, lookup, over MCP/);
    expect(text).toMatch(/- old \(.*\): incompatible — old does not speak UCP 2026-08-25 \(it offers 2026-01-11\)/);
    expect(text).toMatch(/- broken \(.*\): ok/);
    expect(text).toMatch(/- slow \(.*\): ok — UCP 2026-08-25, search \+ lookup, over REST/);
  });

  it('a business slower than its timeout is cut off at its timeout and named; the others answer', async () => {
    // slow never answers (its proxy holds the request until the fleet closes), so this answer
    // arriving at all shows the agent stopped waiting for it — no stopwatch needed.
    const result = await agent.call('find_locations', { near: CENTER, radius: '800m', limit: 3 });
    const found = structured<FindResult>(result);
    expect(result.isError).toBeFalsy();
    expect(found.results.length).toBe(3);
    const slow = found.failures.find((f) => f.business === 'slow');
    expect(slow?.kind).toBe('timeout');
    expect(textOf(result)).toContain('Not included: slow did not answer within 0.8 s; try again later, or use another business.');
  });

  it('a radius the business cannot honour (radius_too_large) is an error naming the argument to change', async () => {
    const result = await agent.call('find_locations', { business: 'tight', near: CENTER, radius: '5km' });
    expect(result.isError).toBe(true);
    // The limit in the unit the model used, with the other unit beside it (#26).
    expect(textOf(result)).toBe(
      'tight searches at most 1 km (0.6 mi) from a point; "radius" 5 km is more. Use a "radius" of at most 1 km.',
    );
    const fine = await agent.call('find_locations', { business: 'tight', near: CENTER, radius: '800m' });
    expect(fine.isError).toBeFalsy();
  });

  it('a rate-limited business says when to retry (retry_after)', async () => {
    const first = await agent.call('find_locations', { business: 'tight', near: CENTER, radius: '900m', items: ['sku-milk'] });
    expect(first.isError).toBeFalsy();
    const second = await agent.call('find_locations', { business: 'tight', near: CENTER, radius: '900m', items: ['sku-milk'] });
    expect(second.isError).toBe(true);
    expect(textOf(second)).toMatch(
      /^tight is limiting how often this bridge may call it; retry after \d+ s, or use another business meanwhile\.$/,
    );
  });

  it('capabilities_incompatible, version_unsupported and a response failing its schema are errors with a sentence', async () => {
    const lookupOnly = await agent.call('find_locations', { business: 'lookuponly', query: 'grocery' });
    expect(lookupOnly.isError).toBe(true);
    expect(textOf(lookupOnly)).toMatch(
      /^lookuponly does not let this bridge search Locations \(no compatible capability\); use get_locations with known ids, or another business\.$/,
    );
    const stillLooksUp = await agent.call('get_locations', { business: 'lookuponly', ids: ['lookonly-store-1'] });
    expect(structured<{ results: View[] }>(stillLooksUp).results.map((r) => r.location.id)).toEqual(['lookonly_01']);

    const old = await agent.call('find_locations', { business: 'old', query: 'grocery' });
    expect(old.isError).toBe(true);
    expect(textOf(old)).toMatch(
      /^old does not speak UCP 2026-08-25 \(it offers 2026-01-11\), so this bridge cannot use it; use another business\.$/,
    );

    const broken = await agent.call('find_locations', { business: 'broken', query: 'grocery' });
    expect(broken.isError).toBe(true);
    expect(textOf(broken)).toMatch(
      /^broken sent an answer that does not follow the UCP schema \(.+\), so it was discarded; try again later or use another business\.$/,
    );
  });

  it('a fan-out where every business fails is an error listing each; where some answer it is a success', async () => {
    const wide = await agent.call('find_locations', { near: CENTER, radius: '5km' });
    const found = structured<FindResult>(wide);
    // tight refuses 5 km, lookuponly cannot search, old is incompatible, broken answers garbage.
    expect(wide.isError).toBe(true);
    expect(found.failures.map((f) => [f.business, f.kind]).sort()).toEqual([
      ['broken', 'invalid_response'],
      ['lookuponly', 'incompatible'],
      ['old', 'incompatible'],
      ['slow', 'timeout'],
      ['tight', 'refused'],
    ]);
    // Nothing to show: the answer leads with each business's cause, before anything else (#26).
    const lines = textOf(wide).split('\n');
    expect(
      lines
        .slice(0, 5)
        .map((line) => line.split(' ')[0])
        .sort(),
    ).toEqual(['broken', 'lookuponly', 'old', 'slow', 'tight']);

    const narrow = await agent.call('find_locations', { near: CENTER, radius: '500m' });
    expect(narrow.isError).toBeFalsy();
    const some = structured<FindResult>(narrow);
    expect(some.results.length).toBeGreaterThan(0);
    expect(some.results.every((r) => r.business === 'tight')).toBe(true);
    expect(some.failures.map((f) => f.business).sort()).toEqual(['broken', 'lookuponly', 'old', 'slow']);
  });
});
