/**
 * The tenants of a provider, one directory each: `<dir>/<domain>/` holds `tenant.json` (its domain
 * and, when it is not `https://<domain>`, its public base URL), `config.json` (the business's own
 * configuration, the keys of docs/configuration.md) and `locations.db` (its SQLite store, written
 * by `ucp-location import --tenants <dir> --tenant <domain>`).
 *
 * Adding and removing are all-or-nothing: a tenant is assembled in a hidden directory and renamed
 * into place, and removed by renaming it away first, so `serve` never meets half a tenant.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { loadConfigFile } from '../config.js';
import type { ServerConfig } from '../config.js';
import { ConfigError } from '../errors.js';
import { isRecord } from '../protocol/guards.js';
import { normaliseDomain } from './domain-name.js';

export const TENANT_FILE = 'tenant.json';
export const CONFIG_FILE = 'config.json';
export const STORE_FILE = 'locations.db';

export interface Tenant {
  domain: string;
  /** Public origin written into its profile. */
  baseUrl: string;
  /** Its directory, and the files in it. */
  dir: string;
  configFile: string | undefined;
  storeFile: string;
  /** The store has been imported into. */
  hasData: boolean;
}

export class TenantRegistry {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = resolve(dir);
  }

  /** The tenant `domain`'s paths (whether or not it exists). */
  paths(domain: string): { dir: string; tenantFile: string; configFile: string; storeFile: string } {
    const dir = join(this.dir, normaliseDomain(domain));
    return { dir, tenantFile: join(dir, TENANT_FILE), configFile: join(dir, CONFIG_FILE), storeFile: join(dir, STORE_FILE) };
  }

  /**
   * Adds a tenant. `configFile` is checked as `serve` would read it and copied in (the profile
   * files it names are kept as absolute paths, so they still resolve from the tenant's directory).
   */
  async add(rawDomain: string, options: { configFile?: string; baseUrl?: string } = {}): Promise<Tenant> {
    const domain = normaliseDomain(rawDomain);
    const paths = this.paths(domain);
    if (existsSync(paths.dir)) {
      throw new ConfigError(`The tenant ${domain} exists already in ${this.dir}; remove it first (ucp-location tenant remove ${domain}).`);
    }
    const baseUrl = options.baseUrl === undefined ? undefined : checkBaseUrl(options.baseUrl, domain);
    const config = options.configFile === undefined ? undefined : await portableConfig(options.configFile);
    await mkdir(this.dir, { recursive: true });
    const staging = join(this.dir, `.adding-${domain}-${randomBytes(4).toString('hex')}`);
    await mkdir(staging);
    try {
      await writeFile(
        join(staging, TENANT_FILE),
        `${JSON.stringify({ domain, ...(baseUrl === undefined ? {} : { baseUrl }) }, null, 2)}\n`,
      );
      if (config !== undefined) await writeFile(join(staging, CONFIG_FILE), `${JSON.stringify(config, null, 2)}\n`);
      await rename(staging, paths.dir);
    } catch (err) {
      await rm(staging, { recursive: true, force: true });
      throw err;
    }
    return this.get(domain);
  }

  /** The tenant named `domain`; ConfigError naming the registry when there is none. */
  async get(rawDomain: string): Promise<Tenant> {
    const domain = normaliseDomain(rawDomain);
    const paths = this.paths(domain);
    if (!existsSync(paths.tenantFile)) {
      throw new ConfigError(`No tenant ${domain} in ${this.dir}; add it with: ucp-location tenant add ${domain} --tenants ${this.dir}`);
    }
    const meta = await readTenantFile(paths.tenantFile);
    if (meta.domain !== domain) {
      throw new ConfigError(
        `${paths.tenantFile} names the tenant ${JSON.stringify(meta.domain)}, not ${domain}, the name of its directory.`,
      );
    }
    return {
      domain,
      baseUrl: meta.baseUrl ?? `https://${domain}`,
      dir: paths.dir,
      configFile: existsSync(paths.configFile) ? paths.configFile : undefined,
      storeFile: paths.storeFile,
      hasData: existsSync(paths.storeFile),
    };
  }

  /** Every tenant, sorted by domain. Entries that are not tenant directories are skipped. */
  async list(): Promise<Tenant[]> {
    if (!existsSync(this.dir)) return [];
    const entries = await readdir(this.dir, { withFileTypes: true });
    const names = entries
      .filter((e) => e.isDirectory() && !e.name.startsWith('.') && existsSync(join(this.dir, e.name, TENANT_FILE)))
      .map((e) => e.name)
      .sort();
    return Promise.all(names.map((name) => this.get(name)));
  }

  /** Removes a tenant with its configuration and store. */
  async remove(rawDomain: string): Promise<void> {
    const tenant = await this.get(rawDomain);
    const parked = join(this.dir, `.removing-${tenant.domain}-${randomBytes(4).toString('hex')}`);
    await rename(tenant.dir, parked);
    await rm(parked, { recursive: true, force: true });
  }

  /** The tenant's configuration as `serve` reads it (defaults when it has no file). */
  async config(tenant: Tenant): Promise<ServerConfig | undefined> {
    return tenant.configFile === undefined ? undefined : loadConfigFile(tenant.configFile);
  }
}

async function readTenantFile(path: string): Promise<{ domain: string; baseUrl?: string }> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path, 'utf8'));
  } catch (cause) {
    throw new ConfigError(`Cannot read ${path}: ${cause instanceof Error ? cause.message : String(cause)}.`, { cause });
  }
  if (!isRecord(value) || typeof value['domain'] !== 'string') {
    throw new ConfigError(`${path} must be a JSON object with "domain" (and optionally "baseUrl"); re-create the tenant with tenant add.`);
  }
  const baseUrl = value['baseUrl'];
  if (baseUrl !== undefined && typeof baseUrl !== 'string') throw new ConfigError(`${path}: "baseUrl" must be a string URL.`);
  return { domain: value['domain'], ...(baseUrl === undefined ? {} : { baseUrl: checkBaseUrl(baseUrl, value['domain']) }) };
}

/** A tenant's base URL is an https origin (its profile names https endpoints, seed 002). */
export function checkBaseUrl(raw: string, domain: string): string {
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  if (url === undefined || url.protocol !== 'https:' || url.origin !== raw.replace(/\/$/, '')) {
    throw new ConfigError(
      `--base-url ${JSON.stringify(raw)} for ${domain} must be an https origin without a path, e.g. https://${domain}.`,
    );
  }
  return url.origin;
}

/** The configuration file's JSON, checked, with the profile files it names made absolute. */
export async function portableConfig(file: string): Promise<Record<string, unknown>> {
  await loadConfigFile(file); // refuses a bad file with the same message `serve` would give
  const raw: unknown = JSON.parse(await readFile(file, 'utf8'));
  if (!isRecord(raw)) throw new ConfigError(`${file} must hold a JSON object.`);
  const profiles = raw['trustedPlatformProfiles'];
  if (!Array.isArray(profiles)) return raw;
  const base = dirname(resolve(file));
  return {
    ...raw,
    trustedPlatformProfiles: profiles.map((p: unknown) =>
      isRecord(p) && typeof p['file'] === 'string' ? { ...p, file: resolve(base, p['file']) } : p,
    ),
  };
}
