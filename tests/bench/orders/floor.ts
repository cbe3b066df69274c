// The floor of bench:orders (floor.sql): installed in the run's database, called through a bare
// `pg` pool, one statement per order.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";

const FLOOR_SQL = readFileSync(path.join(import.meta.dirname, "floor.sql"), "utf8");

export async function installFloor(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(FLOOR_SQL);
  } finally {
    await client.end();
  }
}

/** One reservation of one unit: "ok" with the new order's id, or the database's refusal. */
export async function floorReserve(
  pool: pg.Pool,
  userId: bigint,
  sku: string,
): Promise<{ status: "ok" } | { status: "out-of-stock" }> {
  try {
    await pool.query("SELECT bench_floor.reserve($1, $2, $3, 1, $4, $5, interval '15 minutes')", [
      userId.toString(),
      userId.toString(),
      sku,
      `bench-floor-${userId}`,
      randomBytes(6).toString("base64url"),
    ]);
    return { status: "ok" };
  } catch (error) {
    // OBST1: the line could not take its units (the schema's trigger, inside the COMMIT).
    if ((error as { code?: string }).code === "OBST1") return { status: "out-of-stock" };
    throw error;
  }
}
