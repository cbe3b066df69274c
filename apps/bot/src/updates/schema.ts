import type { Update } from "grammy/types";
import { z } from "zod";

// The shape of the updates the features act on, checked before grammY sees them. Telegram never
// sends anything else, so an update that fails this was forged or mangled: it is acknowledged and
// ignored, and nothing about it is stored. Only the fields the bot reads are checked; the rest
// passes through untouched (loose objects), so a new Bot API field never breaks the bot.

const int = z.number().int().refine(Number.isSafeInteger);
const positive = int.refine((n) => n > 0);

const user = z.looseObject({
  id: positive,
  is_bot: z.boolean(),
  first_name: z.string().max(256),
  language_code: z.string().max(35).optional(),
});

const chat = z.looseObject({
  id: int.refine((n) => n !== 0),
  type: z.enum(["private", "group", "supergroup", "channel"]),
  title: z.string().max(256).optional(),
});

const entity = z.looseObject({ type: z.string().max(64), offset: int.min(0), length: int.min(0) });

const successfulPayment = z.looseObject({
  currency: z.string().regex(/^[A-Z]{3}$/),
  total_amount: positive,
  invoice_payload: z.string().min(1).max(128),
  telegram_payment_charge_id: z.string().min(1).max(256),
  provider_payment_charge_id: z.string().max(256).optional(),
});

const message = z.looseObject({
  message_id: positive,
  date: int.min(0),
  chat,
  from: user.optional(),
  text: z.string().max(4096).optional(),
  entities: z.array(entity).max(100).optional(),
  successful_payment: successfulPayment.optional(),
  contact: z
    .looseObject({ phone_number: z.string().max(64), first_name: z.string().max(256) })
    .optional(),
});

const callbackQuery = z.looseObject({
  id: z.string().min(1).max(256),
  from: user,
  chat_instance: z.string().max(256),
  message: message.optional(),
  data: z.string().max(256).optional(),
});

const preCheckoutQuery = z.looseObject({
  id: z.string().min(1).max(256),
  from: user,
  currency: z.string().regex(/^[A-Z]{3}$/),
  total_amount: positive,
  invoice_payload: z.string().min(1).max(128),
});

/** A flexible provider invoice's address step (features/shipping.ts); answered from config alone. */
const shippingQuery = z.looseObject({
  id: z.string().min(1).max(256),
  from: user,
  invoice_payload: z.string().min(1).max(128),
  shipping_address: z.looseObject({ country_code: z.string().max(8) }),
});

const chatMemberUpdated = z.looseObject({
  chat,
  from: user,
  date: int.min(0),
  old_chat_member: z.looseObject({ status: z.string(), user }),
  new_chat_member: z.looseObject({ status: z.string(), user }),
});

/**
 * The update types the bot subscribes to (setWebhook's and getUpdates' allowed_updates).
 * chat_member (others' membership changes, sent only when asked for, and only while the bot is
 * an admin) keeps the admin cache honest; my_chat_member (the bot's own) tells it when it is
 * removed from the operator group.
 */
export const HANDLED_UPDATE_TYPES = [
  "message",
  "callback_query",
  "pre_checkout_query",
  "shipping_query",
  "chat_member",
  "my_chat_member",
] as const;

const payloads = {
  message,
  callback_query: callbackQuery,
  pre_checkout_query: preCheckoutQuery,
  shipping_query: shippingQuery,
  chat_member: chatMemberUpdated,
  my_chat_member: chatMemberUpdated,
} satisfies Record<(typeof HANDLED_UPDATE_TYPES)[number], z.ZodType>;

/**
 * True when the update is one the features can act on: exactly one payload, of a handled type,
 * with sound field types. Anything else is acknowledged without being run or recorded.
 */
export function isActionable(update: Update): boolean {
  const keys = Object.keys(update).filter((key) => key !== "update_id");
  if (keys.length !== 1) return false;
  const type = keys[0] as keyof typeof payloads;
  const schema = payloads[type] as z.ZodType | undefined;
  return (
    schema !== undefined &&
    schema.safeParse((update as unknown as Record<string, unknown>)[type]).success
  );
}
