import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "@orderbot/db";
import { startPostgresCluster, type PostgresCluster } from "@orderbot/testkit";

let pg: PostgresCluster;
let db: Database;
beforeAll(async () => {
  pg = await startPostgresCluster({ maxConnections: 20 });
  db = createDatabase({ url: pg.url(), poolMax: 2, connectTimeoutMs: 2_000 });
});
afterAll(async () => {
  await db.$disconnect();
  await pg.dispose();
});

describe("a PostgreSQL cluster of a test's own", () => {
  it("keeps committed data across a crash-like stop, and serves again after the restart", async () => {
    await db.$executeRawUnsafe("CREATE TABLE t (v int)");
    await db.$executeRawUnsafe("INSERT INTO t VALUES (42)");
    await pg.stop("immediate");
    await expect(db.$queryRawUnsafe("SELECT v FROM t")).rejects.toThrow();
    await pg.start();
    let rows: { v: number }[] = [];
    for (let attempt = 0; attempt < 20 && rows.length === 0; attempt++) {
      rows = await db.$queryRawUnsafe<{ v: number }[]>("SELECT v FROM t").catch(() => []);
    }
    expect(rows).toEqual([{ v: 42 }]);
    expect(await db.$queryRawUnsafe<{ TimeZone: string }[]>("SHOW timezone")).toEqual([
      { TimeZone: "UTC" },
    ]);
  });
});
