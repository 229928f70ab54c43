/**
 * Platform verbs: `discover`, `search`, `lookup` (talking to a Business through the Platform SDK)
 * and `platform-profile init` (writing a profile to publish).
 *
 * Exit statuses (docs/platform.md): 0 ok · 1 unexpected failure · 2 usage (bad option, unusable
 * URL typed by the user, request the schema refuses) · 3 discovery (a profile, schema or endpoint
 * could not be fetched: unreachable, redirect, special-use address) · 4 profile invalid or
 * authority binding failed · 5 no common version · 6 capabilities incompatible or no usable
 * transport · 7 the Business answered with an error · 8 the Business's response failed validation.
 *
 * Human output goes to stdout as tables; `--json` prints the raw UCP payloads instead. Errors go to
 * stderr (and, with --json, as one JSON object on stdout too).
 */
import { rm, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { ConfigError } from '../../errors.js';
import { InvalidInstantError } from '../../errors.js';
import { validateProfile } from '../../protocol/profile.js';
import { writeNewSigningKeyFile } from '../../protocol/signatures/index.js';
import { UCP_VERSION } from '../../protocol/types.js';
import {
  AnswerSignatureError,
  BusinessError,
  DiscoveryError,
  ProfileError,
  RequestValidationError,
  ResponseValidationError,
  UcpClientError,
  UcpLocationClient,
  buildPlatformProfile,
  loadSigningKeyFile,
  type DiscoverOptions,
  type NegotiatedState,
  type TransportPreference,
} from '../../client/index.js';
import type { LookupResponse, SearchResponse } from '../../domain/requests.js';
import { renderLocations, renderTable } from '../format.js';
import { caOption, timeoutOption } from '../options.js';
import { buildRefinements, buildSearchRequest, type RefinementOptions, type SearchOptionsInput } from './platform-options.js';
import { serveProfileFile, type ServedProfile } from './profile-server.js';
import { errorCodeOf } from '../../protocol/error-code.js';

export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  discovery: 3,
  profile: 4,
  version: 5,
  incompatible: 6,
  business: 7,
  invalidResponse: 8,
} as const;

/** The environment variable naming the Platform profile URL when --platform-profile is absent. */
export const PROFILE_ENV = 'UCP_PLATFORM_PROFILE';

/** Exit status for an error thrown by a platform verb. */
export function exitStatusOf(error: unknown): number {
  if (error instanceof ConfigError || error instanceof InvalidInstantError) return EXIT.usage;
  if (!(error instanceof UcpClientError)) return EXIT.failure;
  switch (error.code) {
    case 'request_invalid':
      return EXIT.usage;
    case 'invalid_url':
      // A URL the user typed is a usage error; one taken from a profile is a discovery failure.
      return error instanceof DiscoveryError && (error.subject === 'business_profile' || error.subject === 'platform_profile')
        ? EXIT.usage
        : EXIT.discovery;
    case 'address_refused':
    case 'redirect_refused':
    case 'unreachable':
    case 'schema_unavailable':
      return EXIT.discovery;
    case 'profile_malformed':
    case 'binding_failed':
    case 'leaf_profile_invalid':
      return EXIT.profile;
    case 'version_unsupported':
      return EXIT.version;
    case 'capabilities_incompatible':
    case 'transport_unavailable':
      return EXIT.incompatible;
    case 'business_error':
      return EXIT.business;
    case 'response_invalid':
    case 'answer_signature_failed':
      return EXIT.invalidResponse;
  }
}

interface ConnectionOptions {
  platformProfile?: string;
  serveProfile?: string;
  allowLoopback?: boolean;
  transport?: string;
  ca?: string;
  timeout?: string;
  json?: boolean;
  signingKey?: string;
  requireBusinessSignatures?: boolean;
}

type SearchCliOptions = ConnectionOptions & SearchOptionsInput & { all?: boolean };
type LookupCliOptions = ConnectionOptions & RefinementOptions;

