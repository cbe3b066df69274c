// @orderbot/core/database: the locked transaction every locked write goes through.
/** What the database operations below take: the client, or a transaction client. */
export type { Sql } from "./sql.ts";
