/**
 * JSON-RPC 2.0 and budget edges (R-J1, R-J2, R-G7): a batch longer than any limit is still
 * answered with an array (one answer per request, each with its id), extra top-level members are
 * tolerated, every refusal echoes the id it could read, a cursor survives leaving out a member the
 * answer reported as ignored, and a refusal that only says "retry later" is a rate-limit answer.
 *
 * Not probed here: `serve --stdio` and other stdio transports (the checker speaks to a Business
 * over HTTP); the same rules apply there.
 */
import { fail, mcpPeerOf, pass, skip, verdictOf, type Check, type RunContext } from '../check.js';
import { describeRequest, describeResponse } from '../exchange.js';
import type { RpcExchange } from '../mcp-peer.js';
import { callEvidence, describeOutcome, type Call } from '../operation-client.js';
import { isRecord } from '../oracle.js';
import type { Evidence } from '../types.js';

/** Longer than the 20-message limit of our own server, and of any limit worth keeping. */
const BATCH_PROBE = 25;

function rawEvidence(x: RpcExchange, expected: string, observed: string): Evidence {
  return { expected, observed, request: describeRequest(x.exchange), response: describeResponse(x.exchange) };
}

function parsed(x: RpcExchange): unknown {
  try {
    return JSON.parse(x.exchange.responseText ?? '');
  } catch {
    return undefined;
  }
}

/** Every MCP answer the run saw: raw probes and tool calls. */
function rpcTraffic(ctx: RunContext): RpcExchange[] {
  return [...ctx.rawRpc, ...ctx.calls.flatMap((c) => (c.rpc === undefined ? [] : [c.rpc]))];
}

/**
 * Names a spent budget in words: a rate limit's refusal, whatever code it was sent with. (A
 * back-off after an origin's own failures also says "retry in N s", but is no budget: not matched.)
 */
const RETRY_LATER = /rate[- ]?limit|budget|too many .* recently/i;

