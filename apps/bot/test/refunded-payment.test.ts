// refunded_payment: Telegram tells the bot a payment was refunded (by Telegram, or by the bot's
// own refundStarPayment). The refund is recorded once, a PAID order moves on, operators hear
// once, and the buyer gets no "did not understand" reply to a service message.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeTelegram, SimulatedUser } from "@orderbot/fake-telegram";
import { startBotHarness, type BotHarness } from "./support/harness.ts";
import { ownerActor } from "@orderbot/core/rights";
import { eventsOf } from "./support/events.ts";

let h: BotHarness;
let kit: FakeTelegram;
const OPS_CHAT = -1_009_000_000_001n;

beforeAll(async () => {
  h = await startBotHarness();
  kit = h.kit;
  await h.shop.groups.bind({ chatId: OPS_CHAT, title: "Ops", boundBy: 1n });
});
afterAll(() => h?.close());

const stockOf = async (sku: string) =>
  (await h.db.product.findUniqueOrThrow({ where: { sku } })).stock;

/** Until the bot has answered the refunded_payment update of this charge (2xx). */
async function handled(chargeId: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const delivery = kit.deliveries.find(
      (d) => d.update.message?.refunded_payment?.telegram_payment_charge_id === chargeId,
    );
    if (delivery?.deliveredAt !== undefined && !delivery.inFlight) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`the refunded_payment of ${chargeId} was not handled`);
}

/** An order the user paid: the charge is in Telegram's ledger and recorded by the shop. */
async function paidOrder(user: SimulatedUser, sku: string) {
  const placed = await h.shop.orders.placeOrder({
    userId: user.id,
    chatId: user.chatId,
    items: [{ sku, quantity: 1 }],
    idempotencyKey: `refunded-${user.id}`,
  });
  if (placed.status !== "ok") throw new Error(placed.status);
  const order = placed.order;
  const charge = kit.seedStarCharge({ user, amount: order.totalMinor, payload: order.id });
  const paid = await h.shop.payments.confirmPayment({
    orderId: order.id,
    userId: user.id,
    telegramChargeId: charge.chargeId,
    amount: order.totalMinor,
    currency: "XTR",
  });
  expect(paid.status).toBe("ok");
  return { order, chargeId: charge.chargeId };
}

describe("refunded_payment", () => {
  it("records a refund Telegram made: payment and order REFUNDED, stock back, operators told once, the buyer not answered", async () => {
    const buyer = kit.createUser({ languageCode: "en" });
    await buyer.send("/start");
    await buyer.waitForMessage(/Welcome/);
    const before = await stockOf("MUG-PANDA");
    const { order, chargeId } = await paidOrder(buyer, "MUG-PANDA");
    expect(await stockOf("MUG-PANDA")).toBe(before - 1);
    const botMessagesBefore = kit.chat(buyer).botMessages.length;

    kit.refundFromOutside(chargeId);
    await handled(chargeId);

    expect(
      await h.db.payment.findUniqueOrThrow({ where: { telegramChargeId: chargeId } }),
    ).toMatchObject({ status: "REFUNDED", refundedBy: "telegram" });
    expect((await h.shop.orders.get(order.id))?.status).toBe("REFUNDED");
    expect(await stockOf("MUG-PANDA")).toBe(before);
    expect(await eventsOf(h.db, `refunded-outside:${chargeId}`)).toMatchObject([
      { kind: "refund.outside", template: "operator-refunded-outside" },
    ]);
    // A service message is not a question: no "did not understand".
    expect(kit.chat(buyer).botMessages).toHaveLength(botMessagesBefore);

    // Telegram delivers it again (a new update id): nothing changes, nobody hears twice.
    const again = kit.deliveries.find(
      (d) => d.update.message?.refunded_payment?.telegram_payment_charge_id === chargeId,
    )!.update;
    expect(await h.postUpdate({ ...again, update_id: again.update_id + 100_000 })).toBe(200);
    expect(await eventsOf(h.db, `refunded-outside:${chargeId}`)).toHaveLength(1);
    expect(kit.chat(buyer).botMessages).toHaveLength(botMessagesBefore);
  });

  it("stays quiet about the echo of the bot's own refund", async () => {
    const buyer = kit.createUser({ languageCode: "en" });
    await buyer.send("/start");
    await buyer.waitForMessage(/Welcome/);
    const { order, chargeId } = await paidOrder(buyer, "CUP-CELADON");
    // An operator refunds the order; the worker's refundStarPayment goes through and the relay
    // records it, and then Telegram sends refunded_payment for it.
    expect((await h.shop.payments.refundOrder(order.id, ownerActor(42))).status).toBe("ok");
    expect(await h.shop.payments.markRefunded(chargeId)).toBe(true);
    const botMessagesBefore = kit.chat(buyer).botMessages.length;
    await kit.call("refundStarPayment", {
      user_id: buyer.id,
      telegram_payment_charge_id: chargeId,
    });
    await handled(chargeId);

    expect(
      await h.db.payment.findUniqueOrThrow({ where: { telegramChargeId: chargeId } }),
    ).toMatchObject({ status: "REFUNDED", refundedBy: null });
    expect(await eventsOf(h.db, `refunded-outside:${chargeId}`)).toHaveLength(0);
    expect(kit.chat(buyer).botMessages).toHaveLength(botMessagesBefore);
  });
});
