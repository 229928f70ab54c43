import { describe, expect, it } from 'vitest';
import { ServiceUnavailableError } from '../../errors.js';
import { OutageGuard } from './outage.js';

function logger() {
  const lines: string[] = [];
  return {
    lines,
    log: {
      info: (_o: object, m: string) => lines.push(`info ${m}`),
      warn: (_o: object, m: string) => lines.push(`warn ${m}`),
      error: (_o: object, m: string) => lines.push(`error ${m}`),
    },
  };
}

describe('OutageGuard', () => {
  it('fails fast during an outage, lets one probe through after the quiet period, and recovers on success', () => {
    let now = 1_000;
    const l = logger();
    const g = new OutageGuard(1000, 3, l.log, 'test', () => now);
    expect(g.enter()).toBe(false);
    g.failed(new Error('ECONNREFUSED'));
    g.failed(new Error('ECONNREFUSED'));
    expect(l.lines).toEqual(['error PostgreSQL unreachable; answering 503 until it returns']);
    let err: unknown;
    try {
      g.enter();
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ServiceUnavailableError);
    expect((err as ServiceUnavailableError).retryAfterSeconds).toBe(3);
    now += 1000;
    expect(g.enter()).toBe(true); // the probe
    expect(() => g.enter()).toThrow(ServiceUnavailableError); // others keep failing fast meanwhile
    g.succeeded();
    expect(g.down).toBe(false);
    expect(g.enter()).toBe(false);
    expect(l.lines[1]).toBe('info PostgreSQL reachable again; serving requests');
  });

  it('re-arms the quiet period when the probe fails', () => {
    let now = 0;
    const g = new OutageGuard(500, 1, undefined, 'test', () => now);
    g.failed(new Error('down'));
    now = 500;
    expect(g.enter()).toBe(true);
    g.failed(new Error('still down'));
    expect(() => g.enter()).toThrow(ServiceUnavailableError);
    now = 1000;
    expect(g.enter()).toBe(true);
  });
});
