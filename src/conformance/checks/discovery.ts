/**
 * Profile checks (R-D1…R-D6): how `/.well-known/ucp` is served and what it declares. They judge
 * what setup fetched (discover.ts); none of them sends a request of its own.
 */
import { isLoopbackUrl } from '../loopback.js';
import { checkProfileHosting, type HostingProblem, type HostingRule } from '../../protocol/profile-hosting.js';
import { isReservedUcpName } from '../../protocol/names.js';
import { COMMON_SERVICE, LOOKUP_CAPABILITY, SEARCH_CAPABILITY, UCP_VERSION } from '../../protocol/types.js';
import { fail, pass, skip, verdictOf, type Check, type DiscoveryState, type RunCheck, type RunContext, type Verdict } from '../check.js';
import { isRecord } from '../oracle.js';
import type { Evidence } from '../types.js';

function profileRequest(d: DiscoveryState): string {
  return `GET ${d.profileUrl}`;
}

function profileResponse(d: DiscoveryState): string {
  const r = d.response;
  if (r === undefined)
    return d.fetchError?.status !== undefined
      ? `HTTP ${d.fetchError.status}`
      : `no usable answer: ${d.fetchError?.message ?? 'not fetched'}`;
  const h = (name: string): string => {
    const v = r.headers[name];
    return v === undefined ? '(absent)' : Array.isArray(v) ? v.join(', ') : v;
  };
  return `HTTP ${r.status}; Cache-Control: ${h('cache-control')}; ETag: ${h('etag')}; Last-Modified: ${h('last-modified')}`;
}

/** The skip of every check that judges the fetched answer when there is none. */
function notServed(d: DiscoveryState): Verdict {
  return skip(`the profile was not served (${d.fetchError?.message ?? 'no answer'})`);
}

/** R-D5 problems of the fetched answer, for the given hosting rules only. */
function hostingVerdict(d: DiscoveryState, rules: readonly HostingRule[], expected: string): Verdict {
  if (d.response === undefined) return notServed(d);
  const problems = checkProfileHosting({ url: d.profileUrl, status: d.response.status, headers: d.response.headers }).filter(
    (p: HostingProblem) => rules.includes(p.rule),
  );
  return verdictOf(problems.map((p) => ({ expected, observed: p.message, request: profileRequest(d), response: profileResponse(d) })));
}

/** Raw `ucp` object of the fetched document, whatever its validity. */
function rawUcp(d: DiscoveryState): Record<string, unknown> | undefined {
  const body = d.response?.body;
  return isRecord(body) && isRecord(body['ucp']) ? body['ucp'] : undefined;
}

/** Every `[registry, name, index, entry]` of the raw document's registries. */
export function rawEntries(d: DiscoveryState): [registry: string, name: string, index: number, entry: unknown][] {
  const ucp = rawUcp(d);
  const out: [string, string, number, unknown][] = [];
  if (ucp === undefined) return out;
  for (const registry of ['services', 'capabilities', 'payment_handlers']) {
    const map = ucp[registry];
    if (!isRecord(map)) continue;
    for (const [name, list] of Object.entries(map)) {
      if (Array.isArray(list)) list.forEach((entry, index) => out.push([registry, name, index, entry]));
    }
  }
  return out;
}

/**
 * The `run` of a check that judges the raw `ucp` object of the fetched document, valid or not
 * (so one broken part does not hide the others): skipped, with the reason, when the profile was
 * not served or has no `ucp` object.
 */
function judgingUcp(judge: (ucp: Record<string, unknown>, d: DiscoveryState, ctx: RunContext) => Verdict): RunCheck['run'] {
  return async (ctx) => {
    const d = ctx.discovery;
    const ucp = rawUcp(d);
    if (ucp === undefined) return d.response === undefined ? notServed(d) : skip('the profile has no "ucp" object');
    return judge(ucp, d, ctx);
  };
}

