/**
 * A real HTTP or HTTPS server on a loopback interface for tests, with per-path
 * handlers and counters of TCP connections and requests, so a test can prove
 * that a refused fetch never reached it.
 */
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import type { TestLeaf } from './tls.js';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface RecordedRequest {
  path: string;
  headers: IncomingMessage['headers'];
}

export interface TestServer {
  port: number;
  /** `https://<host>:<port>` (or http), for a host name the test maps to this server. */
  origin(host: string): string;
  /** TCP connections accepted so far. */
  readonly connections: number;
  readonly requests: readonly RecordedRequest[];
  /** Replaces the handler for `path` (exact match on the request target's path). */
  route(path: string, handler: Handler): void;
  close(): Promise<void>;
}

export async function startTestServer(options: { tls?: TestLeaf; listenHost?: string } = {}): Promise<TestServer> {
  const routes = new Map<string, Handler>();
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;

  const dispatch = (req: IncomingMessage, res: ServerResponse): void => {
    const path = new URL(req.url ?? '/', 'http://placeholder').pathname;
    requests.push({ path, headers: req.headers });
    const handler = routes.get(path);
    if (handler) handler(req, res);
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('no route');
  };
  const server: Server = options.tls
    ? createHttpsServer({ key: options.tls.key, cert: options.tls.cert }, dispatch)
    : createHttpServer(dispatch);
  server.on('connection', (socket: Socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // A client that aborts mid-handshake is expected in these tests; keep it from surfacing as an error.
  server.on('tlsClientError', () => undefined);

  const listenHost = options.listenHost ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(0, listenHost, resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('test server has no TCP address');
  const scheme = options.tls ? 'https' : 'http';

  return {
    port: address.port,
    origin: (host) => `${scheme}://${host}:${address.port}`,
    get connections() {
      return connections;
    },
    requests,
    route: (path, handler) => void routes.set(path, handler),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Handler answering JSON with the given status and headers. */
export function json(body: unknown, headers: Record<string, string> = {}, status = 200): Handler {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  };
}
