/**
 * The pool of tenants' servers (pool.ts), with servers that only say who they are: started on a
 * tenant's first request, one start shared by the requests that wait for it, stopped least
 * recently used once their indexes exceed the budget — never one answering a request — and a
 * tenant being started holds up no other.
 */
import type { RequestListener } from 'node:http';
import { describe, expect, it } from 'vitest';
import { injectRequest } from '../transport/test-support/in-process.js';
import { TenantPool } from './pool.js';
import type { TenantServer } from './pool.js';
import type { ServedTenant } from './source.js';

function tenant(domain: string): ServedTenant {
  return { domain, baseUrl: `https://${domain}`, store: `${domain}.db`, hasData: true, fingerprint: domain, config: async () => undefined };
}

interface Harness {
  pool: TenantPool;
  starts: string[];
  stops: string[];
  /** Resolves the start of `domain` held back by `hold`. */
  release(domain: string): void;
  /** Resolves once `domain`'s start has begun (it may be held back). */
  started(domain: string): Promise<void>;
}

/** Every tenant's index holds `bytes`; starts of the domains in `hold` wait for `release`. */
function harness(options: { budget?: number; bytes?: number; hold?: string[]; slow?: Map<string, RequestListener> } = {}): Harness {
  const starts: string[] = [];
  const stops: string[] = [];
  const gates = new Map<string, () => void>();
  const begun = new Map<string, { promise: Promise<void>; resolve: () => void }>();
  const begin = (domain: string): { promise: Promise<void>; resolve: () => void } => {
    let entry = begun.get(domain);
    if (entry === undefined) {
      let resolve: () => void = () => undefined;
      const promise = new Promise<void>((r) => (resolve = r));
      entry = { promise, resolve };
      begun.set(domain, entry);
    }
    return entry;
  };
  const pool = new TenantPool({
    ...(options.budget === undefined ? {} : { budgetBytes: options.budget }),
    start: async (t, resident) => {
      starts.push(t.domain);
      begin(t.domain).resolve();
      if (options.hold?.includes(t.domain) === true) await new Promise<void>((resolve) => gates.set(t.domain, resolve));
      resident(options.bytes ?? 100);
      const listener: RequestListener = options.slow?.get(t.domain) ?? ((_req, res) => res.end(t.domain));
      const server: TenantServer = {
        url: 'http://127.0.0.1:1',
        baseUrl: t.baseUrl,
        port: 1,
        listener,
        caughtUp: async () => undefined,
        close: async () => void stops.push(t.domain),
      };
      return server;
    },
  });
  return {
    pool,
    starts,
    stops,
    release: (domain) => {
      gates.get(domain)?.();
    },
    started: (domain) => begin(domain).promise,
  };
}

async function ask(pool: TenantPool, domain: string): Promise<string> {
  const listener = pool.byHost.get(domain);
  if (listener === undefined) throw new Error(`no route for ${domain}`);
  const res = await injectRequest(listener, `http://${domain}/x`, {});
  return `${res.status} ${res.body.toString()}`;
}

describe('tenant pool', () => {
  it('starts a tenant on its first request only, and keeps it while the budget allows', async () => {
    const h = harness({ budget: 1000 });
    for (const d of ['a.example', 'b.example']) h.pool.put(tenant(d));
    expect(h.starts).toEqual([]);
    expect(await ask(h.pool, 'a.example')).toBe('200 a.example');
    expect(await ask(h.pool, 'a.example')).toBe('200 a.example');
    expect(h.starts).toEqual(['a.example']);
    expect(h.pool.residentBytes).toBe(100);
  });

  it('stops the least recently used tenants once the indexes exceed the budget', async () => {
    const h = harness({ budget: 250, bytes: 100 });
    for (const d of ['a.example', 'b.example', 'c.example', 'd.example']) h.pool.put(tenant(d));
    await ask(h.pool, 'a.example');
    await ask(h.pool, 'b.example');
    await ask(h.pool, 'a.example'); // b is now the least recently used
    await ask(h.pool, 'c.example');
    expect(h.stops).toEqual(['b.example']);
    expect(h.pool.residentDomains()).toEqual(['a.example', 'c.example']);
    await ask(h.pool, 'd.example');
    expect(h.stops).toEqual(['b.example', 'a.example']);
    expect(h.pool.residentDomains()).toEqual(['c.example', 'd.example']);
    expect(h.pool.residentBytes).toBeLessThanOrEqual(250);
    // A stopped tenant starts again on its next request.
    expect(await ask(h.pool, 'b.example')).toBe('200 b.example');
    expect(h.starts.filter((d) => d === 'b.example')).toHaveLength(2);
    expect(h.pool.residentBytes).toBeLessThanOrEqual(250);
  });

  it('concurrent first requests share one start', async () => {
    const h = harness({ hold: ['a.example'] });
    h.pool.put(tenant('a.example'));
    const answers = Array.from({ length: 8 }, () => ask(h.pool, 'a.example'));
    await h.started('a.example');
    h.release('a.example');
    expect(await Promise.all(answers)).toEqual(Array.from({ length: 8 }, () => '200 a.example'));
    expect(h.starts).toEqual(['a.example']);
  });

  it('a tenant being started holds up no other tenant', async () => {
    const h = harness({ hold: ['slow.example'] });
    h.pool.put(tenant('slow.example'));
    h.pool.put(tenant('quick.example'));
    const slow = ask(h.pool, 'slow.example');
    // The quick tenant is started and answers while the slow one's start is still held back.
    expect(await ask(h.pool, 'quick.example')).toBe('200 quick.example');
    expect(await ask(h.pool, 'quick.example')).toBe('200 quick.example');
    let slowDone = false;
    void slow.then(() => (slowDone = true));
    await Promise.resolve();
    expect(slowDone).toBe(false);
    h.release('slow.example');
    expect(await slow).toBe('200 slow.example');
  });

  it('never stops a tenant while it answers, even the least recently used', async () => {
    let finish: () => void = () => undefined;
    let answering: () => void = () => undefined;
    const entered = new Promise<void>((resolve) => (answering = resolve));
    const slow = new Map<string, RequestListener>([
      [
        'a.example',
        (_req, res) => {
          finish = () => res.end('a.example');
          answering();
        },
      ],
    ]);
    const h = harness({ budget: 150, bytes: 100, slow });
    h.pool.put(tenant('a.example'));
    h.pool.put(tenant('b.example'));
    const pending = ask(h.pool, 'a.example');
    await entered;
    expect(await ask(h.pool, 'b.example')).toBe('200 b.example');
    // a, though least recently used, answers still: b, idle once answered, is the one stopped.
    expect(h.stops).toEqual(['b.example']);
    expect(h.pool.residentBytes).toBeLessThanOrEqual(150);
    finish();
    expect(await pending).toBe('200 a.example');
    expect(h.stops).toEqual(['b.example']);
    expect(h.pool.residentDomains()).toEqual(['a.example']);
  });

  it('a removed tenant is unknown at once; a changed one restarts on demand', async () => {
    const h = harness();
    h.pool.put(tenant('a.example'));
    await ask(h.pool, 'a.example');
    h.pool.put({ ...tenant('a.example'), fingerprint: 'changed' });
    expect(h.stops).toEqual(['a.example']);
    expect(await ask(h.pool, 'a.example')).toBe('200 a.example');
    expect(h.starts).toEqual(['a.example', 'a.example']);
    h.pool.remove('a.example');
    expect(h.pool.byHost.has('a.example')).toBe(false);
    await h.pool.close();
    expect(h.stops).toEqual(['a.example', 'a.example']);
  });
});
