import { Prisma } from "@orderbot/db";
import type { Sql } from "../database/sql.ts";

export interface DailyReport {
  /** The UTC day, yyyy-mm-dd. */
  day: string;
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

export const dayBounds = (day: string): [string, string] => {
  const from = new Date(`${day}T00:00:00.000Z`);
  if (Number.isNaN(from.getTime()) || from.toISOString().slice(0, 10) !== day)
    throw new RangeError(`not a day: ${day}`);
  const to = new Date(from.getTime() + 86_400_000);
  // Timestamps are stored as UTC wall-clock time without a zone, as Prisma writes them.
  return [
    from.toISOString().slice(0, 23).replace("T", " "),
    to.toISOString().slice(0, 23).replace("T", " "),
  ];
};

/**
 * The report's queries over one day [from, to), exported so a test can EXPLAIN each one. Every
 * query is bounded by the day or by a small status (REFUND_PENDING, DEAD), and each has an index
 * (migration 20261202030000_outbox_retention): /report can be run by any admin, many times, so
 * none may scan a table that grows with the shop's history.
 */
export function reportQueries(from: string, to: string) {
  const day = (column: string) =>
    Prisma.sql`${Prisma.raw(column)} >= ${from}::timestamp AND ${Prisma.raw(column)} < ${to}::timestamp`;
  return {
    orders: Prisma.sql`
      SELECT (SELECT count(*) FROM orders WHERE ${day("created_at")})::int AS placed,
             (SELECT count(*) FROM orders WHERE status = 'EXPIRED' AND ${day("updated_at")})::int AS expired,
             (SELECT count(*) FROM orders WHERE status = 'CANCELLED' AND ${day("updated_at")})::int AS cancelled`,
    revenue: Prisma.sql`
      SELECT currency, count(*)::int AS payments, sum(amount_minor)::bigint AS amount
        FROM payments
       WHERE status = 'CAPTURED' AND ${day("created_at")}
       GROUP BY currency ORDER BY currency`,
    refunds: Prisma.sql`
      SELECT (SELECT count(*) FROM payments WHERE status = 'REFUNDED' AND ${day("refunded_at")})::int AS refunded,
             (SELECT count(*) FROM payments WHERE status = 'REFUND_PENDING')::int AS pending`,
    deadLetters: Prisma.sql`SELECT count(*)::int AS dead FROM outbox_messages WHERE status = 'DEAD'`,
  };
}

/** The figures of one UTC day. Read-only. */
export async function buildDailyReport(
  sql: Sql,
  options: { day: string; lowStockThreshold: number },
): Promise<DailyReport> {
  const [from, to] = dayBounds(options.day);
  const q = reportQueries(from, to);
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
