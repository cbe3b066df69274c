// The worker speaks each recipient's language, as it is when the notice goes out: a row holds no
// language. Through the real relay and the fake Telegram, whatever NOTIFY_LOCALE says.
import { beforeAll, describe, expect, it } from "vitest";
import type { FakeTelegram } from "@orderbot/fake-telegram";
import type { Shop } from "@orderbot/core";
import { confirmCharge, payOnTelegram, reserveFor, startedUser } from "../support/kit.ts";
import { createOrder, createProduct } from "../support/seed.ts";
import type { InProcessWorker } from "../support/worker.ts";
import { useWorkerShop } from "../support/shop.ts";
import { ownerActor } from "@orderbot/core/rights";

const fixture = useWorkerShop({ poolMax: 5 });
const { db } = fixture;
let tg: FakeTelegram;
let worker: InProcessWorker;
let shop: Shop;

beforeAll(async () => {
  tg = fixture.tg;
  worker = await fixture.startWorker({ NOTIFY_LOCALE: "en" }, { start: false });
  shop = await fixture.botShop();
});

const relay = () => worker.worker.runOnce("outbox-relay");

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
    await db.orderMessages.create({
      data: {
        orderPublicId: order.publicId,
        cardMessageId: (card.result as { message_id: number }).message_id,
      },
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

describe("a notice queued before its recipient changed language", () => {
  it("goes out in the language they have when it is sent", async () => {
    const ann = await startedUser(tg);
    await db.customer.create({ data: { userId: BigInt(ann.id), language: "zh" } });
    const product = await createProduct(db, 10);
    const order = await reserveFor(shop, ann, product.sku);
    const chargeId = await payOnTelegram(tg, ann, order.id, order.totalMinor);
    expect((await confirmCharge(shop, ann, order, chargeId)).status).toBe("ok");
    expect((await shop.payments.refundOrder(order.id, ownerActor(900))).status).toBe("ok");
    // Queued while Chinese; /language en before the worker sends it.
    await db.customer.update({ where: { userId: BigInt(ann.id) }, data: { language: "en" } });
    await relay();

    const refunded = ann.view().botMessages.find((m) => m.text?.includes("refund"));
    expect(refunded?.text).toMatch(new RegExp(`Order ${order.id} .*refund`, "i"));
  });
});

describe("an operator group whose /settings say Chinese", () => {
  it("gets the paid alert in Chinese, with its items read from the order", async () => {
    const admin = await startedUser(tg);
    const group = tg.createGroup({ title: "运营", admins: [admin] });
    await shop.groups.bind({ chatId: group.chatId, title: "运营", boundBy: admin.id });
    await shop.groups.updateSettings({
      chatId: group.chatId,
      patch: { language: "zh", lowStockThreshold: 0 },
      expectedVersion: 0,
      actor: admin.id,
    });
    const buyer = await startedUser(tg);
    const product = await createProduct(db, 10);
    const order = await reserveFor(shop, buyer, product.sku, 2);
    const chargeId = await payOnTelegram(tg, buyer, order.id, order.totalMinor);
    expect((await confirmCharge(shop, buyer, order, chargeId)).status).toBe("ok");
    await relay();

    const alert = tg.callsTo("sendMessage").find((c) => c.chatId === group.chatId && c.ok);
    expect(String(alert?.params.text).split("\n").slice(0, 2)).toEqual([
      `订单 ${order.id} 已支付：${order.totalMinor} ⭐。`,
      `• ${product.titleZh} × 2：${order.totalMinor} ⭐`,
    ]);
  });
});
