// The floor of bench:orders (floor.sql): installed in the run's database, called through a bare
// `pg` pool, one statement per order; and the same call through the shop's Prisma client, which
// bench:orders runs under the checkout lock as the floor of the project's stack.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { sqlStateOf, type Database } from "@orderbot/db";

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

type Reserved = { status: "ok" } | { status: "out-of-stock" };

/** One reservation of one unit through a bare pool: "ok", or the database's refusal. */
export function floorReserve(pool: pg.Pool, userId: bigint, sku: string): Promise<Reserved> {
  return reserved(() =>
    pool.query("SELECT bench_floor.reserve($1, $2, $3, 1, $4, $5, interval '15 minutes')", [
      userId.toString(),
      userId.toString(),
      sku,
      `bench-floor-${userId}`,
      randomBytes(6).toString("base64url"),
    ]),
  );
}

/** The same reservation through a Prisma client (`$queryRaw`, one statement in autocommit). */
export function floorReserveThroughPrisma(
  db: Database,
  userId: bigint,
  sku: string,
): Promise<Reserved> {
  const key = `bench-floor-${userId}`;
  const publicId = randomBytes(6).toString("base64url");
  return reserved(
    () => db.$queryRaw`SELECT bench_floor.reserve(${userId}, ${userId}, ${sku}, 1, ${key},
                                                  ${publicId}, interval '15 minutes')::text`,
  );
}

async function reserved(call: () => Promise<unknown>): Promise<Reserved> {
  try {
    await call();
    return { status: "ok" };
  } catch (error) {
    // OBST1: the line could not take its units (the schema's trigger, inside the COMMIT).
    if ((error as { code?: string }).code === "OBST1" || sqlStateOf(error) === "OBST1")
      return { status: "out-of-stock" };
    throw error;
  }
}
