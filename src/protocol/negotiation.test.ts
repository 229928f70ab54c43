import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { intersectCapabilities, negotiateCapabilities, parentsOf, responseCapabilities } from './negotiation.js';
import type { ActiveCapabilities } from './negotiation.js';
import type { CapabilityEntity } from './types.js';

const V = '2026-08-25';
const SEARCH = 'dev.ucp.common.location.search';
const LOOKUP = 'dev.ucp.common.location.lookup';
const HOURS_EXT = 'com.example.location.hours_detail';
const STOCK_EXT = 'com.example.location.stock';
const BOTH_EXT = 'com.example.location.badges';

function cap(version: string, more: Partial<CapabilityEntity> = {}): CapabilityEntity {
  return { version, schema: `https://ucp.dev/${version}/x.json`, ...more };
}

type Registry = Record<string, CapabilityEntity[]>;

describe('intersectCapabilities: names and versions (R-G4)', () => {
  it('keeps a capability both sides list, returning the Business entry', () => {
    const ours = cap(V, { config: { max_radius_m: 50_000 } });
    const active = intersectCapabilities({ [SEARCH]: [ours] }, { [SEARCH]: [cap(V, { config: { other: true } })] });
    expect(active).toEqual({ [SEARCH]: ours });
    expect(active[SEARCH]).toBe(ours);
  });

  it('drops a Business capability the Platform does not list, and ignores Platform-only ones', () => {
    const r = negotiateCapabilities({ [SEARCH]: [cap(V)], [LOOKUP]: [cap(V)] }, { [SEARCH]: [cap(V)], 'com.example.shop.cart': [cap(V)] });
    expect(Object.keys(r.active)).toEqual([SEARCH]);
    expect(r.dropped).toEqual([{ name: LOOKUP, reason: 'not_offered_by_platform', detail: expect.stringContaining(LOOKUP) }]);
  });

  it('selects the highest version present in both arrays', () => {
    const business = { [HOURS_EXT]: [cap('2026-01-01'), cap('2026-09-01'), cap('2026-06-01')] };
    const platform = { [HOURS_EXT]: [cap('2026-06-01'), cap('2026-12-01'), cap('2026-01-01')] };
    expect(intersectCapabilities(business, platform)[HOURS_EXT]?.version).toBe('2026-06-01');
  });

  it('matches versions by exact string equality only', () => {
    const r = negotiateCapabilities({ [SEARCH]: [cap('2026-06-01')] }, { [SEARCH]: [cap('2026-6-1'), cap('2026-06-01 ')] });
    expect(r.active).toEqual({});
    expect(r.dropped[0]).toMatchObject({ name: SEARCH, reason: 'no_mutual_version' });
    expect(r.dropped[0]?.detail).toMatch(/business: 2026-06-01; platform: 2026-6-1, 2026-06-01 /);
  });

  it('treats an empty array as advertising nothing', () => {
    expect(negotiateCapabilities({ [SEARCH]: [] }, { [SEARCH]: [cap(V)] })).toEqual({ active: {}, dropped: [] });
    expect(negotiateCapabilities({ [SEARCH]: [cap(V)] }, { [SEARCH]: [] }).dropped[0]?.reason).toBe('no_mutual_version');
  });

  it('never reads names off the prototype chain', () => {
    const business = JSON.parse(`{"constructor":[{"version":"${V}"}],"__proto__":[{"version":"${V}"}]}`) as Registry;
    const r = negotiateCapabilities(business, {});
    expect(r.active).toEqual({});
    expect(r.dropped.map((d) => d.reason)).toEqual(['not_offered_by_platform', 'not_offered_by_platform']);
  });
});

