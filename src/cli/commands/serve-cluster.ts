/**
 * `serve --workers N`: N server processes (node:cluster) sharing one listening port.
 *
 * The primary only supervises: it forks the workers (each runs the ordinary `serve` code path
 * and opens its own store connection — a read-only SQLite file or a PostgreSQL pool), restarts
 * a worker that dies unexpectedly (with a back-off, so a worker that cannot start does not spin),
 * and on SIGINT/SIGTERM asks every worker to shut down gracefully and waits for them.
 *
 * Workers must agree on the cursor secret, or a cursor issued by one fails on another: when none
 * is configured the primary makes one up and hands it to the workers (`UCP_LOCATION_CURSOR_SECRET`).
 * Without `--redis`, rate limits and the profile cache are per worker.
 */
import cluster from 'node:cluster';
import type { Worker } from 'node:cluster';
import { randomBytes } from 'node:crypto';
import { ConfigError } from '../../errors.js';

/** Environment variable carrying the shared cursor secret from the primary to its workers. */
export const CURSOR_SECRET_ENV = 'UCP_LOCATION_CURSOR_SECRET';

/** Most workers accepted; more than a few per core only adds memory and connections. */
export const MAX_WORKERS = 256;

export function parseWorkers(raw: string | undefined): number {
  if (raw === undefined) return 1;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > MAX_WORKERS) {
    throw new ConfigError(
      `--workers must be an integer from 1 to ${MAX_WORKERS} (a good start: the number of CPU cores), got ${JSON.stringify(raw)}`,
    );
  }
  return n;
}

export function isClusterWorker(): boolean {
  return cluster.isWorker;
}

/** In a worker after its graceful stop: drop the IPC channel, which would keep the process alive. */
export function leaveCluster(): void {
  if (cluster.isWorker && cluster.worker?.isConnected() === true) cluster.worker.disconnect();
}

interface SupervisorLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * Run as the cluster primary until a signal stops the fleet. Returns the exit status: 0 after a
 * graceful stop, 1 when workers kept failing to start.
 */
export async function superviseWorkers(
  count: number,
  options: { cursorSecret: string | undefined; logger: SupervisorLog },
): Promise<number> {
  const { logger } = options;
  const env: Record<string, string> = {};
  if (options.cursorSecret === undefined) env[CURSOR_SECRET_ENV] = randomBytes(32).toString('hex');
  let stopping = false;
  let failuresInARow = 0;
  const listening = new Set<number>();

  const fork = (): Worker => {
    const worker = cluster.fork(env);
    worker.on('listening', () => {
      failuresInARow = 0;
      listening.add(worker.id);
    });
    return worker;
  };

  return new Promise<number>((resolve) => {
    cluster.on('exit', (worker, code, signal) => {
      const wasListening = listening.delete(worker.id);
      if (stopping) {
        if (Object.keys(cluster.workers ?? {}).length === 0) resolve(0);
        return;
      }
      if (!wasListening) failuresInARow++;
      if (failuresInARow >= count * 3) {
        logger.error({ code, signal }, 'workers keep exiting before they listen; giving up (see the worker errors above)');
        stopping = true;
        for (const w of Object.values(cluster.workers ?? {})) w?.kill('SIGTERM');
        if (Object.keys(cluster.workers ?? {}).length === 0) resolve(1);
        return;
      }
      const delay = Math.min(5000, 100 * 2 ** Math.min(failuresInARow, 6));
      logger.warn({ worker: worker.process.pid, code, signal, restartInMs: delay }, 'worker exited; starting a replacement');
      setTimeout(() => {
        if (!stopping) fork();
      }, delay).unref();
    });
    const stop = (signal: NodeJS.Signals): void => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal, workers: Object.keys(cluster.workers ?? {}).length }, 'shutting down: workers finish their in-flight requests');
      // A second signal means "now".
      process.once(signal, () => process.exit(1));
      const workers = Object.values(cluster.workers ?? {});
      if (workers.length === 0) resolve(0);
      for (const w of workers) w?.process.kill('SIGTERM');
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    logger.info({ workers: count }, `starting ${count} worker processes`);
    for (let i = 0; i < count; i++) fork();
  });
}
