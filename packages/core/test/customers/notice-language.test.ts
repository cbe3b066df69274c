import { describe, expect, it } from "vitest";
import { addProduct, paymentFor, placed, user } from "../support/fixtures.ts";
import { useShopHarness } from "../support/shop.ts";

const h = useShopHarness({ config: { maxOpenOrders: 1_000 } });

const RESERVATION = 15 * 60_000;

/** The language each notice queued for `chatId` carries (null: none, the worker's default). */
async function noticeLanguages(chatId: bigint): Promise<Record<string, string | null>> {
  const rows = await h.db.outboxMessage.findMany({ where: { chatId, method: "notify" } });
  return Object.fromEntries(
    rows.map((r) => {
      const payload = r.payload as { template: string; locale?: string };
      return [payload.template, payload.locale ?? null];
    }),
  );
}

describe("the language of the notices queued for a customer", () => {
  it("is the one stored with the customer, for expiry, refund and an answer to their question", async () => {
    const customer = user(1);
    await h.db.customer.create({ data: { userId: customer, language: "zh" } });
    const p = await addProduct(h.db, { stock: 5 });

    await placed(h.shop, customer, [{ sku: p.sku, quantity: 1 }]);
    h.clock.advance(RESERVATION + 1);
    await h.shop.orders.expireDue(h.clock.now());

    const paid = await placed(h.shop, customer, [{ sku: p.sku, quantity: 1 }]);
    await h.shop.payments.confirmPayment(paymentFor(paid));
    expect((await h.shop.payments.refundOrder(paid.id, user(900))).status).toBe("ok");

    const request = await h.shop.support.open({
      userId: customer,
      chatId: customer,
      topic: "paysupport",
      text: "where is my tea?",
      customer: { name: "李雷" },
    });
    if (request.status !== "ok") throw new Error("support request refused");
    await h.shop.support.answer({
      requestId: request.requestId,
      groupChatId: -100_1,
      messageId: 5,
      text: "on its way",
    });

    const languages = await noticeLanguages(customer);
    expect(Object.keys(languages)).toEqual(
      expect.arrayContaining([
        "order-expired",
        "payment-received",
        "order-refunded",
        "support-answer",
      ]),
    );
    for (const [template, locale] of Object.entries(languages))
      expect(locale, `${template} went out without the customer's language`).toBe("zh");
  });

  it("follows a change of language for notices queued after it", async () => {
    const customer = user(2);
    await h.db.customer.create({ data: { userId: customer, language: "zh" } });
    await h.db.customer.update({ where: { userId: customer }, data: { language: "en" } });
    const p = await addProduct(h.db, { stock: 5 });
    await placed(h.shop, customer, [{ sku: p.sku, quantity: 1 }]);
    h.clock.advance(RESERVATION + 1);
    await h.shop.orders.expireDue(h.clock.now());
    expect(await noticeLanguages(customer)).toEqual({ "order-expired": "en" });
  });
});
