/**
 * npm run redis-loss [-- --seconds 8 --concurrency 16 --budget 300 --json]
 *
 * What happens to request budgets when Redis is lost under load, and when it comes back. Starts a
 * private redis-server on a free loopback port (never the machine's shared one) and two business
 * servers (demo dataset, free loopback ports) sharing it, then drives REST lookups at both
 * instances alternately in three phases of --seconds each:
 *
 *   1. Redis up        — calls from 127.0.0.2: one per-address budget for the whole fleet;
 *   2. Redis killed    — SIGKILL, then calls from 127.0.0.3: each instance falls back to its own
 *                        in-memory counters (the fleet admits up to two budgets);
 *   3. Redis restarted — on the same port; once both instances logged the reconnection, calls
 *                        from 127.0.0.4: one shared budget again.
 *
 * A new client address per phase gives each phase a fresh per-address budget (`--budget` calls a
 * minute), so the admitted count shows which counters decided. Every call must get 200 or 429; a
 * network error or any other status is an error. Prints one line per phase (calls, 200, 429,
 * errors, p50/p99/max latency) and what the servers logged about Redis; exits 1 on any error, on
 * a phase that admitted more than its budgets allow, or when Redis did not come back.
 * Loopback only; bounded (about 3 × --seconds plus the reconnection).
 */
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { parseConfig } from '../src/config.js';
import { createLogger } from '../src/logging.js';
import { DEMO_PLATFORM_PROFILE_URL, startServer, type RunningServer } from '../src/server.js';
// The same throw-away redis-server the Redis test suites use: a free loopback port, killable.
import { ThrowawayRedis } from '../test/scale/support/redis.js';

const USAGE = `usage: npm run redis-loss -- [--seconds S] [--concurrency C] [--budget N] [--json]
  --seconds      length of each of the three phases (default 8)
  --concurrency  calls in flight at once (default 16)
  --budget       per-address budget, calls per minute (default 300)
  --json         print the result as JSON`;

interface PhaseResult {
  phase: string;
  from: string;
  calls: number;
  ok: number;
  limited: number;
  errors: number;
  /** Calls admitted by each instance (200s). */
  okPerInstance: [number, number];
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Most 200s the phase may have: one budget while shared, one per instance while not. */
  allowed: number;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function call(agent: Agent, url: URL, from: string): Promise<{ status: number; ms: number }> {
  const body = JSON.stringify({ ids: ['loc_downtown'] });
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: '/ucp/locations/lookup',
        method: 'POST',
        agent,
        localAddress: from,
        headers: { 'content-type': 'application/json', 'ucp-agent': `profile="${DEMO_PLATFORM_PROFILE_URL}"` },
        timeout: 10_000,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
        res.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    req.end(body);
  });
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