describe('intersectCapabilities: extension pruning (R-G4)', () => {
  it('keeps an extension whose parent is active', () => {
    const reg = { [SEARCH]: [cap(V)], [HOURS_EXT]: [cap('2026-01-01', { extends: SEARCH })] };
    expect(Object.keys(intersectCapabilities(reg, reg))).toEqual([SEARCH, HOURS_EXT]);
  });

  it('prunes a single-parent extension whose parent did not survive', () => {
    const business = { [SEARCH]: [cap(V)], [HOURS_EXT]: [cap('2026-01-01', { extends: SEARCH })] };
    const platform = { [SEARCH]: [cap('2026-01-11')], [HOURS_EXT]: [cap('2026-01-01', { extends: SEARCH })] };
    const r = negotiateCapabilities(business, platform);
    expect(r.active).toEqual({});
    expect(r.dropped.map((d) => [d.name, d.reason])).toEqual([
      [SEARCH, 'no_mutual_version'],
      [HOURS_EXT, 'orphaned_extension'],
    ]);
  });

  it('keeps a multi-parent extension while at least one parent is active', () => {
    const business = { [SEARCH]: [cap(V)], [LOOKUP]: [cap(V)], [BOTH_EXT]: [cap('2026-01-01', { extends: [SEARCH, LOOKUP] })] };
    const platform = { [LOOKUP]: [cap(V)], [BOTH_EXT]: [cap('2026-01-01')] };
    expect(Object.keys(intersectCapabilities(business, platform))).toEqual([LOOKUP, BOTH_EXT]);
  });

  it('prunes a multi-parent extension when every parent is gone', () => {
    const business = { [SEARCH]: [cap(V)], [LOOKUP]: [cap(V)], [BOTH_EXT]: [cap('2026-01-01', { extends: [SEARCH, LOOKUP] })] };
    expect(intersectCapabilities(business, { [BOTH_EXT]: [cap('2026-01-01')] })).toEqual({});
  });

  it('prunes transitive chains until nothing changes', () => {
    const a = 'com.example.location.a';
    const b = 'com.example.location.b';
    const c = 'com.example.location.c';
    const business = {
      [SEARCH]: [cap(V)],
      [a]: [cap('2026-01-01', { extends: SEARCH })],
      [b]: [cap('2026-01-01', { extends: a })],
      [c]: [cap('2026-01-01', { extends: [b, 'com.example.location.never'] })],
    };
    const platform = { [a]: [cap('2026-01-01')], [b]: [cap('2026-01-01')], [c]: [cap('2026-01-01')] };
    const r = negotiateCapabilities(business, platform);
    expect(r.active).toEqual({});
    expect(
      r.dropped
        .filter((d) => d.reason === 'orphaned_extension')
        .map((d) => d.name)
        .sort(),
    ).toEqual([a, b, c].sort());
  });

  it('prunes extensions that only reach each other, never a root', () => {
    const x = 'com.example.location.x';
    const y = 'com.example.location.y';
    const reg = { [SEARCH]: [cap(V)], [x]: [cap('2026-01-01', { extends: y })], [y]: [cap('2026-01-01', { extends: x })] };
    expect(Object.keys(intersectCapabilities(reg, reg))).toEqual([SEARCH]);
  });
});

