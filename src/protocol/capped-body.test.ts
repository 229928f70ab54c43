import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readCappedBody, type CappedBodyErrors } from './capped-body.js';

const errors: CappedBodyErrors = {
  tooLarge: () => new Error('too large'),
  failed: (error) => new Error(`failed: ${(error as Error).message}`),
};

function chunks(...parts: string[]): Readable {
  return Readable.from(parts.map((p) => Buffer.from(p)));
}

describe('readCappedBody (R-N4 body cap)', () => {
  it('returns every byte of a body at or under the cap', async () => {
    expect((await readCappedBody(chunks('ab', 'cd'), 4, errors)).toString()).toBe('abcd');
  });

  it('refuses one byte over the cap and destroys the stream', async () => {
    const body = chunks('ab', 'cde', 'never read');
    await expect(readCappedBody(body, 4, errors)).rejects.toThrow('too large');
    expect(body.destroyed).toBe(true);
  });

  it('still reports "too large" when destroying the stream raises an abort error (as undici bodies do)', async () => {
    const body = new Readable({ read() {} });
    const destroy = body.destroy.bind(body);
    body.destroy = (error?: Error) => destroy(error ?? new Error('aborted'));
    body.on('error', () => undefined);
    body.push(Buffer.from('12345'));
    await expect(readCappedBody(body, 4, errors)).rejects.toThrow('too large');
  });

  it('reports a failing stream through `failed`', async () => {
    const body = new Readable({
      read() {
        this.destroy(new Error('socket hang up'));
      },
    });
    await expect(readCappedBody(body, 4, errors)).rejects.toThrow('failed: socket hang up');
  });
});