function print(text: string): void {
  process.stdout.write(`${text}\n`);
}

function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Runs a verb body; turns errors into a message on stderr and the exit status of their class. */
async function run(verb: string, json: boolean, body: () => Promise<number>): Promise<void> {
  try {
    process.exitCode = await body();
  } catch (error) {
    const status = exitStatusOf(error);
    const message = error instanceof Error ? error.message : String(error);
    const hint = hintFor(error);
    if (json) printJson({ ok: false, error: errorJson(error, status) });
    process.stderr.write(`ucp-location ${verb}: ${message}${hint === undefined ? '' : `\n  hint: ${hint}`}\n`);
    if (status === EXIT.failure && error instanceof Error && error.stack !== undefined) process.stderr.write(`${error.stack}\n`);
    process.exitCode = status;
  }
}

function errorJson(error: unknown, exitStatus: number): Record<string, unknown> {
  const out: Record<string, unknown> = { exitStatus, message: error instanceof Error ? error.message : String(error) };
  if (error instanceof UcpClientError) out['code'] = error.code;
  else if (error instanceof ConfigError) out['code'] = 'usage';
  if (error instanceof RequestValidationError || error instanceof ResponseValidationError) {
    out['pointer'] = error.pointer;
    out['issues'] = error.issues;
  }
  if (error instanceof ProfileError) {
    out['issues'] = error.issues;
    out['rejected'] = error.rejected;
  }
  if (error instanceof BusinessError) out['business'] = error.details;
  if (error instanceof AnswerSignatureError) {
    out['reason'] = error.reason;
    out['businessProfileUrl'] = error.businessProfileUrl;
  }
  return out;
}

/** What to do about each signature refusal of a Business (the draft's codes). */
const SIGNATURE_HINTS: Readonly<Record<string, string>> = {
  signature_missing:
    'the business requires signed requests: pass --signing-key <file> (create a key with "ucp-location platform-profile init --key-out <file>")',
  key_not_found:
    "publish the signing key's public part in the keys[] of the platform profile the business fetches, or sign with a key listed there",
  signature_invalid:
    'the signature did not verify: check that the key file matches the key your profile publishes, and that nothing rewrites requests on the way',
  digest_mismatch:
    'something between this command and the business changed the request body after it was signed (a proxy re-serialising JSON?)',
  algorithm_unsupported: 'the business cannot verify this key type; sign with an ES256 (EC P-256) key',
};

function hintFor(error: unknown): string | undefined {
  if (error instanceof BusinessError && error.details.ucpCode !== undefined && SIGNATURE_HINTS[error.details.ucpCode] !== undefined) {
    return SIGNATURE_HINTS[error.details.ucpCode];
  }
  if (error instanceof BusinessError && error.details.ucpCode === 'invalid_profile_url') {
    return 'the business refused the platform profile URL; with --serve-profile, start the business with --allow-loopback-profiles';
  }
  if (
    error instanceof BusinessError &&
    (error.details.ucpCode === 'profile_unreachable' || error.details.ucpCode === 'profile_malformed')
  ) {
    return 'the business could not use the platform profile; check that it is published at the URL given with --platform-profile';
  }
  return undefined;
}

function transportOf(value: string | undefined): TransportPreference {
  if (value === undefined || value === 'auto') return 'auto';
  if (value === 'mcp' || value === 'rest') return value;
  throw new ConfigError(`--transport ${JSON.stringify(value)} is not one of mcp, rest, auto`);
}

