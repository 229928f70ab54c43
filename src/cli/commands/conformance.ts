/**
 * `ucp-location conformance <business-url>`: runs the black-box conformance suite against any UCP
 * Location Business and prints a report grouped by area (✓ pass, ✗ fail, – skip) with evidence
 * for every failure, or the report object with `--json`.
 *
 * Exit statuses (docs/conformance.md): 0 every check that ran passed · 1 at least one check
 * failed · 2 usage (bad option, unusable URL) · 3 the checker itself could not run.
 */
import type { Command } from 'commander';
import { loadSigningKeyFile, UcpClientError } from '../../client/index.js';
import {
  DEFAULT_RETRY_BUDGET_MS,
  MAX_WAIT_MS,
  formatReport,
  runConformance,
  type AliasHint,
  type ConformanceOptions,
  type TransportChoice,
} from '../../conformance/index.js';
import { ConfigError } from '../../errors.js';
import { caOption, timeoutOption } from '../options.js';
import { PROFILE_ENV } from './platform.js';

export const CONFORMANCE_EXIT = { conformant: 0, failed: 1, usage: 2, error: 3 } as const;

interface CliOptions {
  platformProfile?: string;
  serveProfile?: boolean;
  allowLoopback?: boolean;
  transport?: string;
  timeout?: string;
  only?: string[];
  privateId?: string[];
  alias?: string[];
  ca?: string;
  json?: boolean;
  probeRateLimit?: string | true;
  pace?: string;
  retryBudget?: string;
  signingKey?: string;
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

function transportOf(value: string | undefined): TransportChoice {
  if (value === undefined) return 'both';
  if (value === 'mcp' || value === 'rest' || value === 'both') return value;
  throw new ConfigError(`--transport ${JSON.stringify(value)} is not one of mcp, rest, both`);
}

function aliasOf(value: string): AliasHint {
  const at = value.lastIndexOf('=');
  if (at <= 0 || at === value.length - 1)
    throw new ConfigError(`--alias ${JSON.stringify(value)} must be <alias>=<canonical id>, e.g. --alias downtown-store=loc_downtown`);
  return { alias: value.slice(0, at), id: value.slice(at + 1) };
}

/** Command-line options → checker options, the signing key file read; ConfigError for anything unusable. */
export async function conformanceOptionsWithKey(businessUrl: string, options: CliOptions): Promise<ConformanceOptions> {
  const base = conformanceOptions(businessUrl, options);
  if (options.signingKey === undefined) return base;
  return { ...base, signingKey: await loadSigningKeyFile(options.signingKey) };
}

/** Command-line options → checker options; ConfigError for anything unusable. */
export function conformanceOptions(businessUrl: string, options: CliOptions, env: NodeJS.ProcessEnv = process.env): ConformanceOptions {
  if (options.serveProfile === true && options.platformProfile !== undefined) {
    throw new ConfigError('--serve-profile and --platform-profile both name the platform profile; give one');
  }
  const fromEnv = env[PROFILE_ENV]?.trim();
  const platformProfileUrl =
    options.platformProfile ?? (options.serveProfile === true || fromEnv === undefined || fromEnv === '' ? undefined : fromEnv);
  const timeoutMs = timeoutOption(options.timeout);
  const ca = caOption(options.ca);
  return {
    businessUrl,
    transport: transportOf(options.transport),
    // The served profile lives on 127.0.0.1, which only a Business on this machine can reach.
    allowLoopback: options.allowLoopback === true || options.serveProfile === true,
    ...(options.serveProfile === true ? { serveProfile: true } : {}),
    ...(platformProfileUrl === undefined ? {} : { platformProfileUrl }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(options.only === undefined ? {} : { only: options.only }),
    ...(options.privateId === undefined ? {} : { privateIds: options.privateId }),
    ...(options.alias === undefined ? {} : { aliases: options.alias.map(aliasOf) }),
    ...(ca === undefined ? {} : { ca }),
    ...(options.probeRateLimit === undefined ? {} : { rateLimitProbe: rateLimitProbeOption(options.probeRateLimit) }),
    ...(options.pace === undefined ? {} : { paceCallsPerSecond: paceOption(options.pace) }),
    ...(options.retryBudget === undefined ? {} : { retryBudgetMs: retryBudgetOption(options.retryBudget) * 1000 }),
  };
}

/** Searches per binding `--probe-rate-limit` sends at most when no number is given. */
export const DEFAULT_RATE_LIMIT_PROBE = 2000;

function rateLimitProbeOption(value: string | true): number {
  if (value === true) return DEFAULT_RATE_LIMIT_PROBE;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 100_000) {
    throw new ConfigError(
      `--probe-rate-limit ${JSON.stringify(value)} is not a number of calls from 1 to 100000; e.g. --probe-rate-limit 2000`,
    );
  }
  return n;
}

function paceOption(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0 || n > 10_000)
    throw new ConfigError(`--pace ${JSON.stringify(value)} is not a number of calls per second above 0 (up to 10000); e.g. --pace 5`);
  return n;
}

