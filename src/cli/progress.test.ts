import { describe, expect, it } from 'vitest';
import { createProgress, type ProgressStream } from './progress.js';

function fakeStream(isTTY: boolean): ProgressStream & { text: string } {
  const s = {
    isTTY,
    columns: 100,
    text: '',
    write(chunk: string) {
      s.text += chunk;
      return true;
    },
  };
  return s;
}

/** A clock the test advances by hand (milliseconds). */
function clock() {
  let t = 0;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('createProgress', () => {
  it('on a terminal redraws one line in place with count, percentage and rate, throttled', () => {
    const stream = fakeStream(true);
    const c = clock();
    const p = createProgress('import', { stream, now: c.now });
    p.update({ phase: 'writing', done: 0, total: 1000 });
    c.advance(50);
    p.update({ phase: 'writing', done: 100, total: 1000 }); // within 100 ms: skipped
    c.advance(950);
    p.update({ phase: 'writing', done: 500, total: 1000 });
    const frames = stream.text.split('\r\x1b[2K').filter((f) => f !== '');
    expect(frames).toHaveLength(2);
    expect(frames[1]).toBe('import writing [##########----------] 500/1,000 (50%) 500 records/s');
    p.finish();
    expect(stream.text.endsWith('\r\x1b[2K')).toBe(true);
    expect(stream.text).not.toContain('\n');
  });

  it('keeps a terminal frame within the width', () => {
    const stream = fakeStream(true);
    stream.columns = 20;
    createProgress('validate', { stream, now: clock().now }).update({ phase: 'reading', done: 123_456 });
    expect(stream.text.replace('\r\x1b[2K', '').length).toBeLessThanOrEqual(19);
  });

  it('off a terminal prints nothing for a short run and a plain line per interval for a long one', () => {
    const stream = fakeStream(false);
    const c = clock();
    const p = createProgress('import', { stream, now: c.now, plainMs: 5000 });
    p.update({ phase: 'reading', done: 500 });
    c.advance(1000);
    p.update({ phase: 'reading', done: 1000 });
    expect(stream.text).toBe('');
    c.advance(4000);
    p.update({ phase: 'reading', done: 5000 });
    c.advance(1000);
    p.update({ phase: 'reading', done: 6000 });
    expect(stream.text).toBe('import reading 5,000 records 1,000 records/s\n');
    p.finish();
    expect(stream.text).not.toContain('\x1b');
  });

  it('is silent with quiet', () => {
    const stream = fakeStream(true);
    const p = createProgress('import', { stream, quiet: true, now: clock().now });
    p.update({ phase: 'writing', done: 1, total: 2 });
    p.finish();
    expect(stream.text).toBe('');
  });
});
