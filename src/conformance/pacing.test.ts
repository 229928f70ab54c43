import { describe, expect, it } from 'vitest';
import type { Exchange } from './exchange.js';
import { cappedWait, DEFAULT_RETRY_BUDGET_MS, MAX_WAIT_MS, Pacer, parseRetryAfter, rateLimitAdvice } from './pacing.js';

const NOW = Date.parse('2026-12-02T03:00:00Z');

function answer(status: number, headers: Record<string, string> = {}, body = ''): Exchange {
  return {
    binding: 'rest',
    label: 'search',
    method: 'POST',
    url: 'http://127.0.0.1/ucp/locations/search',
    requestHeaders: {},
    requestBody: '{}',
    status,
    headers,
    responseText: body,
  };
}

/** A clock that only moves when the pacer sleeps (to the end of each sleep), so waits are measured, not slept. */
function fakeTime(): { now: () => number; sleep: (ms: number) => Promise<void>; slept: number[] } {
  let t = NOW;
  const slept: number[] = [];
  return {
    now: () => t,
    sleep: async (ms) => {
      slept.push(ms);
      const end = t + ms;
      await Promise.resolve();
      t = Math.max(t, end);
    },
    slept,
  };
}

describe('Retry-After parsing (RFC 9110 §10.2.3)', () => {
  it('reads delta-seconds and HTTP-dates, a past date as 0, and refuses anything else', () => {
    expect(parseRetryAfter('3', NOW)).toBe(3000);
    expect(parseRetryAfter(' 0 ', NOW)).toBe(0);
    expect(parseRetryAfter(new Date(NOW + 7000).toUTCString(), NOW)).toBe(7000);
    expect(parseRetryAfter(new Date(NOW - 7000).toUTCString(), NOW)).toBe(0);
    for (const bad of [undefined, '', '-1', '1.5', 'soon', '12abc']) expect(parseRetryAfter(bad, NOW)).toBeUndefined();
  });

  it('takes the header first, then MCP error.data.retry_after, then a short default; only for HTTP 429', () => {
    expect(rateLimitAdvice(answer(429, { 'retry-after': '2' }, '{"error":{"data":{"retry_after":9}}}'), NOW)).toBe(2000);
    expect(rateLimitAdvice(answer(429, {}, '{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"data":{"retry_after":4}}}'), NOW)).toBe(
      4000,
    );
    expect(rateLimitAdvice(answer(429, {}, 'not json'), NOW)).toBe(1000);
    expect(rateLimitAdvice(answer(200, { 'retry-after': '2' }), NOW)).toBeUndefined();
    expect(rateLimitAdvice(answer(503, { 'retry-after': '2' }), NOW)).toBeUndefined();
  });

  it(`caps each wait at ${MAX_WAIT_MS} ms and never waits less than a moment`, () => {
    expect(cappedWait(3_600_000)).toBe(MAX_WAIT_MS);
    expect(cappedWait(0)).toBe(200);
    expect(cappedWait(2500)).toBe(2500);
  });
});

describe('Pacer', () => {
  it('gives a call charged as n (a batch) the n slots ending at its own, so the pace holds per charged call', async () => {
    const time = fakeTime();
    const pacer = new Pacer({ ...time, paceCallsPerSecond: 10 });
    await pacer.send(async () => answer(200));
    await pacer.send(async () => answer(200), 5);
    await pacer.send(async () => answer(200));
    // One call, then a batch of 5 sent four idle slots after the next one (100 ms each), then the next slot.
    expect(time.slept).toEqual([500, 100]);
  });

  it('waits the advised time and resends until the Business answers, counting the call once', async () => {
    const time = fakeTime();
    const pacer = new Pacer(time);
    const answers = [answer(429, { 'retry-after': '2' }), answer(429, { 'retry-after': '1' }), answer(200)];
    let sent = 0;
    const got = await pacer.send(async () => answers[sent++] as Exchange);
    expect(got.status).toBe(200);
    expect(sent).toBe(3);
    expect(time.slept).toEqual([2000, 1000]);
    expect(pacer.summary()).toEqual({
      paceCallsPerSecond: null,
      retriedCalls: 1,
      waitedMs: 3000,
      budgetMs: DEFAULT_RETRY_BUDGET_MS,
      budgetExhausted: false,
    });
  });

  it('hands the refusal back once the run budget is spent, and waits no more for later calls', async () => {
    const time = fakeTime();
    const pacer = new Pacer({ ...time, retryBudgetMs: 20_000 });
    const refusal = async (): Promise<Exchange> => answer(429, { 'retry-after': '60' });
    expect((await pacer.send(refusal)).status).toBe(429);
    expect(time.slept).toEqual([MAX_WAIT_MS]);
    expect(pacer.givenUp).toBe(1);
    expect((await pacer.send(refusal)).status).toBe(429);
    expect(time.slept).toEqual([MAX_WAIT_MS]);
    expect(pacer.summary()).toMatchObject({ retriedCalls: 1, waitedMs: MAX_WAIT_MS, budgetExhausted: true });
  });

  it('never retries with a budget of 0, and neither spaces nor retries inside unpaced()', async () => {
    const time = fakeTime();
    const none = new Pacer({ ...time, retryBudgetMs: 0 });
    expect((await none.send(async () => answer(429, { 'retry-after': '1' }))).status).toBe(429);
    const paced = new Pacer({ ...time, paceCallsPerSecond: 1 });
    const got = await paced.unpaced(() => Promise.all([1, 2, 3].map(() => paced.send(async () => answer(429)))));
    expect(got.map((x) => x.status)).toEqual([429, 429, 429]);
    expect(time.slept).toEqual([]);
    expect(paced.givenUp).toBe(0);
    expect(paced.summary().budgetExhausted).toBe(false);
  });

  it('spaces calls to the pace, concurrent ones included', async () => {
    const time = fakeTime();
    const pacer = new Pacer({ ...time, paceCallsPerSecond: 4 });
    await Promise.all([1, 2, 3].map(() => pacer.send(async () => answer(200))));
    // Three at once: the first goes now, the others wait for the slots 250 and 500 ms on.
    expect(time.slept).toEqual([250, 500]);
    await pacer.send(async () => answer(200));
    expect(time.slept).toEqual([250, 500, 250]);
    expect(time.now() - NOW).toBe(750);
  });
});
