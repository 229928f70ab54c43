/**
 * R-S11: Locations the Business keeps private (given with `--private-id`, ids or aliases) are never
 * returned — not when looked up directly, not in any answer the run received.
 */
import { pass, skip, verdictOf, type Check } from '../check.js';
import { callEvidence, describeOutcome, idsOf, locationsOf } from '../operation-client.js';

export const PRIVACY_CHECKS: readonly Check[] = [
  {
    id: 'privacy.lookup-private',
    rule: 'R-S11',
    area: 'privacy',
    title: 'looking up private ids or aliases returns no Location',
    scope: 'binding',
    needs: ['profile', 'lookup', 'private-ids'],
    run: async (ctx, client) => {
      const call = await client.call('lookup', { ids: [...ctx.privateIds] });
      const expected = 'success with no Location (private Locations are never returned)';
      if (call.outcome.kind !== 'success') {
        // Refusing is not a leak; the unresolved-id rule (R-L2) is judged elsewhere.
        return pass(`refused: ${describeOutcome(call.outcome)}`);
      }
      const leaked = locationsOf(call.outcome).map((l) => String(l['id']));
      return verdictOf(leaked.length === 0 ? [] : [callEvidence(call, expected, `returned ${leaked.join(', ')}`)]);
    },
  },
  {
    id: 'privacy.never-returned',
    rule: 'R-S11',
    area: 'privacy',
    title: 'no answer of the whole run contains a private Location',
    scope: 'run',
    needs: ['profile', 'private-ids'],
    audit: true,
    run: async (ctx) => {
      const privateIds = new Set(ctx.privateIds);
      const answers = ctx.calls.filter((c) => c.outcome.kind === 'success');
      if (answers.length === 0) return skip('no call succeeded');
      const problems = answers.flatMap((call) => {
        const leaked = idsOf(call.outcome).filter((id) => privateIds.has(id));
        return leaked.length === 0
          ? []
          : [callEvidence(call, 'no private Location in any answer', `returned private ${leaked.join(', ')}`)];
      });
      return verdictOf(problems, `${answers.length} answers scanned`);
    },
  },
];
