import type { Database } from "./client.ts";

/**
 * What a Redis copy of this database's rows is keyed by: the epoch stored in the database
 * (migration 20261207031000_cache_epoch) and the database's oid. A new database, a clone
 * (`CREATE DATABASE ... TEMPLATE`) and a restore into a new database all get a new one, so a copy
 * never outlives the data it copies; a restore in place is given a new epoch by hand.
 */
export async function readCacheEpoch(db: Pick<Database, "$queryRaw">): Promise<string> {
  const [row] = await db.$queryRaw<{ epoch: string }[]>`
    SELECT c.epoch::text || '.' || d.oid::text AS epoch
      FROM cache_epoch c, pg_database d
     WHERE d.datname = current_database()`;
  if (!row) throw new Error("cache_epoch has no row: the database is not migrated");
  return row.epoch;
}
