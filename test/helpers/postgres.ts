import { randomBytes } from "node:crypto";
import pg from "pg";

/**
 * A real PostgreSQL for the tests that need one. `.ci/run` starts a throwaway cluster and exports
 * its URL in PATCHGATE_TEST_DATABASE_URL; each test file gets a database of its own in it, dropped at
 * the end. Without the variable a file says so in one line and skips, except under CI
 * (PATCHGATE_CI), where it fails: there the cluster must exist.
 */
const PG_URL_VARIABLE = "PATCHGATE_TEST_DATABASE_URL";

/** The cluster's URL, or null after printing the one line that says what was skipped. */
export function postgresForTests(what: string): string | null {
  const url = process.env[PG_URL_VARIABLE];
  if (url) return url;
  if (process.env.PATCHGATE_CI) throw new Error(`${what} needs PostgreSQL under CI: ${PG_URL_VARIABLE} is not set (.ci/run starts a cluster)`);
  console.log(`skipped: ${what} needs PostgreSQL (set ${PG_URL_VARIABLE}=postgres://…; .ci/run starts one)`);
  return null;
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A new, empty database on the cluster at `baseUrl`. */
export async function freshDatabase(baseUrl: string): Promise<TestDatabase> {
  const name = `pgt_${process.pid}_${randomBytes(4).toString("hex")}`;
  await adminQuery(baseUrl, `CREATE DATABASE ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    // FORCE: a test that failed mid-way may leave a connection open; it must not keep the database.
    drop: () => adminQuery(baseUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

async function adminQuery(baseUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
