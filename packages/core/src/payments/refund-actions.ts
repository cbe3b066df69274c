import { runTransaction, type PaymentStatus, type Tx } from "@orderbot/db";
import { z } from "zod";
import type { CoreDeps } from "../deps.ts";
import { enqueueOutbox } from "../outbox/messages.ts";
import { invalid, NOT_FOUND, type Invalid, type NotFound } from "../results.ts";
import { refusalOf, type Actor, type Forbidden } from "../rights/may-do.ts";
import { parseWith, telegramId } from "../validation.ts";
import { STARS, starRefundKey } from "./pending-refunds.ts";

/** A payment as an operator names it: its row (a button) or its Telegram charge id (typed). */
export type PaymentRef = { paymentId: number } | { telegramChargeId: string };

/** Why an action on a payment that is not owed back did nothing. */
export type NotOwed =
  /** Refunded already (by the bot, Telegram or an operator): nothing is owed. */
  | { status: "already-refunded"; refundedBy: string | null; refundedAt: Date | null }
  /** The payment pays for its order: nothing is owed. */
  | { status: "not-owed" };

export type RetryRefundResult =
  /** The refund call is queued again (or for the first time); the relay sends it. */
  | { status: "ok"; telegramChargeId: string }
  /** A call is already on its way: nothing to retry. */
  | { status: "waiting"; telegramChargeId: string }
  /** Not Stars: only the provider can refund it, then an operator marks it refunded. */
  | { status: "not-stars" }
  | NotOwed
  | NotFound
  | Invalid
  | Forbidden;

export type MarkRefundedResult =
  { status: "ok"; telegramChargeId: string } | NotOwed | NotFound | Invalid | Forbidden;

export const REFUND_NOTE_MAX = 500;

const refSchema = z.union([
  z.object({ paymentId: z.number().int().positive().max(2_147_483_647) }),
  z.object({ telegramChargeId: z.string().trim().min(1).max(256) }),
]);
const markSchema = z.object({
  ref: refSchema,
  actor: telegramId,
  note: z.string().trim().max(REFUND_NOTE_MAX).nullish(),
});

interface PaymentRow {
  id: number;
  telegramChargeId: string;
  userId: bigint;
  currency: string;
  status: PaymentStatus;
  refundedBy: string | null;
  refundedAt: Date | null;
}

const where = (ref: PaymentRef) =>
  "paymentId" in ref ? { id: ref.paymentId } : { telegramChargeId: ref.telegramChargeId };

function notOwed(p: PaymentRow): NotOwed {
  return p.status === "REFUNDED"
    ? { status: "already-refunded", refundedBy: p.refundedBy, refundedAt: p.refundedAt }
    : { status: "not-owed" };
}

/**
 * What operators do about a refund that needs a person (/refunds). Neither can refund twice:
 * a retried Stars call is the one `refund:<charge>` outbox row set back from DEAD to PENDING by a
 * conditional update (the key is unique, so there is never a second call row), Telegram answers a
 * second refund of a charge with CHARGE_ALREADY_REFUNDED, and the payment leaves REFUND_PENDING
 * once, by a conditional update, whoever gets there first.
 */
export type RefundActions = ReturnType<typeof createRefundActions>;

export interface MarkRefundedInput {
  ref: PaymentRef;
  /** Needs the rights table's right for `refund-mark`. */
  actor: Actor;
  note?: string | null;
}

export function createRefundActions(deps: CoreDeps) {
  return {
    /** Sends a Stars refund that Telegram refused (or that has no call yet) again. */
    retryRefund: (ref: PaymentRef, actor: Actor) => retryRefund(deps, ref, actor),
    /**
     * An operator says the money went back outside the bot (the provider's dashboard, Telegram
     * support): REFUND_PENDING → REFUNDED, once, with who, when and their note.
     */
    markRefundedByHand: (input: MarkRefundedInput) => markRefundedByHand(deps, input),
  };
}

async function retryRefund(
  deps: CoreDeps,
  ref: PaymentRef,
  actor: Actor,
): Promise<RetryRefundResult> {
  const refused = refusalOf("refund-retry", actor);
  if (refused) return refused;
  const parsed = parseWith(z.object({ ref: refSchema, actor: telegramId }), {
    ref,
    actor: actor.id,
  });
  if (!parsed.ok) return invalid(parsed.problems);
  const result = await runTransaction(deps.db, async (tx): Promise<RetryRefundResult> => {
    // The payment row lock orders this against another retry and a completion.
    const r = parsed.value.ref;
    const [current] = await tx.$queryRaw<PaymentRow[]>`
      SELECT id, telegram_charge_id AS "telegramChargeId", user_id AS "userId", currency,
             status::text AS status, refunded_by AS "refundedBy", refunded_at AS "refundedAt"
        FROM payments
       WHERE id = ${"paymentId" in r ? r.paymentId : null}
          OR telegram_charge_id = ${"telegramChargeId" in r ? r.telegramChargeId : null}
       FOR UPDATE`;
    if (!current) return NOT_FOUND;
    if (current.status !== "REFUND_PENDING") return notOwed(current);
    if (current.currency !== STARS) return { status: "not-stars" };
    const queued = await queueStarRefundAgain(tx, current);
    return { status: queued ? "ok" : "waiting", telegramChargeId: current.telegramChargeId };
  });
  deps.metrics.operations.inc({ op: "retry_refund", outcome: result.status });
  if (result.status === "ok")
    deps.logger.info({ operator: deps.mask(parsed.value.actor) }, "refund retried by an operator");
  return result;
}

/** The refund call's outbox row back from DEAD, or queued if it has none; false: one is on its way. */
async function queueStarRefundAgain(tx: Tx, current: PaymentRow): Promise<boolean> {
  const key = starRefundKey(current.telegramChargeId);
  const revived = await tx.$executeRaw`
    UPDATE outbox_messages
       SET status = 'PENDING', attempts = 0, next_attempt_at = timezone('UTC', now()), last_error = NULL
     WHERE dedupe_key = ${key} AND status = 'DEAD'`;
  if (revived === 1) return true;
  const queued = await enqueueOutbox(tx, [
    {
      dedupeKey: key,
      chatId: current.userId,
      method: "refundStarPayment",
      payload: {
        user_id: Number(current.userId),
        telegram_payment_charge_id: current.telegramChargeId,
      },
    },
  ]);
  return queued === 1;
}

async function markRefundedByHand(
  deps: CoreDeps,
  input: MarkRefundedInput,
): Promise<MarkRefundedResult> {
  const refused = refusalOf("refund-mark", input.actor);
  if (refused) return refused;
  const parsed = parseWith(markSchema, { ...input, actor: input.actor.id });
  if (!parsed.ok) return invalid(parsed.problems);
  const { ref, actor, note } = parsed.value;
  const { count } = await deps.db.payment.updateMany({
    where: { ...where(ref), status: "REFUND_PENDING" },
    data: {
      status: "REFUNDED",
      refundedAt: deps.clock.now(),
      refundedBy: `op:${deps.mask(actor)}`,
      refundNote: note ? note : null,
    },
  });
  const payment = (await deps.db.payment.findFirst({ where: where(ref) })) as PaymentRow | null;
  let result: MarkRefundedResult;
  if (!payment) result = NOT_FOUND;
  else if (count === 1) result = { status: "ok", telegramChargeId: payment.telegramChargeId };
  else result = notOwed(payment);
  deps.metrics.operations.inc({ op: "mark_refunded", outcome: result.status });
  if (result.status === "ok")
    deps.logger.info({ operator: deps.mask(actor) }, "refund marked done by an operator");
  return result;
}