describe('intersectCapabilities: requires (R-G4, overview "Version Requirements")', () => {
  const reg = (requires: NonNullable<CapabilityEntity['requires']>): Registry => ({
    [SEARCH]: [cap(V)],
    [HOURS_EXT]: [cap('2026-01-01', { extends: SEARCH, requires })],
    [STOCK_EXT]: [cap('2026-01-01', { extends: HOURS_EXT })],
  });

  it('keeps an extension whose protocol range holds (bounds inclusive)', () => {
    const r = reg({ protocol: { min: V, max: V } });
    expect(Object.keys(intersectCapabilities(r, r, { protocolVersion: V }))).toEqual([SEARCH, HOURS_EXT, STOCK_EXT]);
  });

  it('drops an extension needing a newer protocol, then prunes what extended it', () => {
    const r = reg({ protocol: { min: '2026-09-01' } });
    const n = negotiateCapabilities(r, r, { protocolVersion: V });
    expect(Object.keys(n.active)).toEqual([SEARCH]);
    expect(n.dropped.map((d) => [d.name, d.reason])).toEqual([
      [HOURS_EXT, 'requires_protocol'],
      [STOCK_EXT, 'orphaned_extension'],
    ]);
    expect(n.dropped[0]?.detail).toMatch(/\[2026-09-01, …\].*2026-08-25/);
  });

  it('drops an extension capped below the negotiated protocol', () => {
    const r = reg({ protocol: { min: '2026-01-01', max: '2026-08-24' } });
    expect(Object.keys(intersectCapabilities(r, r, { protocolVersion: V }))).toEqual([SEARCH]);
  });

  it('skips the protocol check when the protocol version is not given', () => {
    const r = reg({ protocol: { min: '2099-01-01' } });
    expect(Object.keys(intersectCapabilities(r, r))).toEqual([SEARCH, HOURS_EXT, STOCK_EXT]);
  });

  it('checks capability ranges against the selected versions', () => {
    const ok = reg({ capabilities: { [SEARCH]: { min: '2026-01-01', max: V } } });
    expect(Object.keys(intersectCapabilities(ok, ok))).toEqual([SEARCH, HOURS_EXT, STOCK_EXT]);
    const tooOld = reg({ capabilities: { [SEARCH]: { min: '2026-09-01' } } });
    const n = negotiateCapabilities(tooOld, tooOld);
    expect(Object.keys(n.active)).toEqual([SEARCH]);
    expect(n.dropped[0]).toMatchObject({ name: HOURS_EXT, reason: 'requires_capability' });
    expect(n.dropped[0]?.detail).toContain(`requires ${SEARCH} [2026-09-01, …] but version ${V} was selected`);
  });

  it('ignores a range on a capability that is not active (nothing to compose with)', () => {
    const r: Registry = {
      [SEARCH]: [cap(V)],
      [BOTH_EXT]: [cap('2026-01-01', { extends: [SEARCH, LOOKUP], requires: { capabilities: { [LOOKUP]: { min: '2099-01-01' } } } })],
    };
    expect(Object.keys(intersectCapabilities(r, r))).toEqual([SEARCH, BOTH_EXT]);
  });

  it('honours requirements the Platform entry declares for the selected version', () => {
    const business: Registry = { [SEARCH]: [cap(V)], [HOURS_EXT]: [cap('2026-01-01', { extends: SEARCH })] };
    const platform: Registry = {
      [SEARCH]: [cap(V)],
      [HOURS_EXT]: [cap('2026-01-01', { extends: SEARCH, requires: { protocol: { min: '2027-01-01' } } })],
    };
    expect(Object.keys(intersectCapabilities(business, platform, { protocolVersion: V }))).toEqual([SEARCH]);
  });

  it('judges requirements on the selected version only', () => {
    const business: Registry = {
      [SEARCH]: [cap(V)],
      [HOURS_EXT]: [
        cap('2026-01-01', { extends: SEARCH }),
        cap('2026-06-01', { extends: SEARCH, requires: { protocol: { min: '2099-01-01' } } }),
      ],
    };
    const platform: Registry = { [SEARCH]: [cap(V)], [HOURS_EXT]: [cap('2026-01-01')] };
    expect(intersectCapabilities(business, platform, { protocolVersion: V })[HOURS_EXT]?.version).toBe('2026-01-01');
  });
});

