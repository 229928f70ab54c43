/**
 * The index file as a user meets it (#30): `import` writes it beside the SQLite store, `inventory`
 * updates it from the previous one, and `serve` loads it instead of building — one log line says
 * which, and a damaged file is refused with one line saying why, then replaced.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logging.js';
import { startServer } from '../../src/server.js';
import { runCli } from '../client/support/cli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

let cwd: string;
beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), 'ucp-cli-index-file-'));
  copyFileSync(join(ROOT, 'data/demo.ndjson'), join(cwd, 'demo.ndjson'));
  copyFileSync(join(ROOT, 'data/demo-inventory.csv'), join(cwd, 'demo-inventory.csv'));
});
afterAll(() => {
  if (cwd !== undefined) rmSync(cwd, { recursive: true, force: true });
});

/** Starts `serve` on the store in-process and returns the index log lines it wrote while starting. */
async function serveLines(db: string): Promise<{ msg: string; reason?: string }[]> {
  const lines: { msg: string; reason?: string }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n')) {
        if (line.trim() === '') continue;
        const entry = JSON.parse(line) as { msg: string; reason?: string };
        if (entry.msg.startsWith('in-memory index')) lines.push(entry);
      }
      done();
    },
  });
  const server = await startServer({ db, port: 0, logger: createLogger({ destination: sink, format: 'json' }) });
  await server.close();
  return lines;
}

describe('index file: import writes it, inventory updates it, serve loads it', () => {
  it('the CLI writes the file and serve loads it; a damaged one is refused once and replaced', async () => {
    const db = join(cwd, 'shop.db');
    const imported = await runCli(['import', '--db', db, 'demo.ndjson', '--json'], { cwd });
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ indexFile: { source: 'built', written: true, locations: 194 } });
    expect(existsSync(`${db}.index`)).toBe(true);

    const inventory = await runCli(['inventory', '--db', db, 'demo-inventory.csv', '--json'], { cwd });
    expect(inventory.code, inventory.stderr).toBe(0);
    const report = JSON.parse(inventory.stdout) as { generation: number };
    expect(JSON.parse(inventory.stdout)).toMatchObject({ indexFile: { source: 'file', written: true, generation: report.generation } });

    expect(await serveLines(db)).toEqual([
      expect.objectContaining({ msg: 'in-memory index loaded from its index file' }),
      expect.objectContaining({ msg: 'in-memory index ready' }),
    ]);

    const file = readFileSync(`${db}.index`);
    file[file.length - 3] = file[file.length - 3]! ^ 0x55;
    writeFileSync(`${db}.index`, file);
    const refused = await serveLines(db);
    expect(refused).toHaveLength(2);
    expect(refused[0]?.msg).toMatch(
      /^in-memory index built from the store because the index file at .* was refused: its checksum does not match/,
    );
    expect(refused[1]?.msg).toBe('in-memory index ready');
    // Replaced by a good one: the next start loads it.
    expect((await serveLines(db))[0]?.msg).toBe('in-memory index loaded from its index file');
  }, 180_000);
});