/** Discovers the Business with the connection options of a verb, runs `body`, cleans up. */
async function withClient(
  businessUrl: string,
  options: ConnectionOptions,
  body: (client: UcpLocationClient) => Promise<number>,
): Promise<number> {
  const transport = transportOf(options.transport);
  const timeoutMs = timeoutOption(options.timeout);
  const ca = caOption(options.ca);
  let served: ServedProfile | undefined;
  if (options.serveProfile !== undefined && options.platformProfile !== undefined) {
    throw new ConfigError('--serve-profile and --platform-profile both name the platform profile; give one');
  }
  try {
    let platformProfileUrl: string;
    let platformProfile: unknown;
    if (options.serveProfile !== undefined) {
      served = await serveProfileFile(options.serveProfile);
      platformProfileUrl = served.url;
      platformProfile = served.document;
    } else {
      const fromEnv = process.env[PROFILE_ENV];
      const url = options.platformProfile ?? (fromEnv !== undefined && fromEnv.trim() !== '' ? fromEnv.trim() : undefined);
      if (url === undefined) {
        throw new ConfigError(
          `name the platform profile the business will fetch: --platform-profile <https-url> (or ${PROFILE_ENV}), or --serve-profile <file> for local work (create one with "ucp-location platform-profile init")`,
        );
      }
      platformProfileUrl = url;
    }
    const signingKey = options.signingKey === undefined ? undefined : (await loadSigningKeyFile(options.signingKey)).signing;
    const discoverOptions: DiscoverOptions = {
      platformProfileUrl,
      ...(signingKey !== undefined ? { signingKey } : {}),
      ...(options.requireBusinessSignatures === true ? { requireBusinessSignatures: true } : {}),
      ...(platformProfile !== undefined ? { platformProfile } : {}),
      // --serve-profile publishes on loopback, which only a local business can reach: local development.
      fetch: {
        allowLoopback: options.allowLoopback === true || served !== undefined,
        ...(ca !== undefined ? { ca } : {}),
        ...(timeoutMs !== undefined ? { totalTimeoutMs: timeoutMs } : {}),
      },
      transport,
      ...(timeoutMs !== undefined ? { callTimeoutMs: timeoutMs } : {}),
    };
    const client = await UcpLocationClient.discover(businessUrl, discoverOptions);
    try {
      return await body(client);
    } finally {
      await client.close();
    }
  } finally {
    await served?.close();
  }
}

function connectionOptions(cmd: Command): Command {
  return cmd
    .option('--platform-profile <url>', `URL of your platform profile, which the business fetches (default: $${PROFILE_ENV})`)
    .option(
      '--serve-profile <file>',
      'serve this platform profile file on 127.0.0.1 for the command (local development; implies --allow-loopback)',
    )
    .option('--allow-loopback', 'allow a business on this machine over plain http (local development only)')
    .option('--transport <mcp|rest|auto>', 'binding to use (default auto: MCP when offered, else REST)')
    .option('--ca <file>', 'PEM CA certificate(s) to trust instead of the system roots')
    .option('--timeout <ms>', 'deadline for each fetch and call, milliseconds')
    .option(
      '--signing-key <file>',
      "sign every request with this private JWK (or JWK Set) file; its public part must be in your platform profile's keys[]",
    )
    .option('--require-business-signatures', "refuse the business's answers unless they carry a valid signature (it must publish keys[])")
    .option('--json', 'print the raw UCP payloads as JSON');
}

function refinementOptions(cmd: Command): Command {
  const collect = (value: string, previous: string[] = []): string[] => [...previous, value];
  return cmd
    .option('--near <lat,lon>', 'center for a radius search (WGS 84 degrees, latitude first)')
    .option('--radius <distance>', 'radius around --near: 800m, 5km, 2mi (default 5km)')
    .option('--serves-point <lat,lon>', 'only Locations that can serve this point')
    .option('--serves-postal <CC:code>', 'only Locations that serve this postal code, e.g. US:94043')
    .option('--serves-region <CC:region>', 'only Locations that serve this region, e.g. US:CA')
    .option('--serves-country <CC>', 'only Locations that serve this country, e.g. US')
    .option('--open-at <now|RFC3339>', 'only Locations open at this instant')
    .option('--amenity <id>', 'required amenity (repeatable), e.g. dev.ucp.amenity.parking', collect)
    .option('--item <id>', 'item that must be available (repeatable)', collect);
}