describe('responseCapabilities (R-G6)', () => {
  const a = 'com.example.location.a';
  const a2 = 'com.example.location.a2';
  const active: ActiveCapabilities = {
    [LOOKUP]: cap(V),
    [SEARCH]: cap(V),
    [HOURS_EXT]: cap('2026-01-01', { extends: SEARCH }),
    [STOCK_EXT]: cap('2026-02-02', { extends: LOOKUP }),
    [BOTH_EXT]: cap('2026-03-03', { extends: [LOOKUP, SEARCH] }),
    [a]: cap('2026-04-04', { extends: HOURS_EXT }),
    [a2]: cap('2026-05-05', { extends: STOCK_EXT }),
  };

  it('carries the search root and every extension whose ancestry reaches it', () => {
    expect(responseCapabilities(active, SEARCH)).toEqual({
      [SEARCH]: [{ version: V }],
      [HOURS_EXT]: [{ version: '2026-01-01' }],
      [BOTH_EXT]: [{ version: '2026-03-03' }],
      [a]: [{ version: '2026-04-04' }],
    });
  });

  it('carries the lookup root and its extensions only', () => {
    expect(Object.keys(responseCapabilities(active, LOOKUP))).toEqual([LOOKUP, STOCK_EXT, BOTH_EXT, a2]);
  });

  it('puts the root first and exposes only versions', () => {
    const r = responseCapabilities(active, SEARCH);
    expect(Object.keys(r)[0]).toBe(SEARCH);
    for (const entries of Object.values(r)) expect(Object.keys(entries[0])).toEqual(['version']);
  });

  it('is empty when the root is not active', () => {
    expect(responseCapabilities({ [HOURS_EXT]: cap('2026-01-01', { extends: SEARCH }) }, SEARCH)).toEqual({});
    expect(responseCapabilities({}, 'constructor')).toEqual({});
  });
});

// ---------------------------------------------------------------------------------------------
// Properties. A small universe of names: some roots, some extensions with fixed parents (a
// capability's `extends` comes from its schema, so both sides agree on it per name).
const ROOTS = ['dev.ucp.common.r1', 'dev.ucp.common.r2', 'dev.ucp.common.r3'];
const EXTS = ['com.example.x.e1', 'com.example.x.e2', 'com.example.x.e3', 'com.example.x.e4', 'com.example.x.e5'];
const ALL = [...ROOTS, ...EXTS];
const VERSIONS = ['2025-01-01', '2025-06-01', '2026-01-01', '2026-08-25'];

const worldArb = fc
  .tuple(
    // parents per extension: non-empty subset of all names (cycles and self-reference allowed)
    fc.tuple(...EXTS.map(() => fc.uniqueArray(fc.constantFrom(...ALL), { minLength: 1, maxLength: 3 }))),
    // optional requires on the protocol per extension
    fc.tuple(...EXTS.map(() => fc.option(fc.record({ min: fc.constantFrom(...VERSIONS) }), { nil: undefined }))),
  )
  .map(([parents, protocolReq]) => {
    const shape = new Map<string, Partial<CapabilityEntity>>();
    for (const r of ROOTS) shape.set(r, {});
    EXTS.forEach((e, i) => {
      const p = parents[i] as string[];
      const req = protocolReq[i];
      shape.set(e, { extends: p.length === 1 ? (p[0] as string) : p, ...(req === undefined ? {} : { requires: { protocol: req } }) });
    });
    return shape;
  });

function registryArb(shape: Map<string, Partial<CapabilityEntity>>): fc.Arbitrary<Registry> {
  return fc
    .tuple(...ALL.map(() => fc.option(fc.uniqueArray(fc.constantFrom(...VERSIONS), { maxLength: 3 }), { nil: undefined })))
    .map((perName) => {
      const reg: Registry = {};
      ALL.forEach((name, i) => {
        const versions = perName[i];
        if (versions !== undefined) reg[name] = versions.map((v) => cap(v, shape.get(name)));
      });
      return reg;
    });
}

const scenario = worldArb.chain((shape) =>
  fc.record({ business: registryArb(shape), platform: registryArb(shape), protocolVersion: fc.constantFrom(...VERSIONS) }),
);

const wrap = (active: ActiveCapabilities): Registry => Object.fromEntries(Object.entries(active).map(([n, e]) => [n, [e]]));

