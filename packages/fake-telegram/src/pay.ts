// A user paying an invoice, step by step as Telegram runs it: pre_checkout_query, the bot's answer
// within the deadline, then the successful_payment message with a unique charge id.
import { FakeTelegramError } from "./errors.ts";
import type { KitContext } from "./methods/context.ts";
import { recordCharge, STARS, uniqueChargeId } from "./stars-ledger.ts";
import type { ChatRecord, ChargeRecord, StoredMessage } from "./state.ts";
import type { TgMessage, User } from "./types.ts";
import { postUpdate, postUserMessage } from "./updates.ts";
import { actionOf, type UserAction } from "./actions.ts";
import { waitForState } from "./waits.ts";

export interface PayOptions {
  /** The invoice message (or its id). Default: the newest unpaid invoice from the bot in the chat. */
  invoice?: TgMessage | number;
  /** How long the user waits for answerPreCheckoutQuery. Default: the kit's preCheckoutTimeoutMs (10 s). */
  timeoutMs?: number;
}

interface Attempted {
  /** The pre_checkout_query update. */
  preCheckout: UserAction;
  preCheckoutQueryId: string;
}

export type PaymentResult =
  | (Attempted &
      UserAction & {
        status: "paid";
        chargeId: string;
        providerChargeId: string;
        currency: string;
        totalAmount: number;
        payload: string;
        /** The successful_payment message (its update is this result's `update`). */
        message: TgMessage;
      })
  | (Attempted & { status: "declined"; errorMessage: string })
  | (Attempted & { status: "timeout" });

export async function payInvoice(
  ctx: KitContext,
  user: User,
  chat: ChatRecord,
  options: PayOptions,
): Promise<PaymentResult> {
  const stored = findInvoice(chat, options.invoice);
  const invoice = stored.invoice!;
  if (invoice.paidChargeId) {
    throw new FakeTelegramError(
      `invoice message ${stored.message.message_id} is already paid (${invoice.paidChargeId})`,
    );
  }
  const { state } = ctx;
  const id = state.allocateQueryId();
  state.preCheckoutQueries.set(id, {
    id,
    from: user,
    chatId: chat.chat.id,
    messageId: stored.message.message_id,
    createdAt: Date.now(),
    expired: false,
  });
  state.markUserAction(chat.chat.id);
  const queued = postUpdate(
    ctx,
    {
      pre_checkout_query: {
        id,
        from: user,
        currency: invoice.currency,
        total_amount: invoice.totalAmount,
        invoice_payload: invoice.payload,
      },
    },
    user.id,
  );
  const attempted: Attempted = { preCheckout: actionOf(queued), preCheckoutQueryId: id };
  const timeoutMs = options.timeoutMs ?? ctx.settings.preCheckoutTimeoutMs;
  const answer = await waitForState(
    ctx.state,
    () => state.preCheckoutQueries.get(id)?.answer ?? undefined,
    timeoutMs,
    () => {
      state.preCheckoutQueries.get(id)!.expired = true;
      return { ok: false, at: Date.now(), timedOut: true };
    },
  );
  if ("timedOut" in answer) return { ...attempted, status: "timeout" };
  if (!answer.ok)
    return { ...attempted, status: "declined", errorMessage: answer.errorMessage ?? "" };
  return { ...attempted, ...recordPayment(ctx, user, chat, stored) };
}

function recordPayment(
  ctx: KitContext,
  user: User,
  chat: ChatRecord,
  stored: StoredMessage,
): UserAction & { status: "paid" } & Omit<ChargeRecord, "userId" | "chatId" | "paidAt"> & {
    message: TgMessage;
  } {
  const invoice = stored.invoice!;
  const chargeId = uniqueChargeId(ctx.state);
  const providerChargeId =
    invoice.currency === STARS ? "" : `${Date.now()}_${chargeId.slice(3, 15)}`;
  recordCharge(ctx.state, {
    chargeId,
    providerChargeId,
    userId: user.id,
    chatId: chat.chat.id,
    currency: invoice.currency,
    totalAmount: invoice.totalAmount,
    payload: invoice.payload,
    paidAt: Date.now(),
  });
  invoice.paidChargeId = chargeId;
  const posted = postUserMessage(ctx, chat, user, {
    successful_payment: {
      currency: invoice.currency,
      total_amount: invoice.totalAmount,
      invoice_payload: invoice.payload,
      telegram_payment_charge_id: chargeId,
      provider_payment_charge_id: providerChargeId,
    },
  });
  return {
    ...actionOf(posted.queued),
    status: "paid",
    chargeId,
    providerChargeId,
    currency: invoice.currency,
    totalAmount: invoice.totalAmount,
    payload: invoice.payload,
    message: structuredClone(posted.stored.message),
  };
}

function findInvoice(chat: ChatRecord, wanted: PayOptions["invoice"]): StoredMessage {
  if (wanted !== undefined) {
    const messageId = typeof wanted === "number" ? wanted : wanted.message_id;
    const stored = chat.messages.get(messageId);
    if (stored?.message.invoice && !stored.invoice && !stored.deleted) {
      throw new FakeTelegramError(
        `message ${messageId} in chat ${chat.chat.id} is a forwarded invoice with a start_parameter: it has no Pay button, only a deep link to the bot`,
      );
    }
    if (!stored?.invoice || stored.deleted) {
      throw new FakeTelegramError(`message ${messageId} in chat ${chat.chat.id} is not an invoice`);
    }
    return stored;
  }
  const newest = [...chat.messages.values()]
    .reverse()
    .find((m) => m.invoice && !m.deleted && !m.invoice.paidChargeId);
  if (!newest) throw new FakeTelegramError(`no unpaid invoice in chat ${chat.chat.id}`);
  return newest;
}
