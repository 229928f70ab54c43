/**
 * PostgreSQL for tests: every test file gets its own throw-away database on the machine's
 * cluster (so files run in parallel with each other and with other suites), dropped afterwards.
 * `UCP_TEST_PG_URL` points at another cluster (default postgres://postgres@127.0.0.1:5432/test).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const PG_ADMIN_URL = process.env['UCP_TEST_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDatabase {
  /** URL of the new database (add `?schema=` per store). */
  url: string;
  name: string;
  drop(): Promise<void>;
}

async function admin<T>(adminUrl: string, body: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await body(client);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(prefix = 'ucp_t', adminUrl = PG_ADMIN_URL): Promise<TestDatabase> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  // template0: template1 may be in use by someone else's connection, which blocks CREATE DATABASE.
  await admin(adminUrl, (c) => c.query(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C.UTF-8' LC_CTYPE 'C.UTF-8'`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () => admin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

/** `url` with `?schema=<schema>` set. */
export function withSchema(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set('schema', schema);
  return u.toString();
}
