/**
 * `ucp-location console`: the operator console — the dataset on a map, a search playground, why a
 * Location matched or not, hours, and import with a preview — served on loopback by default.
 *
 * Exit status: 0 after a graceful stop (SIGINT/SIGTERM); 1 the store could not be opened or the
 * console failed; 2 usage error (bad option, missing token off loopback, port in use).
 */
import type { Command } from 'commander';
import { ConfigError, causeMessage } from '../../errors.js';
import { checkAccessSettings, TOKEN_ENV } from '../../console/access.js';
import { DEFAULT_CONSOLE_HOST, DEFAULT_CONSOLE_PORT, startConsole } from '../../console/server.js';
import type { LocationStore } from '../../store/store.js';
import { SqliteLocationStore } from '../../store/sqlite/index.js';
import { errorCodeOf } from '../../protocol/error-code.js';

const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

interface ConsoleCliOptions {
  db?: string;
  store?: string;
  host: string;
  port: string;
  token?: string;
  tileUrl?: string;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isSafeInteger(port) || port < 0 || port > 65_535)
    throw new ConfigError(`--port ${JSON.stringify(value)} must be a whole number from 0 to 65535`);
  return port;
}

async function openStore(where: string): Promise<LocationStore> {
  // A PostgreSQL store is loaded only when named, so SQLite users never load `pg`.
  if (/^postgres(ql)?:\/\//i.test(where)) return (await import('../../store/postgres/index.js')).PostgresLocationStore.open(where);
  return SqliteLocationStore.open(where);
}

export function registerConsoleCommand(program: Command): void {
  program
    .command('console')
    .description(
      'Open the operator console: the dataset on a map, a search playground, why a Location matched or not, hours, import preview',
    )
    .option('--db <file>', 'SQLite store made with `ucp-location import` (created when missing)')
    .option('--store <url>', 'a postgres:// URL (run `ucp-location migrate` first) or an SQLite file; same as --db')
    .option('--host <address>', 'address to listen on; anything but loopback needs a token', DEFAULT_CONSOLE_HOST)
    .option('--port <number>', 'port to listen on (0 = any free port)', String(DEFAULT_CONSOLE_PORT))
    .option('--token <secret>', `access token, required off loopback (default: $${TOKEN_ENV}); at least 16 characters`)
    .option(
      '--tile-url <template>',
      'online basemap tiles, e.g. https://tile.example.org/{z}/{x}/{y}.png (default: the offline world map only)',
    )
    .exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : EXIT_USAGE))
    .action(async (options: ConsoleCliOptions) => {
      let store: LocationStore | undefined;
      try {
        const where = options.store ?? options.db;
        if (where === undefined) throw new ConfigError('Name the data to open: --db <file> (SQLite) or --store <url> (postgres://…).');
        if (options.store !== undefined && options.db !== undefined) throw new ConfigError('Give either --db or --store, not both.');
        const port = parsePort(options.port);
        const given = options.token ?? process.env[TOKEN_ENV];
        const token = given === '' ? undefined : given;
        // Before the store is opened: a refused start must not create a database file.
        checkAccessSettings(options.host, token);
        store = await openStore(where);
        const running = await startConsole({
          store,
          host: options.host,
          port,
          ...(token !== undefined ? { token } : {}),
          ...(options.tileUrl !== undefined ? { tileUrl: options.tileUrl } : {}),
        });
        process.stdout.write(`UCP Location console at ${running.url}${token !== undefined ? ' (open it with ?token=<your token>)' : ''}\n`);
        const opened = store;
        const stop = (): void => {
          void running
            .close()
            .then(() => opened.close())
            .then(() => process.stdout.write('console stopped\n'));
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      } catch (error) {
        await store?.close().catch(() => undefined);
        const code = errorCodeOf(error);
        const usage = error instanceof ConfigError || code === 'EADDRINUSE' || code === 'EACCES';
        process.stderr.write(
          `ucp-location console: ${code === 'EADDRINUSE' ? `port ${options.port} is in use; pick another with --port (0 = any free port)` : causeMessage(error)}\n`,
        );
        process.exitCode = usage ? EXIT_USAGE : EXIT_FAILED;
      }
    });
}
