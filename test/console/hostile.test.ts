/**
 * The console API against hostile requests (issue 37 N13): every one gets a clear 4xx, never a
 * 500 or a connection reset.
 */
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsole, type RunningConsole } from '../../src/console/server.js';
import { SqliteLocationStore } from '../../src/store/sqlite/index.js';
import { rawRequest } from '../../src/transport/test-support/raw-http.js';
import { useScratchDir } from '../support/scratch.js';
import { buildDemoStore, TOKEN } from './support.js';

const scratch = useScratchDir('ucp-console-hostile');
const API = { 'x-ucp-console': '1', 'content-type': 'application/json' };
let store: SqliteLocationStore;
let open: RunningConsole;
let guarded: RunningConsole;

beforeAll(async () => {
  store = await SqliteLocationStore.open(await buildDemoStore(scratch()));
  open = await startConsole({ store, port: 0 });
  guarded = await startConsole({ store, port: 0, token: TOKEN });
});

afterAll(async () => {
  await open?.close();
  await guarded?.close();
  await store?.close();
});

/** Sends a raw HTTP request and returns what came back before the connection ended (or the error). */
function rawExchange(port: number, head: string, body: Buffer): Promise<{ text: string; error?: string }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ text: Buffer.concat(chunks).toString('utf8'), error: error.code ?? 'error' }),
    );
    socket.on('close', () => resolve({ text: Buffer.concat(chunks).toString('utf8') }));
    socket.write(head);
    socket.end(body);
  });
}

describe('console API under hostile requests (issue 37 N13)', () => {
  it('a 100,000-deep body is a 400 naming the depth limit, not a 500', async () => {
    const deepObject = `{"filters":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_001)}`;
    const deepArray = `{"ids":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    for (const body of [deepObject, deepArray]) {
      for (const path of ['api/search', 'api/explain', 'api/import/commit']) {
        const r = await rawRequest(`${open.url}${path}`, { method: 'POST', headers: API, body });
        expect(r.status).toBe(400);
        expect(r.text).toContain('levels deep');
      }
    }
  });

  it('a malformed cookie is a 401 asking for the token, not a 500', async () => {
    const r = await rawRequest(`${guarded.url}api/overview`, { headers: { ...API, cookie: 'ucp_console_token=%E0%A4%A; other=%' } });
    expect(r.status).toBe(401);
    expect(r.text).toContain('token');
  });

  it('an oversized body is answered 413 (the client reads it), not a connection reset', async () => {
    const body = Buffer.alloc(3 * 1024 * 1024, 0x20);
    const head = `POST /api/search HTTP/1.1\r\nHost: 127.0.0.1:${open.port}\r\nx-ucp-console: 1\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`;
    const answer = await rawExchange(open.port, head, body);
    expect(answer.text).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer.text).toContain('larger than');
    // The console still serves.
    expect((await rawRequest(`${open.url}api/overview`, { headers: API })).status).toBe(200);
  });
});

describe('console API when the server itself fails (issue 29: the 500 sent internal messages)', () => {
  const SECRET = 'SQLITE_CORRUPT at /var/lib/ucp/secret-store.db: table locations_v2 page 17';

  it('answers 500 with a reference and nothing of the error; the error and the reference go to the log', async () => {
    // A store that fails with a message naming its internals, for this test only.
    const failing = await SqliteLocationStore.open(await buildDemoStore(scratch(), 'failing.db'));
    failing.amenityIds = (): Promise<string[]> => Promise.reject(new Error(SECRET));
    const lines: string[] = [];
    const logger = pino(
      { level: 'error' },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString('utf8'));
          done();
        },
      }),
    );
    const broken = await startConsole({ store: failing, port: 0, logger });
    try {
      const r = await rawRequest(`${broken.url}api/config`, { headers: API });
      expect(r.status).toBe(500);
      expect(r.text).not.toContain('SQLITE_CORRUPT');
      expect(r.text).not.toContain('secret-store');
      const reference = r.headers['request-id'];
      expect(typeof reference).toBe('string');
      expect(JSON.parse(r.text)).toEqual({
        error: { code: 'internal_error', message: `Internal server error; it was logged under Request-Id ${String(reference)}.` },
      });
      const logged = lines.join('');
      expect(logged).toContain(SECRET);
      expect(logged).toContain(String(reference));
    } finally {
      await broken.close();
      await failing.close();
    }
  });
});
