/**
 * PostgreSQL for tests: every test file gets its own throw-away database on the machine's
 * cluster (so files run in parallel with each other and with other suites), dropped afterwards.
 * `UCP_TEST_PG_URL` points at another cluster (default postgres://postgres@127.0.0.1:5432/test).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const PG_ADMIN_URL = process.env['UCP_TEST_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Set by the global setup: every database this run creates carries it, so the run can sweep its own. */
export const RUN_TAG_ENV = 'UCP_TEST_RUN_TAG';

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
  const tag = process.env[RUN_TAG_ENV];
  const name = `${prefix}_${tag === undefined ? '' : `${tag}_`}${randomBytes(5).toString('hex')}`;
  // template0: template1 may be in use by someone else's connection, which blocks CREATE DATABASE.
  await admin(adminUrl, (c) =>
    c.query(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C.UTF-8' LC_CTYPE 'C.UTF-8'`),
  );
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

/**
 * Drop every database the run tagged `tag` created and return their names: the global teardown's
 * net for a test that failed (or was killed) before its own afterAll dropped what it made.
 */
export async function dropRunDatabases(tag: string, adminUrl = PG_ADMIN_URL): Promise<string[]> {
  try {
    return await admin(adminUrl, async (c) => {
      const { rows } = await c.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`%\\_${tag}\\_%`]);
      for (const { datname } of rows) await c.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
      return rows.map((r) => r.datname);
    });
  } catch {
    return []; // no PostgreSQL: nothing can have been created
  }
}
