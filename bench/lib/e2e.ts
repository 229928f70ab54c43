/**
 * End to end: `tools/call search_locations` over HTTP on loopback against our server, versus a
 * bare node:http server answering the same body with the same in-process search (bench/e2e-server.ts
 * `direct`) — what the MCP path (JSON-RPC and envelope checks, SDK, schema validation,
 * negotiation, serialising the result as structuredContent and text) costs on top of the search
 * itself. Fixed concurrency (64 connections).
 *
 * Both servers run in child processes at the same time; autocannon (in this process) loads them
 * in ABBA order (direct, MCP, MCP, direct), each for half the time, so slow drift of the machine
 * affects both alike. Before the load, one request per body is answered and checked against the
 * engine's reference page; afterwards any non-2xx answer or socket error voids the comparison.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import autocannon from 'autocannon';
import { BENCH_PLATFORM_URL } from './platform.js';
import { startChild, stopChild, type BenchChild } from './children.js';
import { keepMainThreadProfile } from './profile.js';
import type { E2eResult, E2eTarget } from './report.js';
import type { SearchRequest } from '../../src/domain/requests.js';

export interface E2eOptions {
  size: number;
  dbPath: string;
  /** Requests in the mix with the ids of the first page the engine returns for each. */
  mix: { request: SearchRequest; firstPage: string[] }[];
  connections: number;
  seconds: number;
  /**
   * When set, the MCP server child runs with `node --cpu-prof` and its main thread's profile is
   * moved to this file (Node writes one profile per thread, the tsx loader thread included).
   */
  cpuProfileFile?: string;
  log: (message: string) => void;
}

function toolCall(request: SearchRequest, id: number): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'search_locations', arguments: { meta: { 'ucp-agent': { profile: BENCH_PLATFORM_URL } }, location: request } },
  });
}

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** CPU seconds (user + system) a process has used so far, from /proc; undefined off Linux. */
function cpuSecondsOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // Fields after the ")" of the command name: utime and stime are the 12th and 13th, in clock ticks (100/s).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks / 100 : undefined;
  } catch {
    return undefined;
  }
}

