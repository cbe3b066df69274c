// The worker speaks each customer's language: a Chinese customer's expiry notice and card arrive in
// Chinese, through the real relay and the fake Telegram, whatever NOTIFY_LOCALE says.
import { beforeAll, describe, expect, it } from "vitest";
import type { FakeTelegram } from "@orderbot/fake-telegram";
import { startedUser } from "../support/kit.ts";
import { createOrder, createProduct } from "../support/seed.ts";
import type { InProcessWorker } from "../support/worker.ts";
import { useWorkerShop } from "../support/shop.ts";

const fixture = useWorkerShop({ poolMax: 5 });
const { db } = fixture;
let tg: FakeTelegram;
let worker: InProcessWorker;

beforeAll(async () => {
  tg = fixture.tg;
  worker = await fixture.startWorker({ NOTIFY_LOCALE: "en" }, { start: false });
});

describe("a customer whose language is Chinese", () => {
  it("gets the expiry notice in Chinese, and the order's card edited to say it expired", async () => {
    const li = await startedUser(tg);
    await db.customer.create({ data: { userId: BigInt(li.id), language: "zh" } });
    const card = await tg.call("sendMessage", { chat_id: li.id, text: "Order … awaiting payment" });
    const product = await createProduct(db, 5);
    const order = await createOrder(db, {
      productId: product.id,
      userId: BigInt(li.id),
      expiresAt: new Date(Date.now() - 60_000),
    });
    await db.order.update({
      where: { id: order.id },
      data: { cardMessageId: (card.result as { message_id: number }).message_id },
    });

    await worker.worker.runOnce("expire-reservations");
    await worker.worker.runOnce("outbox-relay");

    const notice = li.view().botMessages.at(-1);
    expect(notice?.text).toBe(
      `您的订单 ${order.publicId} 保留已到期，商品已重新上架。没有扣款。可在 /catalog 重新下单。`,
    );
    const edited = li
      .view()
      .messages.find((m) => m.message_id === (card.result as { message_id: number }).message_id);
    expect(edited?.text).toBe(`订单 ${order.publicId}：已过期。\n商品明细和后续进展请见 /orders。`);
  });
});
