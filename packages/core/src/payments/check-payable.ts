import { closedToPayment } from "./pay-window.ts";
import { runTransaction, sqlStateOf, TransactionAbortedError, type Tx } from "@orderbot/db";
import { z } from "zod";
import type { CoreDeps } from "../deps.ts";
import { publicIdSchema } from "../orders/public-id-schema.ts";
import { findOrderByPublicId } from "../orders/queries.ts";
import { transition } from "../orders/transitions.ts";
import { isDatabaseOverloaded } from "../database/db-errors.ts";
import { currencySchema, parseWith, telegramId } from "../validation.ts";
import type { OrderView } from "../views.ts";
import { shippingAddressSchema } from "../shipping/order-info.ts";
import { isPhysicalOrder, shippingCharge } from "../shipping/shipping-charge.ts";

/** Why a pre-checkout is refused. The bot maps each code to a message in the user's language. */
export type PayRefusal =
  | "invalid"
  /** No such order, or another customer's: alike, so the answer tells nothing about the latter. */
  | "not-found"
  | "expired"
  | "cancelled"
  | "already-paid"
  | "wrong-amount"
  | "wrong-currency"
  /** A physical order's shipping option is missing, unknown, or does not ship to the address. */
  | "wrong-shipping"
  /** Another action on this order is running; try again. */
  | "busy"
  /** The answer could not be given within the deadline. */
  | "timeout"
  | "unavailable";

export type CheckPayableResult =
  { status: "ok"; order: OrderView } | { status: "refused"; reason: PayRefusal };

export interface CheckPayableInput {
  orderId: string;
  userId: bigint | number | string;
  /** What the invoice asks for: Telegram's total_amount and currency. */
  amount: number;
  currency: string;
  /**
   * A physical order's: the pre_checkout_query's shipping_option_id and order_info's address. The
   * amount must then be the goods plus that option's configured price.
   */
  shippingOptionId?: string | undefined;
  shippingAddress?: { country_code: string } | undefined;
  /** Defaults to config.checkPayableDeadlineMs (8 s of Telegram's 10). */
  deadlineMs?: number;
  /**
   * When the pre-checkout query reached this process (`performance.now()`): the deadline counts
   * from then, not from this call, since Telegram's 10 s do (a saturated pool or a slow Redis may
   * have held the update up before it got here). Defaults to now.
   */
  receivedAt?: number;
}

const inputSchema = z.object({
  orderId: publicIdSchema,
  userId: telegramId,
  amount: z.number().int().positive(),
  currency: currencySchema,
  shippingOptionId: z.string().min(1).max(64).optional(),
  shippingAddress: shippingAddressSchema.pick({ country_code: true }).optional(),
  deadlineMs: z.number().int().min(50).max(9_500).optional(),
  receivedAt: z
    .number()
    .finite()
    .refine((at) => at <= performance.now(), "must not be in the future")
    .optional(),
});

/** SQLSTATE of a lock_timeout. */
const LOCK_NOT_AVAILABLE = "55P03";

const refused = (reason: PayRefusal): CheckPayableResult => ({ status: "refused", reason });

/**
 * Pre-checkout: may this order be paid now? Answers within a deadline, since Telegram drops the
 * payment if `answerPreCheckoutQuery` does not come within 10 s. On yes, the order moves RESERVED →
 * PAYING and its hold is extended by the payment grace, so the expiry job cannot release stock
 * that a payment in flight is about to pay for. Conditional on the version read; idempotent for
 * an order already PAYING (the hold is extended again).
 */
export function createCheckPayable(deps: CoreDeps) {
  return (raw: CheckPayableInput): Promise<CheckPayableResult> => checkPayable(deps, raw);
}

type Input = z.output<typeof inputSchema>;
type OrderRow = NonNullable<Awaited<ReturnType<Tx["order"]["findUnique"]>>>;

async function checkPayable(deps: CoreDeps, raw: CheckPayableInput): Promise<CheckPayableResult> {
  const parsed = parseWith(inputSchema, raw);
  const result = parsed.ok ? await check(deps, parsed.value) : refused("invalid");
  deps.metrics.operations.inc({
    op: "check_payable",
    outcome: result.status === "ok" ? "ok" : result.reason,
  });
  return result;
}