export const DISCOVERY_CHECKS: readonly Check[] = [
  {
    id: 'discovery.profile-served',
    rule: 'R-D1',
    area: 'discovery',
    title: 'the profile is served at /.well-known/ucp as a JSON document',
    scope: 'run',
    run: async (ctx) => {
      const d = ctx.discovery;
      if (d.response !== undefined) return pass();
      return fail(d.fetchError?.message ?? 'the profile could not be fetched', [
        {
          expected: `200 with the profile JSON at ${d.profileUrl}`,
          observed: d.fetchError?.message ?? 'no answer',
          request: profileRequest(d),
          response: profileResponse(d),
        },
      ]);
    },
  },
  {
    id: 'discovery.https',
    rule: 'R-D5',
    area: 'discovery',
    title: 'the profile is served over https',
    scope: 'run',
    run: async (ctx) => {
      const d = ctx.discovery;
      if (d.profileUrl.startsWith('https://')) return pass();
      if (ctx.allowLoopback && isLoopbackUrl(d.profileUrl))
        return skip('plain http on loopback is accepted for local development (--allow-loopback)');
      return fail('the profile URL is not https', [
        { expected: 'an https profile URL', observed: d.profileUrl, request: profileRequest(d) },
      ]);
    },
  },
  {
    id: 'discovery.no-redirect',
    rule: 'R-D5',
    area: 'discovery',
    title: 'the profile is served directly, without a redirect',
    scope: 'run',
    run: async (ctx) => {
      const d = ctx.discovery;
      if (d.fetchError?.reason === 'redirect') {
        return fail(`the profile URL answers ${d.fetchError.status ?? '3xx'} (a redirect)`, [
          {
            expected: '200 with the profile at the advertised URL; Platforms never follow redirects',
            observed: d.fetchError.message,
            request: profileRequest(d),
            response: profileResponse(d),
          },
        ]);
      }
      return hostingVerdict(d, ['no-redirect'], '200 with the profile at the advertised URL');
    },
  },
  {
    id: 'discovery.cache-control',
    rule: 'R-D5',
    area: 'discovery',
    title: 'Cache-Control is public with max-age ≥ 60 and no private/no-store/no-cache',
    scope: 'run',
    run: async (ctx) =>
      hostingVerdict(
        ctx.discovery,
        ['cache-control-present', 'cache-control-public', 'cache-control-max-age', 'cache-control-forbidden-directive'],
        'Cache-Control: public, max-age=60 or more',
      ),
  },
  {
    id: 'discovery.validator',
    rule: 'R-D5',
    area: 'discovery',
    title: 'the profile carries a validator (ETag or Last-Modified)',
    scope: 'run',
    run: async (ctx) => hostingVerdict(ctx.discovery, ['validator'], 'an ETag or Last-Modified header'),
  },
  {
    id: 'discovery.profile-valid',
    rule: 'R-D1',
    area: 'discovery',
    title: 'the document is a valid business profile (version, services, payment_handlers present)',
    scope: 'run',
    run: async (ctx) => {
      const d = ctx.discovery;
      const v = d.validation;
      if (v === undefined) return notServed(d);
      if (v.ok) return pass();
      return verdictOf(
        v.errors.map((e) => ({
          expected: 'a business profile per profile.json#/$defs/business_schema',
          observed: `${e.pointer || '/'}: ${e.message}`,
          request: profileRequest(d),
        })),
      );
    },
  },
  {
    id: 'discovery.version',
    rule: 'R-D1',
    area: 'discovery',
    title: `the profile declares version ${UCP_VERSION} (or reaches it through supported_versions)`,
    scope: 'run',
    run: judgingUcp((ucp, d) => {
      if (ucp['version'] === UCP_VERSION) return pass();
      const supported = ucp['supported_versions'];
      if (isRecord(supported) && typeof supported[UCP_VERSION] === 'string')
        return pass(`reached through supported_versions (current ${String(ucp['version'])})`);
      return fail(`ucp.version is ${JSON.stringify(ucp['version'])}`, [
        {
          expected: `ucp.version "${UCP_VERSION}", or a supported_versions entry for it`,
          observed: `ucp.version ${JSON.stringify(ucp['version'])}`,
          request: profileRequest(d),
        },
      ]);
    }),
  },
  {
    id: 'discovery.supported-versions',
    rule: 'R-D6',
    area: 'discovery',
    title: `a ${UCP_VERSION} leaf profile reached through supported_versions declares exactly that release`,
    scope: 'run',
    run: async (ctx) => {
      const leaf = ctx.discovery.leaf;
      if (leaf === undefined) return skip(`the profile's current version is ${UCP_VERSION}; no leaf profile is involved`);
      return verdictOf(
        leaf.problems.map((p) => ({
          expected: `a complete ${UCP_VERSION} leaf profile without supported_versions`,
          observed: p,
          request: `GET ${leaf.url}`,
        })),
      );
    },
  },
  {
    id: 'discovery.services',
    rule: 'R-D2',
    area: 'discovery',
    title: 'dev.ucp.common lists MCP/REST bindings with schema and an https endpoint without trailing slash',
    scope: 'run',
    run: judgingUcp((ucp, d, ctx) => {
      const services = ucp['services'];
      const entries = isRecord(services) && Array.isArray(services[COMMON_SERVICE]) ? (services[COMMON_SERVICE] as unknown[]) : [];
      const problems: Evidence[] = [];
      const expected = `${COMMON_SERVICE} entries {version, spec, transport, schema, endpoint}; endpoints https, no trailing slash`;
      let usable = 0;
      entries.forEach((entry, i) => {
        const at = `/ucp/services/${COMMON_SERVICE}/${i}`;
        if (!isRecord(entry)) return void problems.push({ expected, observed: `${at} is not an object` });
        const transport = entry['transport'];
        if (transport !== 'mcp' && transport !== 'rest') return;
        if (typeof entry['schema'] !== 'string') problems.push({ expected, observed: `${at} (${transport}) has no schema` });
        const endpoint = entry['endpoint'];
        if (typeof endpoint !== 'string') return void problems.push({ expected, observed: `${at} (${transport}) has no endpoint` });
        if (!endpoint.startsWith('https://') && !(ctx.allowLoopback && isLoopbackUrl(endpoint)))
          problems.push({ expected, observed: `${at} endpoint ${endpoint} is not https` });
        if (endpoint.endsWith('/')) problems.push({ expected, observed: `${at} endpoint ${endpoint} ends with a slash` });
        usable += 1;
      });
      if (usable === 0) problems.push({ expected, observed: `${COMMON_SERVICE} advertises no mcp or rest binding` });
      return verdictOf(problems.map((p) => ({ ...p, request: profileRequest(d) })));
    }),
  },
  {
    id: 'discovery.capabilities',
    rule: 'R-D3',
    area: 'discovery',
    title: 'Location capabilities are declared as {version, spec, schema} entries',
    scope: 'run',
    run: judgingUcp((ucp, d) => {
      const caps = ucp['capabilities'];
      const problems: Evidence[] = [];
      const expected = `${SEARCH_CAPABILITY} and/or ${LOOKUP_CAPABILITY}, each an array of {version, spec, schema}`;
      let found = 0;
      for (const name of [SEARCH_CAPABILITY, LOOKUP_CAPABILITY]) {
        const list = isRecord(caps) ? caps[name] : undefined;
        if (list === undefined) continue;
        found += 1;
        if (!Array.isArray(list) || list.length === 0) {
          problems.push({ expected, observed: `${name} is not a non-empty array` });
          continue;
        }
        list.forEach((e, i) => {
          for (const key of ['version', 'spec', 'schema']) {
            if (!isRecord(e) || typeof e[key] !== 'string')
              problems.push({ expected, observed: `/ucp/capabilities/${name}/${i} lacks "${key}"` });
          }
        });
      }
      if (found === 0) problems.push({ expected, observed: 'no Location capability is advertised' });
      return verdictOf(problems.map((p) => ({ ...p, request: profileRequest(d) })));
    }),
  },
  {
    id: 'discovery.entity-versions',
    rule: 'R-D4',
    area: 'discovery',
    title: "every dev.ucp.* service and capability declares the profile's ucp.version",
    scope: 'run',
    run: judgingUcp((ucp, d) => {
      const version = ucp['version'];
      const problems: Evidence[] = [];
      for (const [registry, name, index, entry] of rawEntries(d)) {
        if (registry === 'payment_handlers' || !isReservedUcpName(name) || !isRecord(entry)) continue;
        if (entry['version'] !== version) {
          problems.push({
            expected: `version ${JSON.stringify(version)} (the profile's ucp.version)`,
            observed: `/ucp/${registry}/${name}/${index} declares ${JSON.stringify(entry['version'])}`,
            request: profileRequest(d),
          });
        }
      }
      return verdictOf(problems);
    }),
  },
];
