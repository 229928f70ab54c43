/**
 * MCP over stdio (`ucp-location serve --stdio`): one SDK `Server` for the whole session.
 * stdout carries the protocol, so logs must go to stderr (see logging.ts).
 *
 * The SDK's stdio transport drops a line that is not JSON or not JSON-RPC after reporting it to
 * `onerror`; JSON-RPC 2.0 wants an answer (-32700 / -32600 with a null id), so we send one.
 */
import { randomUUID } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { connectGuarded, createMcpServer } from './server.js';
import type { McpApp } from './server.js';

export interface StdioSession {
  /** Resolves when the client closes stdin or `close()` is called. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

export async function serveStdio(app: McpApp, streams: { stdin?: Readable; stdout?: Writable } = {}): Promise<StdioSession> {
  const stdin = streams.stdin ?? process.stdin;
  const transport = new StdioServerTransport(stdin, streams.stdout ?? process.stdout);
  const server = createMcpServer(app, { requestId: `stdio-${randomUUID()}`, clientIp: undefined });
  transport.onerror = (err) => {
    const code = err instanceof SyntaxError ? ErrorCode.ParseError : err.name === 'ZodError' ? ErrorCode.InvalidRequest : undefined;
    if (code === undefined) {
      app.logger.warn({ err }, 'stdio transport error');
      return;
    }
    const message =
      code === ErrorCode.ParseError
        ? 'Parse error: the line is not valid JSON.'
        : 'Invalid Request: the line is not a JSON-RPC 2.0 message.';
    // id null is what JSON-RPC 2.0 prescribes when the id cannot be read; the SDK type omits it.
    const reply = { jsonrpc: '2.0', id: null, error: { code, message } } as unknown as JSONRPCMessage;
    transport.send(reply).catch(() => undefined);
  };
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  server.onclose = () => resolveClosed();
  stdin.once('end', () => void server.close());
  await connectGuarded(server, transport);
  return { closed, close: () => server.close() };
}