/** Commander's own usage errors exit with 2; help and --version with 0. */
function usageExits(cmd: Command): Command {
  return cmd.exitOverride((err) => process.exit(err.exitCode === 0 ? EXIT.ok : EXIT.usage));
}

export function registerPlatformCommands(program: Command): void {
  const discoverCmd = connectionOptions(
    program
      .command('discover')
      .description(
        "fetch a business's UCP profile, check every entity's authority binding and negotiate version, capabilities and transport",
      )
      .argument('<business-url>', 'the business origin, e.g. https://shop.example'),
  );
  usageExits(discoverCmd).action(async (businessUrl: string, options: ConnectionOptions) => {
    await run('discover', options.json === true, () =>
      withClient(businessUrl, options, async (client) => {
        if (options.json === true) printJson({ ok: true, businessProfile: client.businessProfile, negotiated: client.negotiated });
        else print(renderDiscovery(client.negotiated));
        return EXIT.ok;
      }),
    );
  });

  const searchCmd = refinementOptions(
    connectionOptions(
      program
        .command('search')
        .description('search a business for Locations (text, radius, serves target, filters)')
        .argument('<business-url>', 'the business origin, e.g. https://shop.example')
        .option('--query <text>', 'free text (narrows and ranks; never relaxes a filter)')
        .option('--limit <n>', 'page size to ask for')
        .option('--cursor <token>', 'continue from a cursor printed by a previous page')
        .option('--all', 'follow cursors and print every page'),
    ),
  );
  usageExits(searchCmd).action(async (businessUrl: string, options: SearchCliOptions) => {
    await run('search', options.json === true, async () => {
      const now = new Date();
      const built = buildSearchRequest(options, now);
      return withClient(businessUrl, options, async (client) => {
        const limitOpt = built.limit === undefined ? {} : { limit: built.limit };
        const pages: SearchResponse[] = [];
        if (options.all === true) {
          for await (const page of client.searchAll(built.request, limitOpt)) pages.push(page);
        } else {
          pages.push(await client.search(built.request, limitOpt));
        }
        if (options.json === true) {
          printJson(options.all === true ? pages : pages[0]);
          return EXIT.ok;
        }
        const locations = pages.flatMap((p) => p.locations);
        const at = atOf(built.request.filters?.hours?.open_at, now);
        if (locations.length === 0) print('No matching locations.');
        else
          print(
            renderLocations(locations, { atMs: at.ms, hoursHeader: at.header, center: built.center, unit: built.radius?.unit ?? 'km' }),
          );
        const last = pages[pages.length - 1];
        print(
          footer(
            locations.length,
            pages.flatMap((p) => p.messages ?? []),
            last,
          ),
        );
        return EXIT.ok;
      });
    });
  });

  const lookupCmd = refinementOptions(
    connectionOptions(
      program
        .command('lookup')
        .description('look up Locations by id (split into batches within the business limit), optionally refined')
        .argument('<business-url>', 'the business origin, e.g. https://shop.example')
        .argument('<ids...>', 'Location ids (canonical or alias)'),
    ),
  );
  usageExits(lookupCmd).action(async (businessUrl: string, ids: string[], options: LookupCliOptions) => {
    await run('lookup', options.json === true, async () => {
      const now = new Date();
      const refinements = buildRefinements(options, now);
      return withClient(businessUrl, options, async (client) => {
        const response: LookupResponse = await client.lookup(ids, refinements.request);
        if (options.json === true) {
          printJson(response);
          return EXIT.ok;
        }
        const at = atOf(refinements.request.filters?.hours?.open_at, now);
        if (response.locations.length === 0) print('No matching locations.');
        else {
          print(
            renderLocations(response.locations, {
              atMs: at.ms,
              hoursHeader: at.header,
              center: refinements.center,
              unit: refinements.radius?.unit ?? 'km',
              showInputs: true,
            }),
          );
        }
        const found = new Set(response.locations.flatMap((l) => l.inputs.map((i) => i.id)));
        const missing = [...new Set(ids)].filter((id) => !found.has(id));
        print(footer(response.locations.length, response.messages ?? [], undefined));
        if (missing.length > 0) print(`Not returned (unknown, private or filtered out): ${missing.join(', ')}`);
        return EXIT.ok;
      });
    });
  });

  const profileCmd = program.command('platform-profile').description('platform profile helpers');
  const initCmd = profileCmd
    .command('init')
    .description('write a valid platform profile (search + lookup over MCP and REST) to publish at an https URL')
    .option('--out <file>', 'write to this file instead of stdout')
    .option('--base-url <url>', 'https origin where you will publish it (printed as the URL to use)')
    .option('--transport <list>', 'transports to declare: mcp,rest (default both)')
    .option(
      '--key-out <file>',
      'also make a private ES256 signing key (JWK, kid = its RFC 7638 thumbprint) in this new file and list its public part in the profile keys[]; sign with --signing-key <file>',
    );
  usageExits(initCmd).action(async (options: { out?: string; baseUrl?: string; transport?: string; keyOut?: string }) => {
    await run('platform-profile init', false, async () => {
      const publishUrl = options.baseUrl === undefined ? undefined : profileUrlFor(options.baseUrl);
      const transports = parseTransportList(options.transport);
      if (options.keyOut !== undefined && options.out !== undefined && resolve(options.keyOut) === resolve(options.out)) {
        throw new ConfigError('--key-out and --out name the same file; the private key and the profile you publish must be two files.');
      }
      // The key is written first (never over an existing file), so the profile names a key that exists.
      const published = options.keyOut === undefined ? undefined : await writeNewSigningKeyFile(options.keyOut);
      const profile = { ...buildPlatformProfile({ transports }), ...(published === undefined ? {} : { keys: [published] }) };
      // Never hand out a profile our own validator would refuse.
      const check = validateProfile(profile, 'platform');
      if (!check.ok || check.rejected.length > 0) throw new Error('internal error: the generated platform profile does not validate');
      const text = `${JSON.stringify(profile, null, 2)}\n`;
      if (options.out === undefined) {
        process.stdout.write(text);
      } else {
        try {
          await writeFile(options.out, text, { flag: 'wx' });
        } catch (cause) {
          // Nothing half-made: a key whose profile could not be written is removed again.
          if (options.keyOut !== undefined) await rm(options.keyOut, { force: true });
          const code = errorCodeOf(cause);
          throw new ConfigError(
            `--out: cannot write ${options.out} (${code === 'EEXIST' ? 'the file exists; remove it or choose another name' : code || String(cause)})`,
            { cause },
          );
        }
        process.stderr.write(`Wrote a UCP ${UCP_VERSION} platform profile to ${options.out}.\n`);
      }
      if (published !== undefined) {
        process.stderr.write(
          `Wrote a private ES256 signing key (kid ${published.kid}) to ${options.keyOut ?? ''}; keep it secret. Its public part is in the profile's keys[]. Sign with --signing-key ${options.keyOut ?? ''}.\n`,
        );
      }
      const where = publishUrl ?? 'https://<your-host>/.well-known/ucp-platform.json';
      process.stderr.write(
        `Publish it at ${where} with Cache-Control: public, max-age=300 and an ETag, then run:\n  ucp-location search <business-url> --platform-profile ${where}\n` +
          `For local work against a business started with --allow-loopback-profiles: --serve-profile ${options.out ?? '<file>'}\n` +
          `To let MCP hosts call your own business with it, unpublished: ucp-location serve --db <store.db> --trust-platform-profile ${options.out ?? '<file>'}\n`,
      );
      return EXIT.ok;
    });
  });
}

