/**
 * MCP over stdio (`ucp-location serve --stdio`): one SDK `Server` for the whole session.
 * stdout carries the protocol, so logs must go to stderr (see logging.ts).
 *
 * The SDK's stdio transport drops a line that is not JSON or not JSON-RPC after reporting it to
 * `onerror`; JSON-RPC 2.0 wants an answer (-32700 / -32600 with a null id), so we send one. Lines
 * over the HTTP body limits (size, nesting depth) never reach the SDK: JsonLineGate refuses them
 * with -32600, as /ucp/mcp does, and the session goes on. Batches and messages with extra
 * top-level members are answered as over HTTP (R-J1; stdio-batch.ts, jsonrpc.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { connectGuarded, createMcpServer } from './server.js';
import type { McpApp } from './server.js';
import { withoutExtraMembers } from './jsonrpc.js';
import { StdioBatches } from './stdio-batch.js';
import { JsonLineGate } from './stdio-lines.js';

export interface StdioSession {
  /** Resolves when the client closes stdin or `close()` is called. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

export interface StdioOptions {
  stdin?: Readable;
  stdout?: Writable;
  /** Longest accepted message line, bytes: the server's `maxBodyBytes`, as for an HTTP body. */
  maxLineBytes: number;
}

export async function serveStdio(app: McpApp, options: StdioOptions): Promise<StdioSession> {
  const stdin = options.stdin ?? process.stdin;
  // The session's id stands for a request id on every line it logs (one client, one session).
  const requestId = `stdio-${randomUUID()}`;
  const stdout = options.stdout ?? process.stdout;
  // A batch's answer is one array line, written beside the SDK's own lines (each write is a whole line).
  const batches = new StdioBatches((line) => void stdout.write(`${JSON.stringify(line)}\n`));
  const gate = new JsonLineGate(
    options.maxLineBytes,
    (refused) => {
      app.logger.warn({ requestId, reason: refused.reason }, 'stdio message refused before parsing');
      // id null: the id of a message that was not parsed cannot be known (JSON-RPC 2.0 §5).
      const reply = { jsonrpc: '2.0', id: null, error: { code: ErrorCode.InvalidRequest, message: `Invalid Request: ${refused.message}` } };
      transport.send(reply as unknown as JSONRPCMessage).catch(() => undefined);
    },
    // R-J1: batches answered with an array, extra top-level members tolerated, as over HTTP.
    (value) => (Array.isArray(value) ? batches.open(value) : routeSingle(value)),
  );
  stdin.pipe(gate);
  const transport = new StdioServerTransport(gate, stdout);
  const send = transport.send.bind(transport);
  transport.send = (message) => (batches.capture(message) ? Promise.resolve() : send(message));
  const server = createMcpServer(app, { requestId, clientIp: undefined });
  transport.onerror = (err) => {
    const code = err instanceof SyntaxError ? ErrorCode.ParseError : err.name === 'ZodError' ? ErrorCode.InvalidRequest : undefined;
    if (code === undefined) {
      app.logger.warn({ requestId, err }, 'stdio transport error');
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
  // The gate's end, not stdin's: it comes after the last line has passed the gate.
  gate.once('end', () => void server.close());
  await connectGuarded(server, transport);
  return { closed, close: () => server.close() };
}

/** A single message without the members JSON-RPC does not define; undefined when it has none. */
function routeSingle(value: unknown): readonly unknown[] | undefined {
  const plain = withoutExtraMembers(value);
  return plain === value ? undefined : [plain];
}
