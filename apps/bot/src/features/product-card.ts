import type { InlineKeyboard } from "grammy";
import type { ProductView } from "@orderbot/core";
import type { BotContext } from "../bot/context.ts";
import { callbacks } from "@orderbot/conversation";
import { showScreen } from "./screen.ts";

/**
 * Shows a product's card in place of the pressed message: a photo with the card as its caption
 * when the product has one, else text (screen.ts moves between the two). When the pressed message
 * is already this product's photo card (its − and + buttons), only the caption changes.
 */
export async function showProductCard(
  ctx: BotContext,
  product: ProductView,
  card: { text: string; keyboard: InlineKeyboard },
): Promise<void> {
  const current = ctx.callbackQuery?.message;
  const buttons = current?.reply_markup?.inline_keyboard.flat() ?? [];
  const ownCard =
    current !== undefined &&
    "photo" in current &&
    current.photo !== undefined &&
    buttons.some(
      (b) =>
        "callback_data" in b &&
        callbacks.product.decode(b.callback_data ?? "")?.productId === product.id,
    );
  await showScreen(ctx, { ...card, photo: product.photo }, { samePhoto: ownCard });
}