function profileUrlFor(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ConfigError(`--base-url ${JSON.stringify(baseUrl)} is not an absolute URL; e.g. https://platform.example`);
  }
  if (url.protocol !== 'https:')
    throw new ConfigError(`--base-url must use https (businesses fetch platform profiles over https only), got ${url.protocol}`);
  if (url.username !== '' || url.password !== '') throw new ConfigError('--base-url must not contain credentials');
  return new URL('/.well-known/ucp-platform.json', url.origin).href;
}

function parseTransportList(value: string | undefined): ('mcp' | 'rest')[] {
  if (value === undefined) return ['mcp', 'rest'];
  const list = value
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter((v) => v !== '');
  const bad = list.filter((v) => v !== 'mcp' && v !== 'rest');
  if (list.length === 0 || bad.length > 0)
    throw new ConfigError(`--transport ${JSON.stringify(value)}: expected a comma-separated list of mcp and rest`);
  return [...new Set(list)].filter((v): v is 'mcp' | 'rest' => v === 'mcp' || v === 'rest');
}

function atOf(openAt: string | undefined, now: Date): { ms: number; header: string } {
  if (openAt === undefined) return { ms: now.getTime(), header: 'NOW' };
  return { ms: Date.parse(openAt), header: `AT ${openAt}` };
}

