/**
 * The Host/Origin guard against DNS rebinding, one for every server of the package. A page on
 * another site that points its own name at 127.0.0.1 reaches a loopback server with that name in
 * `Host`; a page posting to us directly carries its own `Origin`. Only admitted names pass.
 *
 * The guard is given its admitted hosts rather than deriving them, so one process can serve many
 * names (a Business per Host, tenants added at start) with the same guard type; `loopbackHosts`
 * builds the usual set for a server bound to this machine.
 */
import { hostForUrl, splitAuthority } from './loopback.js';

/** The request headers the guard reads (node:http's IncomingHttpHeaders fits). */
export interface GuardedHeaders {
  host?: string | undefined;
  origin?: string | undefined;
}

export interface HostGuardOptions {
  /**
   * Admitted `Host` values: `name:port` admits that name on that port only; a bare `name` admits
   * it on any port (a name behind a proxy arrives with or without the port). Compared without
   * regard to letter case; IPv6 addresses in brackets.
   */
  hosts: Iterable<string>;
  /**
   * Admitted `Origin` values (`http://localhost:8080`); the opaque origin `null` always passes.
   * Absent: Origin is not checked (a server that guards its API another way, as the console does).
   */
  origins?: Iterable<string>;
}

export class HostGuard {
  /** Authorities with a port, as `name:port`. */
  readonly #exact = new Set<string>();
  /** Names admitted on any port. */
  readonly #anyPort = new Set<string>();
  readonly #origins: Set<string> | undefined;
  readonly #shown: string[] = [];

  constructor(options: HostGuardOptions) {
    for (const entry of options.hosts) {
      const authority = splitAuthority(entry);
      if (authority === undefined) throw new TypeError(`HostGuard: ${JSON.stringify(entry)} is not a host name or name:port.`);
      if (authority.port === undefined) this.#anyPort.add(authority.host);
      else this.#exact.add(`${authority.host}:${authority.port}`);
      this.#shown.push(authority.port === undefined ? authority.host : `${authority.host}:${authority.port}`);
    }
    this.#origins = options.origins === undefined ? undefined : new Set([...options.origins].map((o) => o.toLowerCase()));
  }

  /** The admitted hosts, as given (lower-cased): for messages and for a router keyed by Host. */
  get hosts(): readonly string[] {
    return this.#shown;
  }

  /** True when this `Host` header value names an admitted host. */
  admitsHost(value: string | undefined): boolean {
    if (value === undefined) return false;
    // The usual header is already an admitted entry as written (lower case, canonical port):
    // parsing it would give back the same entry, so the lookups can come first.
    if (this.#exact.has(value) || this.#anyPort.has(value)) return true;
    const authority = splitAuthority(value);
    if (authority === undefined) return false;
    if (this.#anyPort.has(authority.host)) return true;
    return authority.port !== undefined && this.#exact.has(`${authority.host}:${authority.port}`);
  }

  /** undefined when the request may proceed; otherwise a sentence for the caller saying why not. */
  check(headers: GuardedHeaders): string | undefined {
    if (!this.admitsHost(headers.host)) {
      return `Host ${JSON.stringify(headers.host ?? '')} is not served here; use one of: ${this.#shown.join(', ')}.`;
    }
    const origin = headers.origin;
    if (this.#origins !== undefined && origin !== undefined && origin !== 'null' && !this.#origins.has(origin.toLowerCase())) {
      return `Origin ${JSON.stringify(origin)} is not allowed to call this server.`;
    }
    return undefined;
  }
}

/**
 * The names a server bound to `bindHost:port` on this machine answers to: 127.0.0.1, localhost and
 * [::1] on that port, and the bound address itself when it is another loopback address.
 */
export function loopbackHosts(port: number, bindHost?: string): string[] {
  const names = new Set(['127.0.0.1', 'localhost', '[::1]']);
  if (bindHost !== undefined && bindHost !== '') names.add(hostForUrl(bindHost.toLowerCase()));
  return [...names].map((name) => `${name}:${port}`);
}

/** The origins of those names, over plain HTTP (a loopback server has no certificate). */
export function loopbackOrigins(port: number, bindHost?: string): string[] {
  return loopbackHosts(port, bindHost).map((authority) => `http://${authority}`);
}
