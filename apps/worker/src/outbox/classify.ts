import { GrammyError, HttpError } from "grammy";
import { cutText } from "@orderbot/platform";
import { InvalidOutboxMessageError } from "./api-call.ts";
import type { SendResult } from "./retry.ts";

/** Characters of an error kept as an outbox message's `last_error`. */
const MAX_ERROR_TEXT = 300;

/**
 * 400s that mean the call's effect is already there, or nothing is left to do: an edit that
 * changes nothing, a refund of a charge already refunded (a resend after a crash between the call
 * and its commit), a card or invoice the customer deleted (or too old for Telegram to delete), a
 * card that became a photo (its caption is the product's, not the order's: nothing to correct).
 */
const ALREADY_DONE =
  /message is not modified|CHARGE_ALREADY_REFUNDED|message to (?:edit|delete) not found|message can't be (?:edited|deleted)|there is no text in the message to edit/i;

/**
 * Maps what a Bot API call threw onto a SendResult. The error text kept for `last_error` is
 * Telegram's description or the network error's class, never a URL (which carries the token).
 */
export function classify(error: unknown): SendResult {
  if (error instanceof GrammyError) {
    const description = cutText(`${error.error_code}: ${error.description}`, MAX_ERROR_TEXT);
    if (error.error_code === 429) {
      const seconds = error.parameters.retry_after ?? 1;
      return {
        kind: "rate-limited",
        retryAfterMs: Math.max(1, seconds) * 1000,
        error: description,
      };
    }
    if (error.error_code >= 500) return { kind: "transient", error: description };
    // A bad token fails every call alike; dead-lettering would lose every message on the way.
    if (
      error.error_code === 401 ||
      (error.error_code === 404 && /^Not Found$/i.test(error.description))
    )
      return { kind: "unauthorized", error: description };
    // The group became a supergroup: the same message goes to its new id.
    const movedTo = error.parameters.migrate_to_chat_id;
    if (error.error_code === 400 && movedTo !== undefined)
      return { kind: "moved", toChatId: BigInt(movedTo), error: description };
    if (error.error_code === 400 && ALREADY_DONE.test(error.description)) return { kind: "ok" };
    return { kind: "permanent", code: error.error_code, error: description };
  }
  if (error instanceof InvalidOutboxMessageError)
    return { kind: "permanent", code: 0, error: cutText(error.message, MAX_ERROR_TEXT) };
  if (error instanceof HttpError) {
    const inner = error.error instanceof Error ? error.error.name : "network error";
    return { kind: "transient", error: `network: ${inner}` };
  }
  return { kind: "transient", error: error instanceof Error ? `${error.name}` : "unknown error" };
}
