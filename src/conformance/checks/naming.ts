/**
 * Namespace checks on the profile as published (R-N1, R-N2): every registry key follows the
 * reverse-domain naming convention, and every entity with a `schema` URL is bound to it by
 * authority. A Platform drops failing entities; the checker names each one.
 */
import { checkAuthorityBinding } from '../../protocol/authority.js';
import { checkNamingConvention, type EntityKind } from '../../protocol/names.js';
import { skip, verdictOf, type Check } from '../check.js';
import { isRecord } from '../oracle.js';
import type { Evidence } from '../types.js';
import { rawEntries } from './discovery.js';

const KIND: Readonly<Record<string, EntityKind>> = { services: 'service', capabilities: 'capability', payment_handlers: 'payment_handler' };

export const NAMING_CHECKS: readonly Check[] = [
  {
    id: 'naming.reverse-domain',
    rule: 'R-N1',
    area: 'naming',
    title: 'every service, capability and payment handler name is reverse-domain and follows the convention',
    scope: 'run',
    run: async (ctx) => {
      const entries = rawEntries(ctx.discovery);
      if (entries.length === 0) return skip('the profile declares no entities (or was not served)');
      const seen = new Set<string>();
      const problems: Evidence[] = [];
      for (const [registry, name] of entries) {
        if (seen.has(`${registry}\u0000${name}`)) continue;
        seen.add(`${registry}\u0000${name}`);
        const check = checkNamingConvention(name, KIND[registry] ?? 'capability');
        if (!check.ok)
          problems.push({
            expected: '{reverse-domain}.{service}.{capability} names',
            observed: `/ucp/${registry}/${name}: ${check.reason}`,
            request: `GET ${ctx.discovery.profileUrl}`,
          });
      }
      return verdictOf(problems, `${seen.size} names`);
    },
  },
  {
    id: 'naming.authority-binding',
    rule: 'R-N2',
    area: 'naming',
    title: "every entity's schema URL is https on a host that owns its name (authority binding)",
    scope: 'run',
    run: async (ctx) => {
      const bound = rawEntries(ctx.discovery).filter(([, , , e]) => isRecord(e) && typeof e['schema'] === 'string');
      if (bound.length === 0) return skip('the profile declares no entity with a schema URL (or was not served)');
      const problems: Evidence[] = [];
      for (const [registry, name, index, entry] of bound) {
        const schema = (entry as Record<string, unknown>)['schema'] as string;
        const binding = checkAuthorityBinding(name, schema);
        if (!binding.ok) {
          problems.push({
            expected: `the reversed schema host equals ${name} or a label-aligned prefix of it`,
            observed: `/ucp/${registry}/${name}/${index} schema ${schema}: ${binding.reason}`,
            request: `GET ${ctx.discovery.profileUrl}`,
          });
        }
      }
      return verdictOf(problems, `${bound.length} entities bound`);
    },
  },
];
