import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/client.ts";
import { statementNames } from "./statement-names.ts";

export interface DatabaseConfig {
  url: string;
  /** Connections in this process's pool. Size it to the work, not to the server's maximum. */
  poolMax?: number;
  /** How long a query may wait for a free connection before failing (ms). */
  connectTimeoutMs?: number;
  /** Server-side bound on any one statement (ms); 0 disables it. */
  statementTimeoutMs?: number;
}

export type Database = PrismaClient;

/**
 * A Prisma client over node-postgres with an explicit pool: adapter-pg's defaults (10
 * connections, no connection timeout) let a stuck pool hang requests forever. Every connection
 * runs in UTC: timestamps are stored as UTC `timestamp(3)` columns, Prisma's convention, and a
 * column's `DEFAULT CURRENT_TIMESTAMP` is the session's wall time, so a server whose time zone is
 * not UTC would otherwise date rows hours off. (Options given in the URL take precedence.) Each
 * distinct statement is prepared once per connection (statement-names.ts).
 *
 * @example
 * const db = createDatabase({ url: config.databaseUrl, poolMax: 10, connectTimeoutMs: 5000 });
 * const product = await db.product.findUnique({ where: { sku: "TEA-01" } });
 * await db.$disconnect();
 */
export function createDatabase(config: DatabaseConfig): Database {
  const adapter = new PrismaPg(
    {
      connectionString: config.url,
      max: config.poolMax ?? 10,
      connectionTimeoutMillis: config.connectTimeoutMs ?? 5000,
      idleTimeoutMillis: 30_000,
      options: "-c TimeZone=UTC",
      ...(config.statementTimeoutMs ? { statement_timeout: config.statementTimeoutMs } : {}),
    },
    { statementNameGenerator: statementNames() },
  );
  return new PrismaClient({ adapter });
}