async function check(deps: CoreDeps, input: Input): Promise<CheckPayableResult> {
  const endsAt =
    (input.receivedAt ?? performance.now()) +
    (input.deadlineMs ?? deps.config.checkPayableDeadlineMs);
  const leftMs = Math.floor(endsAt - performance.now());
  if (leftMs <= 0) return refused("timeout"); // too late to answer in time: say no rather than start
  const deadline = AbortSignal.timeout(leftMs);
  try {
    const outcome = await deps.locks.withLock(
      { kind: "order", id: input.orderId },
      // Lockless when Redis is down (the `order` kind's policy): the transition is conditional.
      ({ signal }) =>
        runTransaction(
          deps.db,
          (tx) => markPaying(deps, tx, input, Math.floor(endsAt - performance.now())),
          {
            signal: AbortSignal.any([signal, deadline]),
            timeoutMs: Math.max(
              50,
              Math.min(deps.config.transactionTimeoutMs, endsAt - performance.now()),
            ),
            maxWaitMs: Math.max(
              10,
              Math.min(deps.config.transactionMaxWaitMs, endsAt - performance.now()),
            ),
            retries: 1,
          },
        ),
      // The kind's short wait (<= 2 s), cut short by the deadline.
      { signal: deadline, requestId: deps.requestId() },
    );
    if (outcome.status === "ok") return outcome.value;
    if (deadline.aborted) return refused("timeout");
    return refused(outcome.status === "busy" ? "busy" : "unavailable");
  } catch (error) {
    return refusalForError(error, deadline);
  }
}

/** A transaction that failed: the refusal to answer with, or the error rethrown. */
function refusalForError(error: unknown, deadline: AbortSignal): CheckPayableResult {
  if (error instanceof TransactionAbortedError)
    return refused(deadline.aborted ? "timeout" : "unavailable");
  if (deadline.aborted || sqlStateOf(error) === LOCK_NOT_AVAILABLE) return refused("timeout");
  // No pool connection in time: answer now (Telegram drops an unanswered pre-checkout).
  if (isDatabaseOverloaded(error)) return refused("busy");
  throw error;
}

async function markPaying(
  deps: CoreDeps,
  tx: Tx,
  input: Input,
  leftMs: number,
): Promise<CheckPayableResult> {
  // A row lock held elsewhere must not make us miss Telegram's deadline: give up waiting in time.
  await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = ${Math.max(1, leftMs)}`);
  const now = deps.clock.now();
  const holdUntil = new Date(now.getTime() + deps.config.paymentGraceMs);
  for (;;) {
    const order = await tx.order.findUnique({ where: { publicId: input.orderId } });
    if (!order || order.userId !== input.userId) return refused("not-found");
    const refusal =
      closedToPayment(order, now, deps.config.paymentGraceMs) ??
      (await chargeRefusal(deps, tx, order, input));
    if (refusal) return refused(refusal);
    // An open order's version counts its changes: 1 for RESERVED → PAYING, 1 per extension.
    // Past maxPayingExtensions the hold is what it is: yes while it lasts, nothing extended.
    if (order.status === "PAYING" && order.version - 1 >= deps.config.maxPayingExtensions) {
      if (order.expiresAt <= now) return refused("expired");
      const view = await findOrderByPublicId(tx, input.orderId);
      return { status: "ok", order: view! };
    }
    const expiresAt = order.expiresAt > holdUntil ? order.expiresAt : holdUntil;
    // Cancelled, expired or paid meanwhile: read again and answer for that.
    if (!(await holdForPayment(tx, order, expiresAt))) continue;
    const view = await findOrderByPublicId(tx, input.orderId);
    return { status: "ok", order: view! };
  }
}

/** Whether the invoice asks for this order's currency, shipping and amount; null if it does. */
async function chargeRefusal(
  deps: CoreDeps,
  tx: Tx,
  order: OrderRow,
  input: Input,
): Promise<PayRefusal | null> {
  if (input.currency !== order.currency) return "wrong-currency";
  const charge = shippingCharge(deps.config.shippingOptions, {
    physical: await isPhysicalOrder(tx, order.id),
    goodsMinor: order.totalMinor,
    shippingOptionId: input.shippingOptionId,
    address: input.shippingAddress,
  });
  if (!charge.ok) return "wrong-shipping";
  return input.amount !== charge.payableMinor ? "wrong-amount" : null;
}

/** RESERVED → PAYING, or a PAYING hold extended; false if the version read is stale. */
async function holdForPayment(tx: Tx, order: OrderRow, expiresAt: Date): Promise<boolean> {
  if (order.status === "RESERVED")
    return transition(tx, order.id, ["RESERVED"], "PAYING", {
      version: order.version,
      expiresAt,
    });
  const updated = await tx.order.updateMany({
    where: { id: order.id, status: "PAYING", version: order.version },
    data: { expiresAt, version: { increment: 1 } },
  });
  return updated.count === 1;
}
