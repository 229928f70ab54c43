import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

/** A loopback port that was free a moment ago, for a child server to bind right after. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
