import { Prisma } from "@orderbot/db";
import type { Sql } from "../database/sql.ts";

export interface DailyReport {
  /** The shop's day (in its time zone), yyyy-mm-dd. */
  day: string;
  /** SHOP_TIME_ZONE: the day runs from its midnight to the next, 23 or 25 hours on a DST change. */
  timeZone: string;
  ordersPlaced: number;
  ordersExpired: number;
  ordersCancelled: number;
  /** Payments captured that day and not refunded, per currency (amounts in minor units). */
  revenue: { currency: string; payments: number; amountMinor: number }[];
  refunded: number;
  /** Now, not that day: what still needs attention. */
  refundsPending: number;
  deadLetters: number;
  lowStock: { sku: string; stock: number }[];
}

/** Refuses anything but a real calendar day, yyyy-mm-dd. */
function checkDay(day: string): string {
  const at = new Date(`${day}T00:00:00.000Z`);
  if (Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== day)
    throw new RangeError(`not a day: ${day}`);
  return day;
}

/** The calendar day `at` falls on in `timeZone`, yyyy-mm-dd. */
export function dayIn(timeZone: string, at: Date): string {
  // en-CA writes dates as yyyy-mm-dd.
  return new Intl.DateTimeFormat("en-CA", { timeZone, dateStyle: "short" }).format(at);
}

/**
 * The report's queries over one of the shop's days, exported so a test can EXPLAIN each one. The
 * day's bounds are PostgreSQL's to work out: its midnight in the shop's time zone, and the next
 * one, as UTC wall-clock time (how Prisma stores timestamps). Every query is bounded by the day or
 * by a small status (REFUND_PENDING, DEAD), and each has an index (migration
 * 20261202030000_outbox_retention): /report can be run by any admin, many times, so none may scan
 * a table that grows with the shop's history.
 */
export function reportQueries(day: string, timeZone: string) {
  const midnight = (offset: number) =>
    Prisma.sql`((${checkDay(day)}::date + ${offset}::int)::timestamp AT TIME ZONE ${timeZone}) AT TIME ZONE 'UTC'`;
  const within = (column: string) =>
    Prisma.sql`${Prisma.raw(column)} >= ${midnight(0)} AND ${Prisma.raw(column)} < ${midnight(1)}`;
  return {
    orders: Prisma.sql`
      SELECT (SELECT count(*) FROM orders WHERE ${within("created_at")})::int AS placed,
             (SELECT count(*) FROM orders WHERE status = 'EXPIRED' AND ${within("updated_at")})::int AS expired,
             (SELECT count(*) FROM orders WHERE status = 'CANCELLED' AND ${within("updated_at")})::int AS cancelled`,
    revenue: Prisma.sql`
      SELECT currency, count(*)::int AS payments, sum(amount_minor)::bigint AS amount
        FROM payments
       WHERE status = 'CAPTURED' AND ${within("created_at")}
       GROUP BY currency ORDER BY currency`,
    refunds: Prisma.sql`
      SELECT (SELECT count(*) FROM payments WHERE status = 'REFUNDED' AND ${within("refunded_at")})::int AS refunded,
             (SELECT count(*) FROM payments WHERE status = 'REFUND_PENDING')::int AS pending`,
    deadLetters: Prisma.sql`
      SELECT ((SELECT count(*) FROM outbox_messages WHERE status = 'DEAD')
            + (SELECT count(*) FROM deliveries WHERE status = 'DEAD'))::int AS dead`,
  };
}

/** The figures of one of the shop's days. Read-only. */
export async function buildDailyReport(
  sql: Sql,
  options: { day: string; timeZone: string; lowStockThreshold: number },
): Promise<DailyReport> {
  const q = reportQueries(options.day, options.timeZone);
  const [orders] = await sql.$queryRaw<{ placed: number; expired: number; cancelled: number }[]>(
    q.orders,
  );
  const revenue = await sql.$queryRaw<{ currency: string; payments: number; amount: bigint }[]>(
    q.revenue,
  );
  const [refunds] = await sql.$queryRaw<{ refunded: number; pending: number }[]>(q.refunds);
  const [dead] = await sql.$queryRaw<{ dead: number }[]>(q.deadLetters);
  const deadLetters = dead?.dead ?? 0;
  const lowStock = await sql.product.findMany({
    where: { active: true, stock: { lte: options.lowStockThreshold } },
    select: { sku: true, stock: true },
    orderBy: [{ stock: "asc" }, { sku: "asc" }],
    take: 10,
  });
  return {
    day: options.day,
    timeZone: options.timeZone,
    ordersPlaced: orders?.placed ?? 0,
    ordersExpired: orders?.expired ?? 0,
    ordersCancelled: orders?.cancelled ?? 0,
    revenue: revenue.map((r) => ({
      currency: r.currency,
      payments: r.payments,
      amountMinor: Number(r.amount),
    })),
    refunded: refunds?.refunded ?? 0,
    refundsPending: refunds?.pending ?? 0,
    deadLetters,
    lowStock,
  };
}
