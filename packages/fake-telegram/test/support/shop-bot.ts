// A tiny grammY shop bot for the kit's own tests: /start shows an Order button, Order reserves and
// offers Pay, Pay sends a Stars invoice, the pre-checkout is approved, a payment is thanked for.
import Fastify, { type FastifyInstance } from "fastify";
import { Bot, InlineKeyboard, webhookCallback } from "grammy";
import type { AddressInfo } from "node:net";
import type { FakeTelegram } from "../../src/index.ts";

export interface ShopBotOptions {
  /** Answer pre-checkout queries with this error instead of ok. */
  declineWith?: string;
}

export function createShopBot(tg: FakeTelegram, options: ShopBotOptions = {}): Bot {
  const bot = new Bot(tg.token, { client: { apiRoot: tg.apiRoot } });
  bot.command("start", (ctx) =>
    ctx.reply(`Welcome, ${ctx.from?.first_name ?? "friend"}! Pick a product.`, {
      reply_markup: new InlineKeyboard().text("Order", "o:widget:2"),
    }),
  );
  bot.callbackQuery(/^o:([a-z]+):(\d+)$/, async (ctx) => {
    const [, sku, quantity] = ctx.match;
    await ctx.answerCallbackQuery({ text: "Reserved" });
    await ctx.editMessageText(`Order: ${quantity} × ${sku}, reserved for 15 minutes`, {
      reply_markup: new InlineKeyboard()
        .text("Pay", `p:${sku}:${quantity}`)
        .text("Cancel", `c:${sku}`),
    });
  });
  bot.callbackQuery(/^p:([a-z]+):(\d+)$/, async (ctx) => {
    const [, sku, quantity] = ctx.match;
    await ctx.answerCallbackQuery();
    await ctx.replyWithInvoice("Widget", `${quantity} widgets`, `order:${sku}:${quantity}`, "XTR", [
      { label: "Widgets", amount: 5 * Number(quantity) },
    ]);
  });
  bot.callbackQuery(/^c:/, async (ctx) => {
    await ctx.answerCallbackQuery({ text: "Cancelled" });
    await ctx.editMessageText("Order cancelled");
  });
  bot.on("pre_checkout_query", (ctx) =>
    options.declineWith
      ? ctx.answerPreCheckoutQuery(false, options.declineWith)
      : ctx.answerPreCheckoutQuery(true),
  );
  bot.on("message:successful_payment", (ctx) =>
    ctx.reply(`Paid ${ctx.message.successful_payment.total_amount} XTR, thank you!`),
  );
  return bot;
}

export interface WebhookReceiver {
  url: string;
  app: FastifyInstance;
  close(): Promise<void>;
}

/** Serves the bot's webhook with Fastify, the way apps/bot does: the response follows the handler. */
export async function serveWebhook(bot: Bot, secretToken: string): Promise<WebhookReceiver> {
  const app = Fastify();
  app.post("/telegram/webhook", webhookCallback(bot, "fastify", { secretToken }));
  await app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = app.server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/telegram/webhook`, app, close: () => app.close() };
}
