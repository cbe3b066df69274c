// A digital order end to end, two bot processes behind the proxy: the payment assigns a code from
// the pool in the transaction that records it, and the code reaches the buyer exactly once even
// when Telegram re-delivers the successful_payment (maybe to the other replica).
import { describe, expect, it } from "vitest";
import { useShop } from "./support/shop.ts";
import { allDelivered, orderToInvoice, payWithLostReply } from "./support/users.ts";

const shop = useShop({ replicas: 2 });

const SKU = "GIFT-CARD-E2E";
const TITLE = "Tea shop gift card";

describe("digital delivery", () => {
  it("delivers a code once when successful_payment is re-delivered", async () => {
    await shop.db.product.create({
      data: {
        sku: SKU,
        titleEn: TITLE,
        titleZh: "茶叶店礼品卡",
        priceMinor: 30,
        currency: "XTR",
        stock: 0,
      },
    });
    expect(
      await shop.shop.delivery.loadCodes({
        sku: SKU,
        text: "GIFT-AAAA-1111\nGIFT-BBBB-2222",
        batchId: "codes:e2e:1",
        actor: 1n,
      }),
    ).toMatchObject({ status: "ok", added: 2 });

    const user = shop.kit.createUser({ languageCode: "en" });
    const id = await orderToInvoice(user, TITLE);
    await allDelivered(shop.kit);
    // The bot's 200 to the successful_payment is lost: Telegram sends it again.
    const payment = await payWithLostReply(shop.kit, user);
    const delivery = shop.kit.delivery(payment.updateId)!;
    await delivery.settled;
    expect(delivery.attempts.length).toBeGreaterThanOrEqual(2);

    // One code assigned, one delivery queued; the worker's relay sends it (twice run: still once).
    const items = await shop.db.digitalItem.findMany({ where: { order: { publicId: id } } });
    expect(items.map((i) => i.secret)).toEqual(["GIFT-AAAA-1111"]);
    await shop.relayOutbox();
    await shop.relayOutbox();
    const got = await user.waitForMessage(/GIFT-AAAA-1111/);
    expect(got.text).toContain(`Order ${id} is paid.`);
    const withCode = user.view().botMessages.filter((m) => m.text?.includes("GIFT-AAAA-1111"));
    expect(withCode).toHaveLength(1);
    // The confirmation says where the codes are, not that the shop will prepare the order.
    const confirmation = user
      .view()
      .botMessages.find((m) => m.text?.startsWith("Payment received"));
    expect(confirmation?.text).toContain("Your codes come in the next message");
    expect(
      await shop.db.outboxMessage.count({
        where: { dedupeKey: { startsWith: `delivery:${id}:` } },
      }),
    ).toBe(1);
    // The other code is still unused; nobody else got this one.
    expect(await shop.shop.delivery.pool(SKU)).toMatchObject({ unused: 1, assigned: 1 });
  });
});
