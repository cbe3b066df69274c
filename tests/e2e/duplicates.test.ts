// Duplicates end to end: a double tap, and Telegram re-delivering updates the bot already handled
// (the kit treats the bot's 200 as lost and sends the update again, maybe to the other replica).
import { describe, expect, it } from "vitest";
import type { SimulatedUser } from "@orderbot/fake-telegram";
import { useShop } from "./support/shop.ts";
import {
  allDelivered,
  openCard,
  orderToInvoice,
  payWithLostReply,
  pressOrder,
  stockOf,
} from "./support/users.ts";

const shop = useShop({ replicas: 2 });

const ordersOf = (user: SimulatedUser) =>
  shop.db.order.findMany({ where: { userId: BigInt(user.id) } });

describe("duplicates", () => {
  it("a double tap on Order creates one order", async () => {
    const user = shop.kit.createUser({ languageCode: "en" });
    const before = await stockOf(shop.db, "TEA-LONGJING");
    await openCard(user, "Longjing green tea, 100 g", 2);
    const taps = await Promise.all([user.press(/^Order 2 for/), user.press(/^Order 2 for/)]);
    await Promise.all(taps.map((tap) => tap.answered(10_000)));
    expect(await ordersOf(user)).toHaveLength(1);
    expect(await stockOf(shop.db, "TEA-LONGJING")).toBe(before - 2);
  });

  it("an order press re-delivered by Telegram creates nothing new", async () => {
    const user = shop.kit.createUser({ languageCode: "en" });
    await openCard(user, "Panda mug");
    await allDelivered(shop.kit);
    shop.kit.faults.delivery({ dropNextResponses: 1 });
    const id = await pressOrder(user);
    const press = shop.kit.deliveries.findLast(
      (d) => d.update.callback_query?.from.id === user.id,
    )!;
    await press.settled;
    expect(press.attempts.length).toBeGreaterThanOrEqual(2);
    expect((await ordersOf(user)).map((o) => o.publicId)).toEqual([id]);
  });

  it("a payment re-delivered by Telegram is recorded once and confirmed once", async () => {
    const user = shop.kit.createUser({ languageCode: "en" });
    const id = await orderToInvoice(user, "Silk hand fan");
    await allDelivered(shop.kit);
    // The successful payment (not the pre-checkout query before it) is delivered twice.
    const payment = await payWithLostReply(shop.kit, user);
    await user.waitForMessage(`order ${id} is paid`);
    const delivery = shop.kit.delivery(payment.updateId)!;
    await delivery.settled;
    expect(delivery.attempts.length).toBeGreaterThanOrEqual(2);

    const confirmations = user
      .view()
      .botMessages.filter((m) => m.text?.startsWith("Payment received"));
    expect(confirmations).toHaveLength(1);
    expect(await shop.db.payment.count({ where: { order: { publicId: id } } })).toBe(1);
    expect(
      shop.kit
        .callsTo("answerPreCheckoutQuery")
        .filter((c) => c.params.pre_checkout_query_id === payment.preCheckoutQueryId),
    ).toHaveLength(1);
  });
});
