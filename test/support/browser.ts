/**
 * Debian's `chromium`, driven by playwright-core, for the console's browser suites and the
 * screenshot script. Every launch gets a fresh profile directory under `dir` (removed by the
 * caller's scratch directory) and flags that keep the browser off the network.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM = process.env['UCP_TEST_CHROMIUM'] ?? '/usr/bin/chromium';

/** Why the browser cannot be used here, or null when it can. */
export function chromiumMissing(): string | null {
  return existsSync(CHROMIUM) ? null : `${CHROMIUM} does not exist`;
}

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchChromium(dir: string, viewport = { width: 1280, height: 900 }): Promise<BrowserContext> {
  return chromium.launchPersistentContext(join(dir, `chromium-profile-${process.pid}-${Date.now()}`), {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport,
  });
}
