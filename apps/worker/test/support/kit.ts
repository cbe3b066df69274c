import { randomUUID } from "node:crypto";
import type { OrderView, Shop } from "@orderbot/core";
import type { FakeTelegram, SimulatedUser } from "@orderbot/fake-telegram";
import { waitUntil } from "./worker.ts";

/** A user who has started the bot (so the bot may write to them). */
export async function startedUser(tg: FakeTelegram): Promise<SimulatedUser> {
  const user = tg.createUser();
  await user.send("/start");
  return user;
}

/**
 * Telegram takes the user's Stars for an order: the bot's invoice, the user's pre-checkout
 * (answered ok, as the bot would), the charge. Returns the charge id; the bot has not recorded the
 * payment yet: the successful_payment is "in flight".
 */
export async function payOnTelegram(
  tg: FakeTelegram,
  user: SimulatedUser,
  orderId: string,
  amount: number,
): Promise<string> {
  await tg.call("sendInvoice", {
    chat_id: user.id,
    title: `Order ${orderId}`,
    description: "Test order",
    payload: orderId,
    currency: "XTR",
    prices: JSON.stringify([{ label: "Total", amount }]),
    provider_token: "",
  });
  const paying = user.pay();
  let queryId = "";
  await waitUntil(
    "the pre-checkout query",
    async () => {
      const query = tg.pendingUpdates.find((u) => u.update.pre_checkout_query?.from.id === user.id)
        ?.update.pre_checkout_query;
      queryId = query?.id ?? "";
      return queryId !== "";
    },
    10_000,
    10,
  );
  await tg.call("answerPreCheckoutQuery", { pre_checkout_query_id: queryId, ok: true });
  const result = await paying;
  if (result.status !== "paid") throw new Error(`payment did not go through: ${result.status}`);
  return result.chargeId;
}

/** The bot's side of a checkout: the user's order of `quantity` units of `sku`, reserved. */
export async function reserveFor(
  shop: Shop,
  user: SimulatedUser,
  sku: string,
  quantity = 1,
): Promise<OrderView> {
  const placed = await shop.orders.placeOrder({
    userId: user.id,
    chatId: user.id,
    items: [{ sku, quantity }],
    idempotencyKey: randomUUID(),
  });
  if (placed.status !== "ok") throw new Error(`placeOrder: ${placed.status}`);
  return placed.order;
}

/** The bot's record of the user's charge for the order (its successful_payment handled). */
export function confirmCharge(shop: Shop, user: SimulatedUser, order: OrderView, chargeId: string) {
  return shop.payments.confirmPayment({
    orderId: order.id,
    userId: user.id,
    telegramChargeId: chargeId,
    amount: order.totalMinor,
    currency: order.currency,
  });
}
