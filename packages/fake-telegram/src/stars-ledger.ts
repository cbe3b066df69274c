// The bot's Telegram Stars ledger: every Stars charge and refund, in the order they happened, as
// getStarTransactions shows them. A refund, whoever made it (the bot's refundStarPayment or
// Telegram itself), marks the charge refunded, joins the ledger with the charge's id and posts a
// refunded_payment service message in the payer's chat.
import { randomBytes } from "node:crypto";
import type { StarTransaction } from "@grammyjs/types";
import { FakeTelegramError } from "./errors.ts";
import { type KitContext, unixNow } from "./methods/context.ts";
import type { ChargeRecord, TelegramState } from "./state.ts";
import { postUserMessage } from "./updates.ts";

export const STARS = "XTR";

/** A fresh telegram_payment_charge_id, unique among the kit's charges. */
export function uniqueChargeId(state: TelegramState): string {
  let id: string;
  do id = `stx${randomBytes(36).toString("base64url")}`;
  while (state.charges.has(id));
  return id;
}

/** Stores a charge; a Stars one also enters the ledger (other currencies are the provider's). */
export function recordCharge(state: TelegramState, charge: ChargeRecord): void {
  state.charges.set(charge.chargeId, charge);
  if (charge.currency === STARS) {
    state.starLedger.push({
      direction: "in",
      chargeId: charge.chargeId,
      date: Math.floor(charge.paidAt / 1000),
    });
  }
}

/** The refund itself; callers check first that it is allowed (refundStarPayment's errors). */
export function refundCharge(ctx: KitContext, charge: ChargeRecord): void {
  charge.refundedAt = Date.now();
  ctx.state.starLedger.push({ direction: "out", chargeId: charge.chargeId, date: unixNow() });
  const chat = ctx.state.chats.get(charge.chatId);
  const user = ctx.state.users.get(charge.userId);
  if (chat && user) {
    postUserMessage(ctx, chat, user.user, {
      refunded_payment: {
        currency: charge.currency,
        total_amount: charge.totalAmount,
        invoice_payload: charge.payload,
        telegram_payment_charge_id: charge.chargeId,
      },
    });
  }
  ctx.state.notify();
}

/** A refund made outside the bot (Telegram support): the same effects, no Bot API call. */
export function refundFromOutside(ctx: KitContext, chargeId: string): ChargeRecord {
  const charge = ctx.state.charges.get(chargeId);
  if (!charge || charge.currency !== STARS)
    throw new FakeTelegramError(`no Stars charge ${chargeId}`);
  if (charge.refundedAt !== undefined)
    throw new FakeTelegramError(`charge ${chargeId} is already refunded`);
  refundCharge(ctx, charge);
  return structuredClone(charge);
}

/**
 * A ledger entry in the Bot API's shape. A payment is incoming: `source` is the paying user; a
 * refund is outgoing: `receiver` is the user refunded. Both carry the charge's id, and amounts
 * are positive (the direction is in source/receiver).
 */
export function starTransactionOf(
  state: TelegramState,
  entry: TelegramState["starLedger"][number],
): StarTransaction {
  const charge = state.charges.get(entry.chargeId)!;
  const user = state.users.get(charge.userId)?.user ?? {
    id: charge.userId,
    is_bot: false,
    first_name: `User${String(charge.userId).slice(-4)}`,
  };
  const partner = {
    type: "user" as const,
    transaction_type: "invoice_payment" as const,
    user,
    invoice_payload: charge.payload,
  };
  return {
    id: charge.chargeId,
    amount: charge.totalAmount,
    date: entry.date,
    ...(entry.direction === "in" ? { source: partner } : { receiver: partner }),
  };
}
