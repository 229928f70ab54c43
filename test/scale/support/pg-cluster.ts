/**
 * A throw-away PostgreSQL cluster (initdb + pg_ctl) on a free loopback port, which a test may
 * stop and start again to simulate an outage — never the machine's main cluster, which other
 * suites use. initdb refuses to run as root, so as root the cluster belongs to the `postgres`
 * system user (run through runuser).
 */
import { execFile } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './redis.js';

const run = promisify(execFile);
/** `UCP_TEST_PG_BIN`, else the newest Debian-style server install (/usr/lib/postgresql/<v>/bin). */
const BIN = process.env['UCP_TEST_PG_BIN'] ?? newestServerBin();

function newestServerBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const v of versions) {
    const bin = join(root, v, 'bin');
    if (existsSync(join(bin, 'initdb'))) return bin;
  }
  return join(root, '15', 'bin');
}

/** Why a throw-away cluster cannot be made here (its binaries are missing), or `null`. */
export function throwawayClusterMissing(): string | null {
  return existsSync(join(BIN, 'initdb')) && existsSync(join(BIN, 'pg_ctl')) ? null : `no initdb/pg_ctl in ${BIN}`;
}

export class ThrowawayPostgres {
  private constructor(
    readonly dir: string,
    readonly port: number,
    private readonly asUser: string | null,
  ) {}

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  private async exec(bin: string, args: string[]): Promise<void> {
    const file = join(BIN, bin);
    if (this.asUser === null) await run(file, args, { timeout: 60_000 });
    else await run('runuser', ['-u', this.asUser, '--', file, ...args], { timeout: 60_000 });
  }

  static async create(): Promise<ThrowawayPostgres> {
    const root = mkdtempSync(join(tmpdir(), 'ucp-pg-'));
    chmodSync(root, 0o755);
    const asUser = userInfo().uid === 0 ? 'postgres' : null;
    const data = join(root, 'data');
    const pg = new ThrowawayPostgres(root, await freePort(), asUser);
    if (asUser !== null) {
      const { stdout } = await run('id', ['-u', asUser]);
      const { stdout: gid } = await run('id', ['-g', asUser]);
      chownSync(root, Number(stdout.trim()), Number(gid.trim()));
    }
    await pg.exec('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C.UTF-8']);
    await pg.start();
    return pg;
  }

  async start(): Promise<void> {
    await this.exec('pg_ctl', [
      '-D',
      join(this.dir, 'data'),
      '-w',
      '-l',
      join(this.dir, 'log'),
      '-o',
      `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`,
      'start',
    ]);
  }

  /** Fast shutdown: sessions are terminated (57P01), new connections refused. */
  async stop(): Promise<void> {
    await this.exec('pg_ctl', ['-D', join(this.dir, 'data'), '-w', '-m', 'fast', 'stop']);
  }

  async destroy(): Promise<void> {
    await this.stop().catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