function retryBudgetOption(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 3600)
    throw new ConfigError(`--retry-budget ${JSON.stringify(value)} is not a number of seconds from 0 to 3600; e.g. --retry-budget 120`);
  return n;
}

export function registerConformanceCommand(program: Command): void {
  const cmd = program
    .command('conformance')
    .description('check a UCP Location business against the 2026-08-25 rules (black box, MCP and REST) and report per rule id')
    .argument('<business-url>', 'the business origin (or its /.well-known/ucp URL), e.g. https://shop.example')
    .option('--platform-profile <url>', `platform profile URL the business can fetch (default: $${PROFILE_ENV})`)
    .option('--serve-profile', 'serve platform profiles from 127.0.0.1 for the run (local development; implies --allow-loopback)')
    .option('--allow-loopback', 'allow a business on this machine over plain http (local development only)')
    .option('--transport <mcp|rest|both>', 'bindings to exercise (default both: each one the business advertises)')
    .option('--timeout <ms>', 'deadline for each request, milliseconds (default 10000)')
    .option('--only <rule-prefix>', 'run only rules with this id prefix, e.g. R-S, R-S4, R-D5 (repeatable, or comma-separated)', collect)
    .option('--private-id <id>', 'id or alias of a Location the business keeps private; it must never be returned (repeatable)', collect)
    .option('--alias <alias=id>', 'a lookup alias and the canonical id it must resolve to (repeatable)', collect)
    .option('--ca <file>', 'PEM CA certificate(s) to trust instead of the system roots')
    .option(
      '--signing-key <file>',
      "sign every request with this private JWK (or JWK Set) file, listed in the platform profile's keys[] (with --serve-profile and no key, the checker makes one for the run)",
    )
    .option(
      '--probe-rate-limit [calls]',
      `after every other check, send up to this many searches per binding (default ${DEFAULT_RATE_LIMIT_PROBE}) to provoke the rate limit and judge the 429 (R-G7); leaves this client throttled for a while`,
    )
    .option('--pace <calls-per-second>', 'send at most this many calls per second, to stay within a known rate limit (default: unpaced)')
    .option(
      '--retry-budget <seconds>',
      `total time to spend waiting out HTTP 429 refusals before sending the same call again (default ${DEFAULT_RETRY_BUDGET_MS / 1000}; each wait capped at ${MAX_WAIT_MS / 1000} s; 0 never retries)`,
    )
    .option('--json', 'print the report as JSON');
  cmd.exitOverride((err) => process.exit(err.exitCode === 0 ? CONFORMANCE_EXIT.conformant : CONFORMANCE_EXIT.usage));
  cmd.action(async (businessUrl: string, options: CliOptions) => {
    try {
      const report = await runConformance(await conformanceOptionsWithKey(businessUrl, options));
      process.stdout.write(`${options.json === true ? JSON.stringify(report, null, 2) : formatReport(report)}\n`);
      process.exitCode = report.ok ? CONFORMANCE_EXIT.conformant : CONFORMANCE_EXIT.failed;
    } catch (error) {
      const usage = error instanceof ConfigError || error instanceof UcpClientError;
      const message = error instanceof Error ? error.message : String(error);
      if (options.json === true) process.stdout.write(`${JSON.stringify({ ok: false, error: { message, usage } }, null, 2)}\n`);
      process.stderr.write(`ucp-location conformance: ${message}\n`);
      if (!usage && error instanceof Error && error.stack !== undefined) process.stderr.write(`${error.stack}\n`);
      process.exitCode = usage ? CONFORMANCE_EXIT.usage : CONFORMANCE_EXIT.error;
    }
  });
}
