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

/**
 * Every text in the update made well-formed, in place: a lone UTF-16 surrogate (half an emoji,
 * which JSON can carry as "\ud83d") becomes U+FFFD. Done once, before anything reads the update,
 * so no name or message can reach a jsonb column or a Bot API call as invalid UTF-8.
 */
export function wellFormedUpdate<T extends object>(update: T): T {
  const values = update as Record<string, unknown>;
  for (const key of Object.keys(values)) {
    const value = values[key];
    if (typeof value === "string") {
      if (!value.isWellFormed()) values[key] = value.toWellFormed();
    } else if (typeof value === "object" && value !== null) wellFormedUpdate(value);
  }
  return update;
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
