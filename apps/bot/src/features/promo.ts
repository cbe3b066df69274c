import { Composer } from "grammy";
import type { CartService } from "@orderbot/core/cart";
import type { PromotionService } from "@orderbot/core/promotions";
import type {
  BotContext,
  PrivateButtonContext,
  PrivateCommandContext,
  PrivateContext,
} from "../bot/context.ts";
import { promoCallbacks, formatMoney } from "@orderbot/conversation";
import { refusalText } from "../format/promo.ts";
import { LOCALES } from "../format/translate.ts";
import { cartScreen } from "./cart-screen.ts";
import { showInPlace } from "./support.ts";

/** The prompt's text in every language: a reply to it is a promo code. */
function isPrompt(ctx: BotContext, text: string | undefined): boolean {
  return (
    text !== undefined &&
    LOCALES.some((locale) => ctx.i18n.fluent.translate(locale, "promo-prompt") === text)
  );
}

type PromoDeps = {
  promotions: Pick<PromotionService, "applyToCart" | "removeFromCart">;
  cart: Pick<CartService, "view">;
  maxUnitsPerLine: number;
};

/**
 * A customer's promo code (docs/architecture.md, Promo codes): `/promo CODE`, or "Promo code" on
 * the cart and the code as the reply to the bot's question. Core checks the code against the cart
 * and stores it with the cart (a new revision: a Checkout drawn before is "cart changed"); the cart
 * then shows the discount and the new total. A refused code says why, and nothing changes.
 */
export function promoFeature(deps: PromoDeps): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  const privateChats = feature.chatType("private");
  privateChats.command("promo", (ctx) => promoCommand(ctx, deps));
  privateChats.callbackQuery(promoCallbacks.ask.pattern, askForCode);
  privateChats.callbackQuery(promoCallbacks.remove.pattern, (ctx) => removeCode(ctx, deps));
  privateChats.on("message:text").filter(
    (ctx) =>
      ctx.message.reply_to_message?.from?.id === ctx.me.id &&
      isPrompt(ctx, ctx.message.reply_to_message.text),
    (ctx) => applyCode(ctx, deps, ctx.message.text),
  );
  return feature;
}

function prompt(ctx: BotContext) {
  return ctx.reply(ctx.t("promo-prompt"), {
    reply_markup: { force_reply: true, input_field_placeholder: "SALE10" },
  });
}

async function promoCommand(ctx: PrivateCommandContext, deps: PromoDeps) {
  const code = ctx.match.trim();
  if (code === "") return prompt(ctx);
  await applyCode(ctx, deps, code);
}

async function askForCode(ctx: PrivateButtonContext) {
  if (!promoCallbacks.ask.decode(ctx.callbackQuery.data))
    return ctx.answerCallbackQuery({ text: ctx.t("button-invalid") });
  await ctx.answerCallbackQuery();
  await prompt(ctx);
}

async function removeCode(ctx: PrivateButtonContext, deps: PromoDeps) {
  if (!promoCallbacks.remove.decode(ctx.callbackQuery.data))
    return ctx.answerCallbackQuery({ text: ctx.t("button-invalid") });
  const cart = await deps.promotions.removeFromCart(ctx.from.id);
  await ctx.answerCallbackQuery({ text: ctx.t("promo-removed") });
  const screen = cartScreen(ctx, cart, deps.maxUnitsPerLine);
  await showInPlace(ctx, screen.text, screen.keyboard);
}

/** The code checked against the cart and kept with it; the cart shown with its discount. */
async function applyCode(ctx: PrivateContext, deps: PromoDeps, code: string): Promise<void> {
  const result = await deps.promotions.applyToCart({ userId: ctx.from.id, code });
  switch (result.status) {
    case "ok": {
      const currency = result.cart.currency ?? "XTR";
      const screen = cartScreen(ctx, result.cart, deps.maxUnitsPerLine);
      await ctx.reply(
        [
          ctx.t("promo-applied", {
            code: result.cart.promo?.code ?? code,
            amount: formatMoney(result.price.discountMinor, currency),
            total: formatMoney(result.price.totalMinor, currency),
          }),
          "",
          screen.text,
        ].join("\n"),
        { reply_markup: screen.keyboard },
      );
      return;
    }
    case "empty":
      await ctx.reply(ctx.t("promo-cart-empty"));
      return;
    case "promo-refused":
      await ctx.reply(
        ctx.t("promo-refused", { code: result.code, why: refusalText(ctx.t, result) }),
      );
      return;
    case "invalid":
      await ctx.reply(ctx.t("promo-refused", { code: "", why: ctx.t("promo-refused-unknown") }));
      return;
  }
}
