// Timestamps are stored as UTC `timestamp(3)` columns (Prisma's convention). In raw SQL a Date has
// to become that UTC wall time whatever the session's time zone: the pg adapter sends a Date
// parameter as text without a zone, which a `::timestamptz` cast would read in the session's zone.
import { Prisma } from "./generated/client.ts";

/**
 * `date` as a UTC `timestamp` value for raw SQL.
 *
 * @example
 * await tx.$queryRaw`SELECT id FROM orders WHERE expires_at <= ${utcTimestamp(now)}`;
 */
export function utcTimestamp(date: Date): Prisma.Sql {
  return Prisma.sql`(${date.toISOString()}::timestamptz AT TIME ZONE 'UTC')`;
}
