import type { Transformer } from "grammy";
import { SEND_PRIORITY, type SendBudget } from "@orderbot/platform";

/** Methods that put a message in a chat: the ones Telegram's limits, and the budget, count. */
export const SENDING_METHODS = new Set([
  "sendMessage",
  "sendInvoice",
  "sendPhoto",
  "sendDocument",
  "sendAnimation",
  "sendVideo",
  "sendAudio",
  "sendVoice",
  "sendSticker",
  "sendMediaGroup",
  "sendLocation",
  "sendContact",
  "sendPoll",
  "sendDice",
  "copyMessage",
  "forwardMessage",
]);

/**
 * Every message the bot sends takes its place in the bot's shared budget first, as a reply to the
 * customer's own action (priority 0), and a 429 pauses every sender of the bot for its
 * retry_after. A place that is not free within the call's deadline (a long pause) comes back as a
 * 429 without reaching Telegram, so the retrier and the update's re-delivery treat both alike.
 * When Redis does not answer the call goes on: the per-user rate limit still bounds replies.
 * Install it first (innermost): each retry takes its own place.
 */
export function budgetedSends(budget: SendBudget, deadlineMs: number): Transformer {
  return async (prev, method, payload, signal) => {
    const chatId = (payload as { chat_id?: unknown }).chat_id;
    if (!SENDING_METHODS.has(method) || !(typeof chatId === "number" || typeof chatId === "string"))
      return prev(method, payload, signal);
    const taken = await budget.take(chatId, SEND_PRIORITY.reply, {
      maxWaitMs: deadlineMs,
      ...(signal ? { signal: signal as AbortSignal } : {}),
    });
    // Aborted: the deadline has passed and the caller has moved on; Telegram need not hear of it.
    if (taken.kind === "later" || taken.kind === "aborted")
      return budgetRefusal(taken.kind === "later" ? taken.waitMs : 0);
    const result = await prev(method, payload, signal).finally(() => {
      if (taken.kind === "taken") void budget.answered(taken.place).catch(() => undefined);
    });
    const retryAfter = result.ok ? undefined : result.parameters?.retry_after;
    if (!result.ok && result.error_code === 429 && retryAfter !== undefined)
      await budget.pause(retryAfter * 1000).catch(() => undefined);
    return result;
  };
}

/** What Telegram would answer: the wait rounded up to whole seconds. */
function budgetRefusal(waitMs: number) {
  const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
  return {
    ok: false as const,
    error_code: 429,
    description: `Too Many Requests: the bot's send budget is spent, retry after ${retryAfter}`,
    parameters: { retry_after: retryAfter },
  };
}
