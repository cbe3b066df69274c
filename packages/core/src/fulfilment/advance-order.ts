import type { OrderStatus, Tx } from "@orderbot/db";
import { z } from "zod";
import { lockedTransaction } from "../database/locked-transaction.ts";
import type { CoreDeps } from "../deps.ts";
import { publicIdSchema } from "../orders/public-id-schema.ts";
import { findOrderByPublicId } from "../orders/queries.ts";
import {
  FULFILMENT_STATUSES,
  isLegalTransition,
  transition,
  type FulfilmentStatus,
} from "../orders/transitions.ts";
import {
  invalid,
  NOT_FOUND,
  type Busy,
  type Invalid,
  type NotFound,
  type Unavailable,
} from "../results.ts";
import { parseWith, telegramId } from "../validation.ts";
import type { OrderView } from "../views.ts";
import { queueStatusNotice } from "./status-notice.ts";
import { TIMELINE_NOTE_MAX, timelineEntryView, type TimelineEntryView } from "./timeline.ts";

/** The steps an operator moves an order to. */
export const FULFILMENT_STEPS = ["PROCESSING", "SHIPPED", "DELIVERED"] as const;
export type FulfilmentStep = (typeof FULFILMENT_STEPS)[number];

export type AdvanceOrderResult =
  /** Moved now; the customer's notice is queued. */
  | { status: "ok"; order: OrderView; entry: TimelineEntryView }
  /**
   * Someone got there first (another operator, or this one pressing twice): the order is at `to`
   * or further. `entry` is the move that took it to where it is now (who and when), when recorded.
   */
  | { status: "already"; current: OrderStatus; entry: TimelineEntryView | null }
  /** Not a paid order on its way (not paid yet, cancelled, refunded). */
  | { status: "conflict"; current: OrderStatus }
  | NotFound
  | Busy
  | Unavailable
  | Invalid;

const noteSchema = z
  .string()
  .trim()
  .min(1)
  .max(TIMELINE_NOTE_MAX, `at most ${TIMELINE_NOTE_MAX} characters`)
  .nullable();

const inputSchema = z.object({
  orderId: publicIdSchema,
  to: z.enum(FULFILMENT_STEPS),
  actor: telegramId,
  actorName: z.string().trim().max(128).nullable(),
  note: noteSchema,
});

export interface AdvanceOrderInput {
  orderId: string;
  to: FulfilmentStep;
  /** The operator's Telegram id: stored masked. */
  actor: bigint | number | string;
  /** The operator's name as the group shows it, told to another operator who loses a race. */
  actorName?: string | null;
  /** A tracking number or any short note; the customer reads it. */
  note?: string | null;
}

const rank = (status: OrderStatus): number =>
  FULFILMENT_STATUSES.indexOf(status as FulfilmentStatus);

/**
 * An operator moves a paid order on: PAID → PROCESSING → SHIPPED → DELIVERED (a step may be
 * skipped, never gone back). Under the `order` lock (refused when Redis is down, like refunds: an
 * operator can wait), one transaction locks the row, moves it with a conditional update on its
 * version, records the move in the timeline and queues the customer's notice. Two operators
 * pressing at once, or one pressing twice, make one move; the other is told who made it and when.
 */
export function createAdvanceOrder(deps: CoreDeps) {
  return (input: AdvanceOrderInput): Promise<AdvanceOrderResult> => advanceOrder(deps, input);
}

/** A move as the timeline records it: the operator masked. */
interface Move {
  orderId: string;
  to: FulfilmentStep;
  actor: string;
  actorName: string | null;
  note: string | null;
}

async function advanceOrder(deps: CoreDeps, input: AdvanceOrderInput): Promise<AdvanceOrderResult> {
  const parsed = parseWith(inputSchema, {
    ...input,
    actorName: input.actorName ?? null,
    note: input.note ?? null,
  });
  if (!parsed.ok) return invalid(parsed.problems);
  const value = parsed.value;
  const result: AdvanceOrderResult = await lockedTransaction(
    deps,
    { kind: "order", id: value.orderId },
    (tx) => advance(deps, tx, { ...value, actor: `op:${deps.mask(value.actor)}` }),
    { lockless: "refuse" },
  );
  deps.metrics.operations.inc({ op: "fulfil", outcome: result.status });
  if (result.status === "ok")
    deps.logger.info(
      { operator: deps.mask(value.actor), order: value.orderId, to: value.to },
      "order moved on by an operator",
    );
  return result;
}

async function advance(deps: CoreDeps, tx: Tx, input: Move): Promise<AdvanceOrderResult> {
  const [order] = await tx.$queryRaw<
    { id: number; status: OrderStatus; version: number; chatId: bigint }[]
  >`
    SELECT id, status::text AS status, version, chat_id AS "chatId"
      FROM orders WHERE public_id = ${input.orderId} FOR UPDATE`;
  if (!order) return NOT_FOUND;
  if (rank(order.status) >= rank(input.to)) {
    const last = await tx.orderTimelineEntry.findFirst({
      where: { orderId: order.id, event: "move", toStatus: order.status },
      orderBy: { id: "desc" },
    });
    return { status: "already", current: order.status, entry: last && timelineEntryView(last) };
  }
  if (!isLegalTransition(order.status, input.to))
    return { status: "conflict", current: order.status };
  const moved = await transition(tx, order.id, [order.status], input.to, {
    version: order.version,
    actor: input.actor,
    actorName: input.actorName,
    note: input.note,
  });
  // The row is locked: only a bug (an update outside the lock's transaction) loses here.
  if (!moved) throw new Error(`order ${input.orderId} changed under its row lock`);
  await queueStatusNotice(tx, input.orderId, input.to, input.note);
  const entry = await tx.orderTimelineEntry.findFirstOrThrow({
    where: { orderId: order.id, event: "move", toStatus: input.to },
  });
  return {
    status: "ok",
    order: (await findOrderByPublicId(tx, input.orderId))!,
    entry: timelineEntryView(entry),
  };
}
