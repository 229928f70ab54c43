/**
 * A throw-away redis-server on a free loopback port, which tests can stop and start again on the
 * same port (outage and recovery) without touching the machine's shared Redis.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { untilOutput } from '../../support/child-output.js';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export class ThrowawayRedis {
  #child: ChildProcess | null = null;

  private constructor(readonly port: number) {}

  static async start(): Promise<ThrowawayRedis> {
    const r = new ThrowawayRedis(await freePort());
    await r.start();
    return r;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (this.#child !== null) return;
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.#child = child;
    // redis-server logs this line once it accepts connections; an exit first (a port already
    // taken) rejects with its log.
    try {
      await untilOutput(
        child,
        (log) => log.includes('Ready to accept connections'),
        `redis-server accepted connections on port ${this.port}`,
      );
    } catch (error) {
      this.#child = null;
      throw error;
    }
    // Its later log lines are not read; drained so a full pipe never blocks the server.
    child.stdout.resume();
    child.stderr.resume();
  }

  /** Kill the server (no clean shutdown: clients see their connection drop). */
  async stop(): Promise<void> {
    const child = this.#child;
    if (child === null) return;
    this.#child = null;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGKILL');
    await exited;
  }
}
