/**
 * The bounded body reader over real HTTP on loopback: a server whose handler reads with the kit
 * and answers what it got, and a raw client that can send without Content-Length and keep sending
 * past the limit.
 */
import fc from 'fast-check';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAfterAnswer, readBody, readJsonBody } from './body.js';
import { writeJsonRpcError } from './json-rpc.js';
import { writeJson } from './respond.js';

const LIMIT = 1024;
let server: Server;
let port: number;

/** /raw answers the bytes read in hex; /json what readJsonBody made of them; /rpc a JSON-RPC refusal over the limit. */
async function handler(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.url === '/json') {
    const body = await readJsonBody(req, LIMIT);
    if (body.ok) writeJson(res, 200, { value: body.value, raw: body.raw.toString('hex') });
    else writeJson(res, body.status, { reason: body.reason, message: body.message });
    return;
  }
  const read = await readBody(req, LIMIT);
  if (read.ok) {
    writeJson(res, 200, { hex: read.bytes.toString('hex') });
    return;
  }
  closeAfterAnswer(res);
  if (req.url === '/rpc') writeJsonRpcError(res, read.status, read.prefix, { code: -32600, message: read.message });
  else writeJson(res, read.status, { message: read.message, prefix: read.prefix.length });
}

beforeAll(async () => {
  server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** POSTs `chunks` (chunked when `length` is undefined) and resolves with the answer. */
function post(
  path: string,
  chunks: readonly Buffer[],
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: IncomingMessage['headers']; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        const got: Buffer[] = [];
        res.on('data', (c: Buffer) => got.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            json: JSON.parse(Buffer.concat(got).toString('utf8')) as Record<string, unknown>,
          }),
        );
      },
    );
    // The answer may come while we still send: a reset after it is not the test's concern.
    req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe('readBody: bounded, and the bytes kept exactly as sent', () => {
  it('returns the very bytes sent, whatever they are, up to the limit (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 3 }), async (parts) => {
        const chunks = parts.map((p) => Buffer.from(p));
        const answer = await post('/raw', chunks);
        expect(answer.status).toBe(200);
        expect(answer.json['hex']).toBe(Buffer.concat(chunks).toString('hex'));
      }),
      { numRuns: 25 },
    );
  });

  it('keeps a JSON body’s raw bytes beside the value (a digest is computed over the bytes, not a re-serialisation)', async () => {
    const text = '{ "ids" : [ "a" ],\n  "n": 1.0 }';
    const answer = await post('/json', [Buffer.from(text)]);
    expect(answer.json).toEqual({ value: { ids: ['a'], n: 1 }, raw: Buffer.from(text).toString('hex') });
  });

  it('answers 413 naming the limit when a body without Content-Length grows past it, and the client reads the answer', async () => {
    const answer = await post('/raw', [Buffer.alloc(600, 0x20), Buffer.alloc(600, 0x20), Buffer.alloc(600, 0x20)]);
    expect(answer.status).toBe(413);
    expect(answer.headers.connection).toBe('close');
    expect(answer.json['message']).toBe(`The request body is larger than the limit of ${LIMIT} bytes; send a smaller request.`);
    expect(answer.json['prefix']).toBeGreaterThan(0);
  });

  it('answers 413 at once when Content-Length declares more than the limit', async () => {
    const body = Buffer.alloc(LIMIT + 1, 0x20);
    const answer = await post('/raw', [body], { 'content-length': String(body.length) });
    expect(answer.status).toBe(413);
    expect(answer.json['prefix']).toBe(0);
  });

  it('echoes the JSON-RPC id read from the first bytes of a body refused as too large (R-J1)', async () => {
    const text = `{"jsonrpc":"2.0","id":"req-7","method":"tools/call","params":{"pad":"${'x'.repeat(2 * LIMIT)}"}}`;
    const answer = await post('/rpc', [Buffer.from(text.slice(0, 500)), Buffer.from(text.slice(500))]);
    expect(answer.status).toBe(413);
    expect(answer.json).toMatchObject({ jsonrpc: '2.0', id: 'req-7', error: { code: -32600 } });
  });
});

describe('readJsonBody: media type, depth and syntax after the size', () => {
  it('refuses a body that is not application/json with 415', async () => {
    const answer = await post('/json', [Buffer.from('{}')], { 'content-type': 'text/plain' });
    expect(answer).toMatchObject({ status: 415, json: { reason: 'unsupported_media_type' } });
  });

  it('refuses nesting deeper than the limit before parsing, and bad syntax, with 400', async () => {
    const deep = await post('/json', [Buffer.from(`${'['.repeat(200)}${']'.repeat(200)}`)]);
    expect(deep).toMatchObject({ status: 400, json: { reason: 'nesting_too_deep' } });
    const bad = await post('/json', [Buffer.from('{"a":')]);
    expect(bad).toMatchObject({ status: 400, json: { reason: 'invalid_json' } });
  });
});
