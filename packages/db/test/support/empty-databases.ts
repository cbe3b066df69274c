// Empty databases (not the migrated template) for tests of migrations themselves: created when a
// test asks, dropped after the file's tests.
import pg from "pg";
import { afterAll } from "vitest";
import { serviceUrls, withDatabase } from "@orderbot/testkit";

/** Registers the clean-up; the function it returns creates an empty database and gives its URL. */
export function useEmptyDatabases(tag: string): () => Promise<string> {
  const admin = new pg.Client({
    connectionString: withDatabase(serviceUrls().databaseUrl, "postgres"),
  });
  const created: string[] = [];
  afterAll(async () => {
    for (const name of created) await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    if (created.length > 0) await admin.end();
  });
  return async () => {
    if (created.length === 0) await admin.connect();
    const name = `orderbot_test_${process.env.ORDERBOT_TEST_RUN ?? process.pid}_${tag}${created.length}_${Date.now() % 100000}`;
    await admin.query(`CREATE DATABASE "${name}"`);
    created.push(name);
    return withDatabase(serviceUrls().databaseUrl, name);
  };
}
