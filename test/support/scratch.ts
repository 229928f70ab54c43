/**
 * A temporary directory for one test file (or one describe block): made before its tests, removed
 * after them — also when a test fails. The global setup reports any directory left in the run's
 * TMPDIR, so a test that makes its own with mkdtempSync must remove it the same way.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/** Registers the hooks; call the returned function inside a test or hook for the path. */
export function useScratchDir(prefix: string): () => string {
  let dir: string | undefined;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  });
  afterAll(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    if (dir === undefined) throw new Error(`scratch directory ${prefix} used outside its tests`);
    return dir;
  };
}

/**
 * Makes a temporary directory, runs `build` in it and returns its result with a `remove()`; when
 * `build` throws, the directory is removed before the error goes on, so a fixture that fails
 * half-way (a server that does not start, an import that is refused) leaves nothing behind.
 */
export async function inScratchDir<T extends object>(
  prefix: string,
  build: (dir: string) => Promise<T>,
): Promise<T & { dir: string; remove: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  const remove = (): void => rmSync(dir, { recursive: true, force: true });
  try {
    return { ...(await build(dir)), dir, remove };
  } catch (error) {
    remove();
    throw error;
  }
}