interface Segment {
  /** Server CPU seconds spent during the segment. */
  cpuSeconds?: number;
  requests: number;
  seconds: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

async function load(url: string, bodies: readonly string[], connections: number, seconds: number, serverPid?: number): Promise<Segment> {
  const cpuBefore = cpuSecondsOf(serverPid);
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: bodies.map((body) => ({ method: 'POST', headers: HEADERS, body })),
  });
  const cpuAfter = cpuSecondsOf(serverPid);
  return {
    ...(cpuBefore !== undefined && cpuAfter !== undefined ? { cpuSeconds: cpuAfter - cpuBefore } : {}),
    requests: result['2xx'],
    seconds: result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

function combine(segments: readonly Segment[], maxRssKiB: number | undefined): E2eTarget {
  const requests = segments.reduce((s, x) => s + x.requests, 0);
  const seconds = segments.reduce((s, x) => s + x.seconds, 0);
  const t: E2eTarget = {
    requestsPerSecond: requests / seconds,
    latencyP50Ms: segments.reduce((s, x) => s + x.p50, 0) / segments.length,
    latencyP99Ms: Math.max(...segments.map((x) => x.p99)),
    requests,
    non2xx: segments.reduce((s, x) => s + x.non2xx, 0),
    errors: segments.reduce((s, x) => s + x.errors, 0),
    timeouts: segments.reduce((s, x) => s + x.timeouts, 0),
  };
  if (maxRssKiB !== undefined) t.maxRssMiB = maxRssKiB / 1024;
  if (segments.every((x) => x.cpuSeconds !== undefined) && requests > 0) {
    t.cpuMsPerRequest = (1000 * segments.reduce((s, x) => s + (x.cpuSeconds ?? 0), 0)) / requests;
  }
  return t;
}

/** POST one body and return the parsed JSON-RPC answer. */
async function post(url: string, body: string): Promise<{ status: number; json: unknown }> {
  const res = await fetch(url, { method: 'POST', headers: HEADERS, body });
  return { status: res.status, json: await res.json() };
}

async function checkMcp(url: string, mix: E2eOptions['mix']): Promise<string | null> {
  for (const [i, m] of mix.entries()) {
    const { status, json } = await post(url, toolCall(m.request, i + 1));
    const result = (json as { result?: { structuredContent?: { locations?: { id: string }[] }; isError?: boolean } }).result;
    const ids = result?.structuredContent?.locations?.map((l) => l.id);
    if (status !== 200 || ids === undefined || result?.isError === true)
      return `request ${i}: HTTP ${status}, answer ${JSON.stringify(json).slice(0, 300)}`;
    if (ids.join() !== m.firstPage.join()) return `request ${i}: MCP returned [${ids.join(', ')}], the engine [${m.firstPage.join(', ')}]`;
  }
  return null;
}

async function startTarget(args: string[], nodeFlags: string[] = []): Promise<{ child: BenchChild; url: string; readySeconds: number }> {
  const spawned = performance.now();
  const child = startChild('bench/e2e-server.ts', args, nodeFlags);
  const hello = await child.next();
  if (typeof hello['url'] !== 'string') throw new Error(`e2e server did not report its URL: ${JSON.stringify(hello)}`);
  return { child, url: hello['url'], readySeconds: (performance.now() - spawned) / 1000 };
}

async function stop(child: BenchChild): Promise<number | undefined> {
  const bye: Promise<Record<string, unknown>> = child.next().catch(() => ({}));
  await stopChild(child.process, 5000);
  const v = (await bye)['maxRssKiB'];
  return typeof v === 'number' ? v : undefined;
}

export async function runEndToEnd(o: E2eOptions): Promise<E2eResult> {
  const bodies = o.mix.map((m, i) => toolCall(m.request, i + 1));
  const profileDir = o.cpuProfileFile === undefined ? undefined : mkdtempSync(join(dirname(o.cpuProfileFile), 'server-'));
  const profileFlags = profileDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${profileDir}`];
  const mcp = await startTarget(['mcp', o.dbPath], profileFlags);
  const echo = await startTarget(['direct', o.dbPath]).catch(async (error: unknown) => {
    await stop(mcp.child);
    throw error;
  });
  try {
    const mcpUrl = `${mcp.url}/ucp/mcp`;
    const echoUrl = `${echo.url}/ucp/mcp`;
    let failure = await checkMcp(mcpUrl, o.mix);
    const echoCheck = await post(echoUrl, bodies[0] as string);
    if (failure === null && echoCheck.status !== 200) failure = `the direct server answered HTTP ${echoCheck.status}`;
    // Warm both (JIT, SQLite page cache, compiled schedules) before anything is measured.
    o.log('e2e: warming up both servers');
    await load(mcpUrl, bodies, o.connections, 2);
    await load(echoUrl, bodies, o.connections, 1);
    const half = Math.max(1, Math.round(o.seconds / 2));
    const segs: Record<'mcp' | 'echo', Segment[]> = { mcp: [], echo: [] };
    for (const target of ['echo', 'mcp', 'mcp', 'echo'] as const) {
      o.log(`e2e: ${target} for ${half} s at ${o.connections} connections`);
      const server = target === 'mcp' ? mcp : echo;
      segs[target].push(await load(target === 'mcp' ? mcpUrl : echoUrl, bodies, o.connections, half, server.child.process.pid));
    }
    if (failure === null) failure = await checkMcp(mcpUrl, o.mix.slice(0, 3));
    const mcpRss = await stop(mcp.child);
    const echoRss = await stop(echo.child);
    if (profileDir !== undefined && o.cpuProfileFile !== undefined) keepMainThreadProfile(profileDir, o.cpuProfileFile);
    const result: E2eResult = {
      size: o.size,
      connections: o.connections,
      secondsPerTarget: 2 * half,
      mcp: { ...combine(segs.mcp, mcpRss), readySeconds: mcp.readySeconds },
      direct: combine(segs.echo, echoRss),
      failure,
    };
    for (const [name, t] of [
      ['MCP', result.mcp],
      ['direct', result.direct],
    ] as const) {
      if (result.failure === null && (t.non2xx > 0 || t.errors > 0 || t.timeouts > 0)) {
        result.failure = `${name} had ${t.non2xx} non-2xx answers, ${t.errors} errors, ${t.timeouts} timeouts under load`;
      }
    }
    return result;
  } finally {
    await stopChild(mcp.child.process);
    await stopChild(echo.child.process);
  }
}