function footer(
  count: number,
  messages: readonly { type: string; code?: string; content: string }[],
  last: SearchResponse | undefined,
): string {
  const lines = [`${count} location(s).`];
  if (last?.pagination?.has_next_page === true && last.pagination.cursor !== undefined) {
    lines.push(`More results: add --cursor ${last.pagination.cursor} (or use --all).`);
  }
  for (const m of messages) lines.push(`${m.type}${m.code === undefined ? '' : ` [${m.code}]`}: ${m.content}`);
  return lines.join('\n');
}

/** The discover report: profile, entity binding verdicts, negotiated version, capabilities, transports. */
export function renderDiscovery(n: NegotiatedState): string {
  const out: string[] = [];
  out.push(`Business profile   ${n.businessProfileUrl}`);
  out.push(`Platform profile   ${n.platformProfileUrl}`);
  out.push(`Business releases  ${n.businessVersions.join(', ')}`);
  out.push(`Negotiated version ${n.version}${n.leafProfileUrl === undefined ? '' : ` (through ${n.leafProfileUrl})`}`);
  out.push('', 'Entities (authority binding of each schema URL)');
  out.push(
    renderTable(
      [
        { header: 'SOURCE' },
        { header: 'REGISTRY' },
        { header: 'NAME', maxWidth: 48 },
        { header: 'VERSION' },
        { header: 'BINDING', maxWidth: 70 },
        { header: 'STATUS', maxWidth: 70 },
      ],
      n.entities.map((e) => [
        e.source,
        e.registry,
        e.transport === undefined ? e.name : `${e.name} (${e.transport})`,
        e.version ?? '—',
        e.binding === null ? 'no schema' : e.binding.ok ? `ok (${e.binding.kind})` : `FAILED: ${e.binding.reason}`,
        e.accepted ? 'accepted' : `REJECTED: ${e.rejection ?? ''}`,
      ]),
    ),
  );
  out.push('', 'Capabilities');
  const rows = [
    ...Object.entries(n.capabilities).map(([name, entity]) => [name, entity.version, 'active']),
    ...n.dropped.map((d) => [d.name, '—', `dropped: ${d.detail}`]),
  ];
  out.push(renderTable([{ header: 'NAME', maxWidth: 40 }, { header: 'VERSION' }, { header: 'STATUS', maxWidth: 90 }], rows));
  out.push('', 'Transports');
  out.push(
    renderTable(
      [{ header: 'TRANSPORT' }, { header: 'ENDPOINT', maxWidth: 80 }, { header: 'STATUS' }],
      n.transports.map((t) => [t.transport, t.endpoint, t.transport === n.transport ? 'in use' : 'available']),
    ),
  );
  if (n.transportNote !== undefined) out.push(`note: ${n.transportNote}`);
  return out.join('\n');
}
