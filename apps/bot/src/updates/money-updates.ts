import type { Update } from "grammy/types";

/**
 * Whether an update reports money that Telegram has already moved: a successful payment (the
 * buyer is charged) or a refunded one. Dropping such an update loses a charge or a refund, so the
 * poller never skips it and the webhook answers 500 until it is recorded.
 */
export function carriesMoney(update: Update): boolean {
  const message = update.message;
  return message?.successful_payment !== undefined || message?.refunded_payment !== undefined;
}
