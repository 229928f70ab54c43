import { describe, expect, it } from 'vitest';
import { RequestTurns } from './request-turns.js';

/** Burns CPU like a synchronous search would. */
function spin(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // busy
  }
}

describe('RequestTurns', () => {
  it('grants turns first come, first served', async () => {
    const turns = new RequestTurns();
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        expect(await turns.turn()).toBe(true);
        order.push(i);
      }),
    );
    expect(order).toEqual(Array.from({ length: 200 }, (_, i) => i));
    expect(turns.queued).toBe(0);
  });

  it('lets timers and I/O run once a loop turn has used its budget', async () => {
    const turns = new RequestTurns({ budgetMs: 10 });
    let done = 0;
    let doneWhenTimerFired = -1;
    await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        await turns.turn();
        // Armed inside the first turn, so it cannot fire before any work ran (on a busy machine a
        // timer armed earlier may already be due when the loop next reaches its timers).
        if (i === 0) setTimeout(() => (doneWhenTimerFired = done), 0);
        spin(4);
        done++;
      }),
    );
    // 20 × 4 ms of work; within a 10 ms budget a loop turn runs at most 3 of them (the third starts
    // at ~8 ms), then the loop reaches its timers. Without turn-taking the timer would see all 20.
    expect(doneWhenTimerFired).toBeGreaterThanOrEqual(1);
    expect(doneWhenTimerFired).toBeLessThanOrEqual(3);
  });

  it('never runs a turn’s work inside the caller’s own tick', async () => {
    const turns = new RequestTurns();
    let ran = false;
    const pending = turns.turn().then(() => (ran = true));
    await Promise.resolve();
    expect(ran).toBe(false);
    await pending;
    expect(ran).toBe(true);
  });

  it('does not hold later turns behind one that awaits real I/O', async () => {
    const turns = new RequestTurns();
    const events: string[] = [];
    const slow = (async () => {
      await turns.turn();
      await new Promise((resolve) => setTimeout(resolve, 30));
      events.push('slow');
    })();
    const fast = (async () => {
      await turns.turn();
      events.push('fast');
    })();
    await Promise.all([slow, fast]);
    expect(events).toEqual(['fast', 'slow']);
  });

  it('refuses at once when maxQueued requests are already waiting, and accepts again once they ran', async () => {
    const turns = new RequestTurns({ maxQueued: 3 });
    const waiting = [turns.turn(), turns.turn(), turns.turn()];
    expect(turns.queued).toBe(3);
    expect(await turns.turn()).toBe(false);
    expect(await Promise.all(waiting)).toEqual([true, true, true]);
    expect(await turns.turn()).toBe(true);
  });

  it('keeps the queue compact over many batches', async () => {
    const turns = new RequestTurns({ budgetMs: 1000 });
    for (let round = 0; round < 5; round++) {
      const all = Array.from({ length: 3000 }, () => turns.turn());
      expect(turns.queued).toBe(3000);
      expect((await Promise.all(all)).every(Boolean)).toBe(true);
      expect(turns.queued).toBe(0);
    }
  });

  it('rejects nonsensical options', () => {
    expect(() => new RequestTurns({ budgetMs: 0 })).toThrow(RangeError);
    expect(() => new RequestTurns({ maxQueued: 0 })).toThrow(RangeError);
    expect(() => new RequestTurns({ maxQueued: 1.5 })).toThrow(RangeError);
  });
});
