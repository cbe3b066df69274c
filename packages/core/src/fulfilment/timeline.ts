// An order's timeline (docs/architecture.md, "Order timeline"): read for /orders and the order
// card, written by every status change (orders/transitions.ts) and by a refund of shipped goods.
import type { Database, OrderStatus, Tx } from "@orderbot/db";

/** Longest note (a tracking number, a refund's reason): the CHECK in the migration. */
export const TIMELINE_NOTE_MAX = 500;

export interface TimelineEntryView {
  /** `move`: from → to; `refund`: the money went back, the status stayed (`from` = `to`). */
  event: "move" | "refund";
  from: OrderStatus | null;
  to: OrderStatus;
  /** `op:<masked id>`, `customer`, `telegram`, `system` or `migration`. */
  actor: string;
  /** An operator's name as the group saw it when they acted; shown to operators only. */
  actorName: string | null;
  note: string | null;
  at: Date;
}

type Row = {
  event: string;
  fromStatus: OrderStatus | null;
  toStatus: OrderStatus;
  actor: string;
  actorName: string | null;
  note: string | null;
  createdAt: Date;
};

export function timelineEntryView(row: Row): TimelineEntryView {
  return {
    event: row.event === "refund" ? "refund" : "move",
    from: row.fromStatus,
    to: row.toStatus,
    actor: row.actor,
    actorName: row.actorName,
    note: row.note,
    at: row.createdAt,
  };
}

/** The timelines of some orders (by public id), oldest entry first; unknown ids are left out. */
export async function timelinesOf(
  db: Database | Tx,
  publicIds: readonly string[],
): Promise<Map<string, TimelineEntryView[]>> {
  const result = new Map<string, TimelineEntryView[]>();
  if (publicIds.length === 0) return result;
  const rows = await db.orderTimelineEntry.findMany({
    where: { order: { publicId: { in: [...publicIds] } } },
    include: { order: { select: { publicId: true } } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  for (const row of rows) {
    const list = result.get(row.order.publicId) ?? [];
    list.push(timelineEntryView(row));
    result.set(row.order.publicId, list);
  }
  return result;
}

/**
 * A refund of an order whose goods went out: its status stays (nothing comes back on sale), and
 * the timeline says who refunded it, when and why. The CHECK in the migration refuses an operator's
 * refund without a reason.
 */
export async function recordShippedRefund(
  tx: Tx,
  orderId: number,
  status: OrderStatus,
  actor: string,
  reason: string | null,
  actorName: string | null = null,
): Promise<void> {
  await tx.orderTimelineEntry.create({
    data: {
      orderId,
      event: "refund",
      fromStatus: status,
      toStatus: status,
      actor,
      actorName,
      note: reason,
    },
  });
}