export const EDGE_CHECKS: readonly Check[] = [
  {
    id: 'jsonrpc.batch-any-length',
    rule: 'R-J1',
    area: 'jsonrpc',
    title: `a batch of ${BATCH_PROBE} requests is answered with an array holding one answer per request, each with its id`,
    scope: 'mcp',
    needs: ['profile'],
    run: async (ctx) => {
      const ids = Array.from({ length: BATCH_PROBE }, (_, i) => `batch-${i}`);
      const body = JSON.stringify([
        ...ids.map((id) => ({ jsonrpc: '2.0', id, method: 'ping' })),
        { jsonrpc: '2.0', method: 'notifications/initialized' },
      ]);
      const x = await mcpPeerOf(ctx, 'jsonrpc.batch-any-length').sendRaw(
        body,
        `batch of ${BATCH_PROBE} pings and a notification`,
        undefined,
      );
      const expected = `a JSON array of ${BATCH_PROBE} responses (result or error), ids ${ids[0] ?? ''}…${ids[ids.length - 1] ?? ''}, none for the notification`;
      const answer = parsed(x);
      if (!Array.isArray(answer)) {
        const what = isRecord(answer)
          ? `one object${isRecord(answer['error']) ? ` (error ${String(answer['error']['code'])})` : ''}`
          : 'no JSON';
        return fail(`the batch was answered with ${what}, not an array`, [rawEvidence(x, expected, what)]);
      }
      const got = answer.map((a) => (isRecord(a) ? a['id'] : undefined));
      const missing = ids.filter((id) => !got.includes(id));
      const extra = got.filter((id) => typeof id !== 'string' || !ids.includes(id));
      if (missing.length > 0 || extra.length > 0) {
        const observed = `${answer.length} answers; missing ids ${missing.slice(0, 5).join(', ') || 'none'}; unexpected ids ${extra.slice(0, 5).map(String).join(', ') || 'none'}`;
        return fail(observed, [rawEvidence(x, expected, observed)]);
      }
      return pass(`${answer.length} answers, one per request`);
    },
  },
  {
    id: 'jsonrpc.extra-members',
    rule: 'R-J1',
    area: 'jsonrpc',
    title: 'a request with an extra top-level member is answered as if it had none',
    scope: 'mcp',
    needs: ['profile'],
    run: async (ctx) => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 'extra-1', method: 'ping', conformance_extra: 1 });
      const x = await mcpPeerOf(ctx, 'jsonrpc.extra-members').sendRaw(body, 'ping with an extra member', 'extra-1');
      ctx.rawRpc.push(x);
      const error = x.message?.['error'];
      if (x.message !== undefined && 'result' in x.message) return pass();
      const observed = isRecord(error) ? `error ${String(error['code'])}: ${String(error['message'])}` : (x.problem ?? 'no result');
      return fail(`${observed}`, [rawEvidence(x, 'a result: JSON-RPC 2.0 forbids no extra member', observed)]);
    },
  },
  {
    id: 'jsonrpc.refusal-id',
    rule: 'R-J1',
    area: 'jsonrpc',
    title: 'every refusal (429, 503, 403 included) echoes the id of the request it refuses',
    scope: 'run',
    needs: ['profile'],
    audit: true,
    // After the rate-limit probe (also final, earlier in the catalogue), whose 429s it judges.
    final: true,
    run: async (ctx) => {
      const refusals = rpcTraffic(ctx).filter((x) => x.sentId !== undefined && x.sentId !== null && isRecord(x.message?.['error']));
      const before = refusals.filter((x) => [429, 503, 403].includes(x.exchange.status ?? 0));
      if (before.length === 0)
        return skip('no request was refused with 429, 503 or 403 during the run (the rate-limit probe provokes 429s)');
      const wrong = before
        .filter((x) => x.message?.['id'] !== x.sentId)
        .map((x) =>
          rawEvidence(
            x,
            `the refusal's "id" is ${JSON.stringify(x.sentId)}, the request's (it is in the body's first bytes)`,
            `HTTP ${String(x.exchange.status)} with "id" ${JSON.stringify(x.message?.['id'] ?? null)}`,
          ),
        );
      return verdictOf(wrong, `${before.length} refusals, each with its id`);
    },
  },
  {
    id: 'negotiation.retry-later-is-rate-limit',
    rule: 'R-G7',
    area: 'negotiation',
    title: 'a refusal that asks to retry later (a spent budget, discovery included) is a rate-limit answer: 429, not -32001 or 200',
    scope: 'run',
    needs: ['profile'],
    audit: true,
    final: true,
    run: async (ctx) => {
      const problems: Evidence[] = [];
      for (const call of ctx.calls) {
        const o = call.outcome;
        const text = o.kind === 'negotiation_error' || o.kind === 'other_error' ? o.message : undefined;
        if (text === undefined || !RETRY_LATER.test(text)) continue;
        // A 429 is the rate-limit answer: on REST with its status alone (Retry-After is judged by the
        // rate-limit check), on MCP with JSON-RPC -32000.
        if (call.exchange.status === 429 && (call.binding === 'rest' || (o.kind === 'other_error' && o.code === -32000))) continue;
        problems.push(
          callEvidence(
            call,
            'HTTP 429 with JSON-RPC -32000 and error.data.retry_after (R-G7)',
            `HTTP ${String(call.exchange.status)}, ${describeOutcome(o)}`,
          ),
        );
      }
      for (const call of ctx.calls.filter((c) => c.binding === 'rest' && c.exchange.status !== 429)) {
        const text = call.exchange.responseText ?? '';
        if (call.exchange.status !== undefined && call.exchange.status >= 400 && RETRY_LATER.test(text))
          problems.push(
            callEvidence(call, 'HTTP 429 with Retry-After (R-G7)', `HTTP ${String(call.exchange.status)} asking to retry later`),
          );
      }
      return verdictOf(problems, 'no "retry later" refusal came in another shape');
    },
  },
  {
    id: 'pagination.ignored-member',
    rule: 'R-J2',
    area: 'pagination',
    title: 'a cursor still works when the next request leaves out a member the answer reported as ignored',
    scope: 'binding',
    needs: ['profile', 'search'],
    run: async (ctx, client) => {
      const c = client;
      const member = 'conformance_ignored_member';
      const first = await c.call('search', { pagination: { limit: 1 }, [member]: 'x' });
      if (first.outcome.kind !== 'success') return skip(`the first search did not succeed (${describeOutcome(first.outcome)})`);
      const payload = first.outcome.payload;
      const messages = Array.isArray(payload['messages']) ? payload['messages'].filter(isRecord) : [];
      const reported = messages.some((m) => JSON.stringify(m).includes(member));
      const pagination = isRecord(payload['pagination']) ? payload['pagination'] : {};
      const cursor = pagination['cursor'];
      if (!reported) return skip(`the answer does not report "${member}" as ignored, so R-J2 does not bind the cursor to leaving it out`);
      if (typeof cursor !== 'string') return skip('one Location fits on a page of one: no cursor to follow');
      const next: Call = await c.call('search', { pagination: { limit: 1, cursor } });
      if (next.outcome.kind === 'success') return pass();
      return fail(`following the cursor without "${member}" gave ${describeOutcome(next.outcome)}`, [
        callEvidence(next, `the next page: "${member}" was reported as ignored, so it shaped nothing`, describeOutcome(next.outcome)),
      ]);
    },
  },
];
