import type { Update } from "grammy/types";

/**
 * The minimum a webhook body must be before anything else looks at it: an object with a
 * non-negative integer update_id. Everything inside is validated later, by the features.
 */
export function parseUpdate(body: unknown): Update | null {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return null;
  const id = (body as { update_id?: unknown }).update_id;
  if (typeof id !== "number" || !Number.isSafeInteger(id) || id < 0) return null;
  return body as Update;
}

/** The chat an update belongs to, for per-chat ordering; undefined for chatless updates. */
export function chatIdOf(update: Update): number | undefined {
  return (
    update.message?.chat.id ??
    update.edited_message?.chat.id ??
    update.callback_query?.message?.chat.id ??
    update.callback_query?.from.id ??
    update.pre_checkout_query?.from.id ??
    update.shipping_query?.from.id ??
    update.my_chat_member?.chat.id ??
    update.chat_member?.chat.id
  );
}
