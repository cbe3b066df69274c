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

const dayBounds = (day: string): [string, string] => {
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

/** The figures of one UTC day. Read-only; run once a day, so plain scans are fine. */
export async function buildDailyReport(
  sql: Sql,
  options: { day: string; lowStockThreshold: number },
): Promise<DailyReport> {
  const [from, to] = dayBounds(options.day);
  const [orders] = await sql.$queryRaw<{ placed: number; expired: number; cancelled: number }[]>`
    SELECT count(*) FILTER (WHERE created_at >= ${from}::timestamp AND created_at < ${to}::timestamp)::int AS placed,
           count(*) FILTER (WHERE status = 'EXPIRED' AND updated_at >= ${from}::timestamp AND updated_at < ${to}::timestamp)::int AS expired,
           count(*) FILTER (WHERE status = 'CANCELLED' AND updated_at >= ${from}::timestamp AND updated_at < ${to}::timestamp)::int AS cancelled
      FROM orders`;
  const revenue = await sql.$queryRaw<{ currency: string; payments: number; amount: bigint }[]>`
    SELECT currency, count(*)::int AS payments, sum(amount_minor)::bigint AS amount
      FROM payments
     WHERE status = 'CAPTURED' AND created_at >= ${from}::timestamp AND created_at < ${to}::timestamp
     GROUP BY currency ORDER BY currency`;
  const [refunds] = await sql.$queryRaw<{ refunded: number; pending: number }[]>`
    SELECT count(*) FILTER (WHERE status = 'REFUNDED' AND refunded_at >= ${from}::timestamp AND refunded_at < ${to}::timestamp)::int AS refunded,
           count(*) FILTER (WHERE status = 'REFUND_PENDING')::int AS pending
      FROM payments WHERE status IN ('REFUNDED', 'REFUND_PENDING')`;
  const deadLetters = await sql.outboxMessage.count({ where: { status: "DEAD" } });
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
