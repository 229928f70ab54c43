/**
 * The business server without a socket: `startInProcessServer(options)` builds exactly what
 * `startServer(options)` builds (same options, runtime and node:http request listener), binds
 * nothing, and registers its origin with src/transport/test-support/in-process.ts, so that
 * `rawRequest`, `postJson` and the MCP SDK client (with `inProcessFetch`) reach it in-process.
 * `url` and `baseUrl` look like a loopback server's, so test bodies do not change.
 *
 * What stays on real sockets: the CLI, stdio, TLS, graceful shutdown, connection handling and Host
 * forging over the wire, and the Platform profile servers the business fetches.
 */
import { startServerInProcess } from '../../src/server.js';
import type { RunningServer, StartServerOptions } from '../../src/server.js';
import { registerInProcess } from '../../src/transport/test-support/in-process.js';

/**
 * The port written into an in-process server's URLs (its profile, its Host check). Each server
 * gets its own, counting down from the top of the range: the tests' real servers take ephemeral
 * ports from the kernel's lower range, and nothing connects to these anyway.
 */
let nextPort = 65_535;

export async function startInProcessServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const port = options.port === undefined || options.port === 0 ? nextPort-- : options.port;
  const { listener, ...server } = await startServerInProcess({ ...options, host: options.host ?? '127.0.0.1', port });
  const unregister = registerInProcess(new URL(server.url).origin, listener);
  return {
    ...server,
    close: async () => {
      unregister();
      await server.close();
    },
  };
}