async function drive(
  servers: readonly RunningServer[],
  phase: string,
  from: string,
  seconds: number,
  concurrency: number,
  allowed: number,
): Promise<PhaseResult> {
  const agents = servers.map(() => new Agent({ keepAlive: true, maxSockets: concurrency }));
  const urls = servers.map((s) => new URL(s.url));
  const latencies: number[] = [];
  const result: PhaseResult = {
    phase,
    from,
    calls: 0,
    ok: 0,
    limited: 0,
    errors: 0,
    okPerInstance: [0, 0],
    p50Ms: 0,
    p99Ms: 0,
    maxMs: 0,
    allowed,
  };
  const end = performance.now() + seconds * 1000;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (performance.now() < end) {
      const i = next++ % servers.length;
      const { status, ms } = await call(agents[i] as Agent, urls[i] as URL, from);
      result.calls++;
      latencies.push(ms);
      if (status === 200) {
        result.ok++;
        result.okPerInstance[i as 0 | 1]++;
      } else if (status === 429) result.limited++;
      else result.errors++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  for (const a of agents) a.destroy();
  latencies.sort((a, b) => a - b);
  result.p50Ms = Number(quantile(latencies, 0.5).toFixed(1));
  result.p99Ms = Number(quantile(latencies, 0.99).toFixed(1));
  result.maxMs = Number((latencies[latencies.length - 1] ?? 0).toFixed(1));
  return result;
}

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs({
      options: {
        seconds: { type: 'string', default: '8' },
        concurrency: { type: 'string', default: '16' },
        budget: { type: 'string', default: '300' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    }).values;
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  const seconds = Number(args.seconds);
  const concurrency = Number(args.concurrency);
  const budget = Number(args.budget);
  if (!(seconds > 0 && seconds <= 600) || !(Number.isInteger(concurrency) && concurrency > 0 && concurrency <= 256) || !(budget >= 1)) {
    console.error(`--seconds must be in (0, 600], --concurrency an integer in [1, 256], --budget ≥ 1\n${USAGE}`);
    return 2;
  }

  const logs: { msg: string; at: number }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line.includes('Redis')) continue;
        try {
          logs.push({ msg: (JSON.parse(line) as { msg: string }).msg, at: performance.now() });
        } catch {
          // not a JSON line
        }
      }
      done();
    },
  });
  const redis = await ThrowawayRedis.start();
  const config = parseConfig({
    rateLimits: {
      perIp: { limit: budget, windowSeconds: 60 },
      perProfile: { limit: 1_000_000, windowSeconds: 60 },
    },
  });
  const servers: RunningServer[] = [];
  try {
    for (let i = 0; i < 2; i++) {
      servers.push(
        await startServer({
          host: '127.0.0.1',
          port: 0,
          redis: redis.url,
          config,
          logger: createLogger({ level: 'info', destination: sink, format: 'json' }),
        }),
      );
    }
    const phases: PhaseResult[] = [];
    phases.push(await drive(servers, 'redis up', '127.0.0.2', seconds, concurrency, budget));

    const killedAt = performance.now();
    await redis.stop();
    phases.push(await drive(servers, 'redis killed', '127.0.0.3', seconds, concurrency, budget * servers.length));

    const restartedAt = performance.now();
    await redis.start();
    const back = (): number => logs.filter((l) => l.msg.startsWith('Redis reachable again') && l.at >= restartedAt).length;
    const deadline = performance.now() + 20_000;
    while (back() < servers.length && performance.now() < deadline) await sleep(50);
    const recoveredAfterMs = back() >= servers.length ? Math.round(performance.now() - restartedAt) : undefined;
    phases.push(await drive(servers, 'redis restarted', '127.0.0.4', seconds, concurrency, budget));

    const downWarnings = logs.filter((l) => l.msg.startsWith('Redis unreachable') && l.at >= killedAt).length;
    const summary = { seconds, concurrency, budget, phases, downWarnings, recoveredAfterMs: recoveredAfterMs ?? null };
    if (args.json) {
      console.log(JSON.stringify(summary, null, 2));
    } else {
      console.log(`redis-loss: 2 instances, ${concurrency} connections, per-address budget ${budget}/min, ${seconds} s per phase`);
      for (const p of phases) {
        console.log(
          `  ${p.phase.padEnd(16)} from ${p.from}: ${p.calls} calls, ${p.ok} × 200 (${p.okPerInstance.join(' + ')}), ${p.limited} × 429, ${p.errors} errors; ` +
            `p50 ${p.p50Ms} ms, p99 ${p.p99Ms} ms, max ${p.maxMs} ms`,
        );
      }
      console.log(
        `  logs: ${downWarnings} "Redis unreachable" warning(s) after the kill; ` +
          (recoveredAfterMs === undefined
            ? 'Redis NOT back within 20 s'
            : `both instances back on Redis ${recoveredAfterMs} ms after the restart`),
      );
    }
    const bad = phases.filter((p) => p.errors > 0 || p.ok > p.allowed);
    return bad.length === 0 && recoveredAfterMs !== undefined ? 0 : 1;
  } finally {
    await Promise.all(servers.map((s) => s.close()));
    await redis.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  },
);