describe('intersectCapabilities: properties (R-G4)', () => {
  it('returns only Business entries whose name and version the Platform also lists, at the highest mutual version', () => {
    fc.assert(
      fc.property(scenario, ({ business, platform, protocolVersion }) => {
        const active = intersectCapabilities(business, platform, { protocolVersion });
        for (const [name, entity] of Object.entries(active)) {
          expect(business[name]).toContain(entity);
          const theirs = (platform[name] ?? []).map((e) => e.version);
          expect(theirs).toContain(entity.version);
          const mutual = (business[name] ?? []).map((e) => e.version).filter((v) => theirs.includes(v));
          expect(entity.version).toBe([...mutual].sort().at(-1));
        }
      }),
    );
  });

  it('leaves no orphan: every surviving extension reaches an active root through active parents', () => {
    fc.assert(
      fc.property(scenario, ({ business, platform, protocolVersion }) => {
        const active = intersectCapabilities(business, platform, { protocolVersion });
        for (const [name, entity] of Object.entries(active)) {
          // Walk up through active parents; a root must be found without revisiting a name.
          const seen = new Set<string>([name]);
          let frontier = [entity];
          let rooted = parentsOf(entity).length === 0;
          while (!rooted && frontier.length > 0) {
            const next: CapabilityEntity[] = [];
            for (const e of frontier) {
              for (const p of parentsOf(e)) {
                const pe = active[p];
                if (pe === undefined || seen.has(p)) continue;
                seen.add(p);
                if (parentsOf(pe).length === 0) rooted = true;
                next.push(pe);
              }
            }
            frontier = next;
          }
          expect(rooted, `${name} is active but does not reach an active root`).toBe(true);
        }
      }),
    );
  });

  it('satisfies every declared protocol requirement', () => {
    fc.assert(
      fc.property(scenario, ({ business, platform, protocolVersion }) => {
        for (const entity of Object.values(intersectCapabilities(business, platform, { protocolVersion }))) {
          const min = entity.requires?.protocol?.min;
          if (min !== undefined) expect(protocolVersion >= min).toBe(true);
        }
      }),
    );
  });

  it('is idempotent: intersecting the result with the Platform again changes nothing', () => {
    fc.assert(
      fc.property(scenario, ({ business, platform, protocolVersion }) => {
        const once = intersectCapabilities(business, platform, { protocolVersion });
        expect(intersectCapabilities(wrap(once), platform, { protocolVersion })).toEqual(once);
      }),
    );
  });

  it('keeps the same names whichever side is called the Business', () => {
    fc.assert(
      fc.property(scenario, ({ business, platform, protocolVersion }) => {
        const ab = Object.keys(intersectCapabilities(business, platform, { protocolVersion })).sort();
        const ba = Object.keys(intersectCapabilities(platform, business, { protocolVersion })).sort();
        expect(ab).toEqual(ba);
      }),
    );
  });

  it('accounts for every advertised Business capability exactly once (active or dropped)', () => {
    fc.assert(
      fc.property(scenario, ({ business, platform, protocolVersion }) => {
        const r = negotiateCapabilities(business, platform, { protocolVersion });
        const advertised = Object.keys(business)
          .filter((n) => (business[n] ?? []).length > 0)
          .sort();
        const accounted = [...Object.keys(r.active), ...r.dropped.map((d) => d.name)].sort();
        expect(accounted).toEqual(advertised);
      }),
    );
  });

  it('gives responses only active capabilities related to the root (R-G6)', () => {
    fc.assert(
      fc.property(scenario, fc.constantFrom(...ROOTS), ({ business, platform, protocolVersion }, root) => {
        const active = intersectCapabilities(business, platform, { protocolVersion });
        const resp = responseCapabilities(active, root);
        for (const [name, [entry]] of Object.entries(resp)) {
          expect(active[name]?.version).toBe(entry.version);
          if (name !== root) expect(ROOTS).not.toContain(name);
        }
        expect(Object.hasOwn(resp, root)).toBe(Object.hasOwn(active, root));
      }),
    );
  });
});
