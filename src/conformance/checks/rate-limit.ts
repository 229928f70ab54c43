/**
 * Rate limiting (R-P2, R-G7), opt-in with `--probe-rate-limit [calls]`: cheap searches are sent
 * as fast as a few concurrent callers can, until the Business refuses one or the allowance is
 * spent. The refusal must be the protocol error R-G7 describes — over MCP HTTP 429 with JSON-RPC
 * `-32000` and a numeric `error.data.retry_after`; over REST HTTP 429 with `Retry-After` — and
 * nothing but successes may come before it. A Business whose limit lies beyond the allowance is
 * not judged (a high limit is not a missing one). Runs last: afterwards the Business may refuse
 * this client until its window passes.
 */
import { fail, pass, skip, type Check } from '../check.js';
import { callEvidence, describeOutcome, type Call } from '../operation-client.js';
import { EMPTY_SEARCH, isRecord } from '../oracle.js';

/** Callers at once: enough to outrun a per-second limit, few enough to stay polite. */
const CONCURRENCY = 8;

/** Retry-After is delta-seconds or an HTTP-date (RFC 9110 §10.2.3). */
export function validRetryAfter(value: string | string[] | undefined): boolean {
  if (typeof value !== 'string') return false;
  const v = value.trim();
  return /^\d+$/.test(v) || (/[A-Za-z]/.test(v) && !Number.isNaN(Date.parse(v)));
}

/** What is wrong with a refusal as R-G7 describes it, or undefined when it is right. */
export function rateLimitProblem(call: Call): string | undefined {
  const status = call.exchange.status;
  const o = call.outcome;
  if (call.binding === 'mcp') {
    if (status !== 429) return `HTTP ${status ?? 'no answer'}, not 429 (over Streamable HTTP the status is the primary signal)`;
    if (o.kind !== 'other_error' || o.code !== -32000) return `${describeOutcome(o)}: expected JSON-RPC error -32000`;
    const retry = isRecord(o.data) ? o.data['retry_after'] : undefined;
    if (typeof retry !== 'number' || !Number.isFinite(retry) || retry < 0)
      return `error.data.retry_after is ${JSON.stringify(retry ?? null)}, not a number of seconds`;
    return undefined;
  }
  if (status !== 429) return `HTTP ${status ?? 'no answer'}, not 429`;
  if (!validRetryAfter(call.exchange.headers?.['retry-after']))
    return `Retry-After is ${JSON.stringify(call.exchange.headers?.['retry-after'] ?? null)}, not delta-seconds or an HTTP-date`;
  return undefined;
}

export const RATE_LIMIT_CHECKS: readonly Check[] = [
  {
    id: 'negotiation.rate-limited',
    rule: 'R-G7',
    area: 'negotiation',
    title: 'a rate-limited call is refused with 429 (MCP: -32000 with error.data.retry_after; REST: Retry-After)',
    scope: 'binding',
    needs: ['profile', 'search', 'rate-limit-probe'],
    final: true,
    run: async (ctx, client) => {
      const c = client;
      const allowance = ctx.rateLimitProbe as number;
      let sent = 0;
      let refusal: Call | undefined;
      const caller = async (): Promise<void> => {
        while (refusal === undefined && sent < allowance) {
          sent += 1;
          const call = await c.call('search', EMPTY_SEARCH);
          if (call.outcome.kind !== 'success' && refusal === undefined) refusal = call;
        }
      };
      // Unpaced and unretried: this probe exists to meet the refusal the other checks wait out.
      await ctx.pacer.unpaced(() => Promise.all(Array.from({ length: CONCURRENCY }, caller)));
      if (refusal === undefined)
        return skip(
          `no call was refused within ${allowance} searches; the limit (if any) lies beyond the allowance (raise --probe-rate-limit)`,
        );
      const expected =
        c.binding === 'mcp'
          ? 'HTTP 429 with JSON-RPC error -32000 and error.data.retry_after (seconds)'
          : 'HTTP 429 with a Retry-After header';
      const problem = rateLimitProblem(refusal);
      if (problem === undefined) return pass(`refused after ${sent} searches, as R-G7 describes`);
      return fail(problem, [callEvidence(refusal, expected, `${problem} (after ${sent} searches)`)]);
    },
  },
];
