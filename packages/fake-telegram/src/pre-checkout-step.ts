// The last step of paying: Telegram sends the bot a pre_checkout_query with what the buyer's form
// holds and waits for answerPreCheckoutQuery; no answer within the deadline fails the payment.
import type { OrderInfo } from "@grammyjs/types";
import { actionOf, type UserAction } from "./actions.ts";
import type { KitContext } from "./methods/context.ts";
import type { ChatRecord, StoredMessage } from "./state.ts";
import type { User } from "./types.ts";
import { postUpdate } from "./updates.ts";
import { waitForState } from "./waits.ts";

export interface FormDetails {
  /** The invoice's prices plus the chosen shipping option's. */
  totalAmount: number;
  shippingOptionId: string | undefined;
  orderInfo: OrderInfo | undefined;
}

export type PreCheckoutStep = { preCheckout: UserAction; preCheckoutQueryId: string } & (
  { status: "answered" } | { status: "declined"; errorMessage: string } | { status: "timeout" }
);

/** Sends the pre_checkout_query and waits (at most `timeoutMs`) for answerPreCheckoutQuery. */
export async function askPreCheckout(
  ctx: KitContext,
  user: User,
  chat: ChatRecord,
  stored: StoredMessage,
  form: FormDetails,
  timeoutMs: number,
): Promise<PreCheckoutStep> {
  const { state } = ctx;
  const invoice = stored.invoice!;
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
        total_amount: form.totalAmount,
        invoice_payload: invoice.payload,
        ...(form.shippingOptionId !== undefined
          ? { shipping_option_id: form.shippingOptionId }
          : {}),
        ...(form.orderInfo ? { order_info: structuredClone(form.orderInfo) } : {}),
      },
    },
    user.id,
  );
  const sent = { preCheckout: actionOf(queued), preCheckoutQueryId: id };
  const answer = await waitForState(
    state,
    () => state.preCheckoutQueries.get(id)?.answer ?? undefined,
    timeoutMs,
    () => {
      state.preCheckoutQueries.get(id)!.expired = true;
      return { ok: false, at: Date.now(), timedOut: true };
    },
  );
  if ("timedOut" in answer) return { ...sent, status: "timeout" };
  if (!answer.ok) return { ...sent, status: "declined", errorMessage: answer.errorMessage ?? "" };
  return { ...sent, status: "answered" };
}
