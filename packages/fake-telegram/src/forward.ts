// A user forwarding a message to another chat, with Telegram's rule for invoices: a copy of an
// invoice sent without start_parameter keeps a working Pay button (anyone who sees it can pay the
// same invoice); with one, the copy gets a URL button to the bot's deep link instead and cannot
// be paid.
import type { InlineKeyboardMarkup } from "@grammyjs/types";
import { FakeTelegramError } from "./errors.ts";
import type { KitContext } from "./methods/context.ts";
import type { ChatRecord } from "./state.ts";
import type { TgMessage, User } from "./types.ts";
import { type PostedMessage, postUserMessage } from "./updates.ts";

export function forwardMessage(
  ctx: KitContext,
  user: User,
  from: ChatRecord,
  to: ChatRecord,
  messageId: number,
): PostedMessage {
  const source = from.messages.get(messageId);
  if (!source || source.deleted)
    throw new FakeTelegramError(`message ${messageId} is not in chat ${from.chat.id}`);
  const original = structuredClone(source.message);
  const origin: TgMessage["forward_origin"] = original.from
    ? { type: "user", sender_user: original.from, date: original.date }
    : { type: "hidden_user", sender_user_name: "", date: original.date };
  // What the copy keeps: the content, not the original's identity, reply or buttons.
  const content: Partial<TgMessage> = structuredClone(original);
  for (const key of ["message_id", "from", "chat", "date", "reply_to_message", "reply_markup"])
    delete content[key as keyof TgMessage];
  const markup = original.reply_markup;
  const startParameter = original.invoice?.start_parameter ?? "";
  const deepLink: InlineKeyboardMarkup | undefined =
    original.invoice && startParameter !== ""
      ? {
          inline_keyboard: [
            [
              {
                text: original.invoice.title,
                url: `https://t.me/${ctx.state.bot.username}?start=${startParameter}`,
              },
            ],
          ],
        }
      : undefined;
  const posted = postUserMessage(ctx, to, user, {
    ...content,
    forward_origin: origin,
    ...(deepLink ? { reply_markup: deepLink } : markup ? { reply_markup: markup } : {}),
  });
  // Payable only without a start_parameter: the copy is then a Pay button for the same invoice.
  if (source.invoice && startParameter === "")
    posted.stored.invoice = {
      payload: source.invoice.payload,
      currency: source.invoice.currency,
      totalAmount: source.invoice.totalAmount,
      providerToken: source.invoice.providerToken,
    };
  return posted;
}
