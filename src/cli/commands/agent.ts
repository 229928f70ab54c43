/**
 * `ucp-location agent`: the agent bridge, an MCP server that lets an LLM host find Locations
 * across UCP businesses (src/agent/). MCP over stdio by default — stdout then carries only MCP
 * frames, and everything else (start-up line, logs) goes to stderr — or Streamable HTTP with
 * `--http` on 127.0.0.1 unless `--host` says otherwise.
 *
 * The bridge is a UCP Platform: businesses fetch its Platform profile on every call. Either the
 * operator publishes one (`--platform-profile <https-url>`, made with `platform-profile init`), or,
 * for local development, `--serve-profile [file]` serves it on 127.0.0.1 (the generated default
 * profile when no file is given) — which implies `--allow-loopback`, exactly as for `search`.
 *
 * Exit status: 0 after the host hangs up or SIGINT/SIGTERM · 1 failure · 2 usage (bad flag,
 * config, URL).
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import {
  AGENT_TOKEN_ENV,
  AgentBridge,
  checkAgentAccess,
  loadAgentConfigFile,
  resolveSettings,
  serveAgentHttp,
  serveAgentStdio,
} from '../../agent/index.js';
import { dirname, resolve } from 'node:path';
import { buildPlatformProfile, loadSigningKeyFile, type PublicJwk } from '../../client/index.js';
import { ConfigError } from '../../errors.js';
import { createLogger, LOG_LEVELS } from '../../logging.js';
import { SafeFetchError, parseFetchUrl } from '../../protocol/safe-fetch.js';
import { caOption } from '../options.js';
import { isOneOf, isRecord } from '../../protocol/guards.js';
import { readProfileFile, serveProfileDocument, type ServedProfile } from './profile-server.js';

const EXIT_OK = 0;
const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

/** The environment variable naming the Platform profile URL when --platform-profile is absent (as for search). */
const PROFILE_ENV = 'UCP_PLATFORM_PROFILE';
export const DEFAULT_AGENT_PORT = 8765;

interface AgentCliOptions {
  business?: string[];
  config?: string;
  platformProfile?: string;
  serveProfile?: string | boolean;
  allowLoopback?: boolean;
  http?: boolean;
  host: string;
  port: string;
  ca?: string;
  token?: string;
  logLevel: string;
  signingKey?: string;
  requireBusinessSignatures?: boolean;
}

export function registerAgentCommand(program: Command): void {
  const collect = (value: string, previous: string[] = []): string[] => [...previous, value];
  program
    .command('agent')
    .description('run the agent bridge: an MCP server (stdio, or Streamable HTTP with --http) that finds Locations across UCP businesses')
    .option(
      '--business <url|name=url>',
      'a business to search (repeatable), e.g. https://stores.example or acme=https://stores.acme.example',
      collect,
    )
    .option(
      '--config <file>',
      'JSON file with "businesses" [{name, url, timeoutMs, transport}], "timeoutMs", "maxMatchesPerBusiness" (docs/agent.md)',
    )
    .option('--platform-profile <url>', `https URL of the platform profile you publish; businesses fetch it (default: $${PROFILE_ENV})`)
    .option(
      '--serve-profile [file]',
      'serve this platform profile (default: a generated one) on 127.0.0.1 for local development; implies --allow-loopback',
    )
    .option('--allow-loopback', 'local development: admit http://127.0.0.1 businesses and profiles')
    .option('--http', 'serve MCP over Streamable HTTP instead of stdio')
    .option('--host <address>', 'with --http: address to listen on', '127.0.0.1')
    .option('--port <number>', 'with --http: port to listen on (0 = any free port)', String(DEFAULT_AGENT_PORT))
    .option(
      '--token <secret>',
      `with --http: require "Authorization: Bearer <secret>" on every request (default: $${AGENT_TOKEN_ENV}; required off loopback)`,
    )
    .option('--ca <file>', 'PEM CA certificate(s) to trust instead of the system roots')
    .option(
      '--signing-key <file>',
      'sign every request to a business with this private JWK (or JWK Set) file (config "signingKey"); --serve-profile then lists its public part in keys[]',
    )
    .option(
      '--require-business-signatures',
      'refuse answers of businesses that are not signed with a key their profile publishes (config "requireBusinessSignatures")',
    )
    .option('--log-level <level>', `log level on stderr (${LOG_LEVELS.join(', ')})`, 'info')
    .action(async (options: AgentCliOptions) => {
      process.exitCode = await runAgent(options);
    });
}

async function runAgent(options: AgentCliOptions): Promise<number> {
  let served: ServedProfile | undefined;
  let bridge: AgentBridge | undefined;
  try {
    const logLevel = options.logLevel;
    if (!isOneOf(LOG_LEVELS, logLevel)) {
      throw new ConfigError(`--log-level must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(logLevel)}`);
    }
    const port = Number(options.port);
    if (!/^\d+$/.test(options.port) || port > 65_535)
      throw new ConfigError(`--port must be an integer from 0 to 65535, got ${JSON.stringify(options.port)}`);
    if (options.http !== true && (options.host !== '127.0.0.1' || options.port !== String(DEFAULT_AGENT_PORT))) {
      throw new ConfigError('--host and --port apply to --http; over stdio the host talks to this process directly');
    }
    const envToken = process.env[AGENT_TOKEN_ENV];
    const token = options.token ?? (envToken !== undefined && envToken !== '' ? envToken : undefined);
    if (options.http !== true && options.token !== undefined) {
      throw new ConfigError('--token applies to --http; over stdio only the host that started this process talks to it');
    }
    // Before any business or profile work: a missing token off loopback is a usage error (#37 N12).
    if (options.http === true) checkAgentAccess(options.host, token);
    const serving = options.serveProfile !== undefined && options.serveProfile !== false;
    if (serving && options.platformProfile !== undefined) {
      throw new ConfigError('--serve-profile and --platform-profile both name the platform profile; give one');
    }
    const allowLoopback = options.allowLoopback === true || serving;
    const file = options.config === undefined ? undefined : await loadAgentConfigFile(options.config);
    const settings = resolveSettings(options.business ?? [], file, { allowLoopback });
    const ca = caOption(options.ca);
    const logger = createLogger({ level: logLevel, destination: 'stderr' });
    // The flag wins over the config file, whose path is read relative to the file itself.
    const keyPath =
      options.signingKey ??
      (file?.signingKey === undefined || options.config === undefined ? undefined : resolve(dirname(options.config), file.signingKey));
    const keys = keyPath === undefined ? undefined : await loadSigningKeyFile(keyPath);
    const requireBusinessSignatures = options.requireBusinessSignatures === true || file?.requireBusinessSignatures === true;

    let platformProfileUrl: string;
    let platformProfile: unknown;
    if (serving) {
      const document = typeof options.serveProfile === 'string' ? await readProfileFile(options.serveProfile) : buildPlatformProfile();
      served = await serveProfileDocument(keys === undefined ? document : withPublishedKeys(document, keys.published));
      platformProfileUrl = served.url;
      platformProfile = served.document;
    } else {
      platformProfileUrl = platformProfileUrlOf(options.platformProfile, allowLoopback);
    }

    bridge = new AgentBridge({
      settings,
      logger,
      platformProfileUrl,
      ...(platformProfile !== undefined ? { platformProfile } : {}),
      allowLoopback,
      ...(ca !== undefined ? { ca } : {}),
      ...(keys !== undefined ? { signingKey: keys.signing } : {}),
      ...(requireBusinessSignatures ? { requireBusinessSignatures } : {}),
      serverVersion: packageVersion(),
    });
    const names = settings.businesses.map((b) => b.name).join(', ');
    const profileNote = served === undefined ? platformProfileUrl : `${platformProfileUrl} (served on loopback for local development)`;
    const intro = `ucp-location agent: ${settings.businesses.length} business${settings.businesses.length === 1 ? '' : 'es'} (${names}); platform profile ${profileNote}`;

    if (options.http === true) {
      const http = await serveAgentHttp(bridge, { host: options.host, port, logger, token });
      const auth = token === undefined ? '' : ' (requests need "Authorization: Bearer <token>")';
      process.stderr.write(`${intro}\nucp-location agent: MCP over Streamable HTTP at ${http.url}${auth}\n`);
      await waitForSignal();
      await http.close();
    } else {
      const session = await serveAgentStdio(bridge);
      process.stderr.write(`${intro}\nucp-location agent: MCP over stdio (stdout carries only MCP messages; logs go here)\n`);
      await Promise.race([session.closed, waitForSignal()]);
      await session.close();
    }
    return EXIT_OK;
  } catch (error) {
    const usage = error instanceof ConfigError;
    process.stderr.write(`ucp-location agent: ${error instanceof Error ? error.message : String(error)}\n`);
    if (!usage && error instanceof Error && error.stack !== undefined) process.stderr.write(`${error.stack}\n`);
    return usage ? EXIT_USAGE : EXIT_FAILED;
  } finally {
    await bridge?.close();
    await served?.close();
  }
}

/**
 * The served profile with the signing key's public parts in `keys[]` (R-SIG1), so businesses can
 * verify the bridge's signatures; keys the document already lists (by kid) are kept as they are.
 */
function withPublishedKeys(document: unknown, published: readonly PublicJwk[]): unknown {
  if (!isRecord(document)) return document;
  const given = document['keys'];
  const listed: unknown[] = [];
  if (Array.isArray(given)) for (const key of given) listed.push(key);
  const kids = new Set(listed.map((k) => (isRecord(k) ? k['kid'] : undefined)));
  return { ...document, keys: [...listed, ...published.filter((k) => !kids.has(k.kid))] };
}

function platformProfileUrlOf(given: string | undefined, allowLoopback: boolean): string {
  const fromEnv = process.env[PROFILE_ENV]?.trim();
  const url = given ?? (fromEnv !== undefined && fromEnv !== '' ? fromEnv : undefined);
  if (url === undefined) {
    throw new ConfigError(
      `name the platform profile businesses will fetch: --platform-profile <https-url> (publish one made with "ucp-location platform-profile init"; or $${PROFILE_ENV}), or --serve-profile [file] for local development against businesses on this machine`,
    );
  }
  try {
    parseFetchUrl(url, allowLoopback);
  } catch (error) {
    if (error instanceof SafeFetchError) {
      throw new ConfigError(`--platform-profile: ${error.message}. Businesses fetch it, so it must be an https URL they can reach.`, {
        cause: error,
      });
    }
    throw error;
  }
  return url;
}

function waitForSignal(): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
}

function packageVersion(): string {
  const pkg: unknown = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));
  const version = isRecord(pkg) ? pkg['version'] : undefined;
  return typeof version === 'string' ? version : '0.0.0';
}
