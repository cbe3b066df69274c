// During an upgrade the previous release still queues notices as rows of today's shape (a
// recipient each; for operators, pre-rendered labels and lines). This release's relay sends them,
// and an event carrying the same facts is told in the same words, to the same kind of recipient.
import { beforeAll, describe, expect, it } from "vitest";
import type { FakeTelegram, SimulatedGroup } from "@orderbot/fake-telegram";
import { runTransaction } from "@orderbot/db";
import { recordEvent, type ShopEvent } from "@orderbot/core/events";
import { createOrder, createProduct } from "../support/seed.ts";
import { startedUser } from "../support/kit.ts";
import { relayAll, type InProcessWorker } from "../support/worker.ts";
import { useWorkerShop } from "../support/shop.ts";

const fixture = useWorkerShop({ poolMax: 6 });
const { db } = fixture;
let tg: FakeTelegram;
let ops: SimulatedGroup;
/** Where the previous release's rows go (a group of its own: each group is paced apart). */
let old: SimulatedGroup;
let w: InProcessWorker;

beforeAll(async () => {
  tg = fixture.tg;
  ops = tg.createGroup({ title: "Operators", admins: [await startedUser(tg)] });
  old = tg.createGroup({ title: "Operators before", admins: [await startedUser(tg)] });
  await db.operatorGroup.create({
    data: { chatId: BigInt(ops.id), title: "Operators", adminIds: [], boundBy: 1n },
  });
  w = await fixture.startWorker({}, { start: false });
});

const ANN = { userId: "7000000001", name: "Ann Lee", username: "ann_lee" };

/** Each notice as the previous release queued it, and as this release records it. */
const PAIRS: { template: string; params: Record<string, string | number>; event: ShopEvent }[] = [
  {
    template: "operator-support-request",
    params: {
      requestId: 5,
      topic: "paysupport",
      customer: "Ann Lee (@ann_lee)",
      text: "charged twice?",
      orders: "AB23CD45 PAID 30 ⭐\nZZ23CD45 EXPIRED 1.50 USD",
    },
    event: {
      kind: "question.asked",
      requestId: 5,
      topic: "paysupport",
      customer: ANN,
      text: "charged twice?",
      orders: [
        { orderId: "AB23CD45", status: "PAID", amountMinor: 30, currency: "XTR" },
        { orderId: "ZZ23CD45", status: "EXPIRED", amountMinor: 150, currency: "USD" },
      ],
    },
  },
  {
    template: "operator-order-paid",
    params: {
      orderId: "K7Q2M9XA",
      amountMinor: 30,
      currency: "XTR",
      customer: "Ann Lee (@ann_lee) · ••••0001",
    },
    event: {
      kind: "order.paid",
      orderId: "K7Q2M9XA",
      amountMinor: 30,
      currency: "XTR",
      customer: ANN,
      codeTails: [],
    },
  },
  {
    template: "operator-low-stock",
    params: { sku: "TEA-1", titleEn: "Tea", titleZh: "茶", stock: 2, threshold: 3 },
    event: { kind: "stock.low", sku: "TEA-1", titleEn: "Tea", titleZh: "茶", stock: 2 },
  },
  {
    template: "operator-ledger-finding",
    params: {
      findingId: 3,
      kind: "charge-missing",
      telegramChargeId: "ch-1",
      telegramAmount: 5,
      shopAmount: "",
    },
    event: {
      kind: "ledger.finding",
      findingId: 3,
      finding: "charge-missing",
      telegramChargeId: "ch-1",
      telegramAmount: 5,
    },
  },
];

const textsIn = (group: { id: number }): string[] =>
  tg
    .callsTo("sendMessage")
    .filter((c) => c.ok && c.chatId === group.id)
    .map((c) => String(c.params.text));

describe("notices queued by the previous release", () => {
  it("are sent by this release's relay, in the words of the events that replace them", async () => {
    for (const [i, pair] of PAIRS.entries()) {
      await db.$executeRaw`
        INSERT INTO outbox_messages (dedupe_key, chat_id, method, payload, lane)
        VALUES (${`old:${i}:${old.id}`}, ${BigInt(old.id)}, 'notify',
                ${JSON.stringify({ template: pair.template, params: pair.params })}::jsonb,
                ${pair.event.kind === "question.asked" ? 1 : 0})`;
    }
    await runTransaction(db, async (tx) => {
      for (const [i, pair] of PAIRS.entries())
        await recordEvent(tx, pair.event, { dedupeKey: `new:${i}` }, undefined);
    });
    await relayAll(w, db);
    const sent = textsIn(old);
    expect(sent).toHaveLength(PAIRS.length);
    // A question waits behind every other alert (lane 1), in either shape.
    expect(sent.at(-1)).toBe(
      "Question #5 from Ann Lee (@ann_lee) (about a payment)\nRecent orders:\n" +
        "AB23CD45 · paid · 30 ⭐\nZZ23CD45 · expired · 1.50 USD\nMessage: charged twice?\n" +
        "Reply to this message to answer them.",
    );
    expect(textsIn(ops)).toEqual(sent);
    const dead = await db.outboxMessage.count({ where: { status: "DEAD" } });
    expect(dead).toBe(0);
  });

  it("to a customer are sent alike, and the events reach the customer their ids name", async () => {
    const [before, buyer] = [await startedUser(tg), await startedUser(tg)];
    const product = await createProduct(db, 5);
    const order = await createOrder(db, {
      productId: product.id,
      userId: BigInt(buyer.id),
      status: "EXPIRED",
    });
    const request = await db.supportRequest.create({
      data: { userId: BigInt(buyer.id), chatId: BigInt(buyer.id), topic: "question", text: "?" },
    });
    const orphan = await db.payment.create({
      data: {
        userId: BigInt(buyer.id),
        telegramChargeId: `orphan-${buyer.id}`,
        amountMinor: 50,
        currency: "XTR",
        status: "REFUND_PENDING",
      },
    });
    const charge = orphan.telegramChargeId;
    const customerPairs: {
      template: string;
      params: Record<string, string | number>;
      event: ShopEvent;
    }[] = [
      {
        template: "order-expired",
        params: { orderId: order.publicId },
        event: { kind: "order.expired", orderId: order.publicId },
      },
      {
        template: "payment-received",
        params: { orderId: order.publicId, hasCodes: "no" },
        event: { kind: "payment.received", orderId: order.publicId, codesDelivered: false },
      },
      {
        template: "order-status",
        params: {
          orderId: order.publicId,
          status: "SHIPPED",
          step: "SHIPPED",
          note: "DHL 1",
          hasNote: "yes",
        },
        event: { kind: "order.moved", orderId: order.publicId, status: "SHIPPED", note: "DHL 1" },
      },
      {
        template: "order-refunded",
        params: { orderId: order.publicId, amountMinor: 10, currency: "XTR" },
        event: {
          kind: "order.refunded",
          orderId: order.publicId,
          amountMinor: 10,
          currency: "XTR",
          telegramChargeId: `refunded-${buyer.id}`,
        },
      },
      {
        template: "payment-refunded",
        params: { orderId: "", reason: "unknown-order", amountMinor: 50, currency: "XTR" },
        event: {
          kind: "payment.rejected",
          orderId: "",
          reason: "unknown-order",
          amountMinor: 50,
          currency: "XTR",
          telegramChargeId: charge,
        },
      },
      {
        template: "support-answer",
        params: { requestId: request.id, text: "On its way." },
        event: { kind: "question.answered", requestId: request.id, text: "On its way." },
      },
    ];
    for (const [i, pair] of customerPairs.entries())
      await db.$executeRaw`
        INSERT INTO outbox_messages (dedupe_key, chat_id, method, payload)
        VALUES (${`old-customer:${i}`}, ${BigInt(before.id)}, 'notify',
                ${JSON.stringify({ template: pair.template, params: pair.params })}::jsonb)`;
    await runTransaction(db, async (tx) => {
      for (const [i, pair] of customerPairs.entries())
        await recordEvent(tx, pair.event, { dedupeKey: `new-customer:${i}` }, BigInt(ops.id));
    });
    const opsBefore = textsIn(ops).length;
    await relayAll(w, db);
    const sent = textsIn(before);
    expect(sent).toEqual([
      `Your reservation ${order.publicId} has expired and its items are back on sale. ` +
        "Nothing was charged. Order again from /catalog.",
      `Payment received: order ${order.publicId} is paid. Thank you!\n` +
        "What happens next: the shop prepares your order and tells you here at each step, " +
        "usually within a working day. Your orders are under My orders.",
      `Your order ${order.publicId} has shipped.\nTracking: DHL 1\nWe will tell you when it is delivered.`,
      `Order ${order.publicId} is refunded: 10 ⭐ goes back to you.`,
      "Your payment of 50 ⭐ could not be applied (the order is unknown). It is refunded in full.",
      `The shop's answer to your question #${request.id}:\nOn its way.`,
    ]);
    expect(textsIn(buyer)).toEqual(sent);
    expect(textsIn(ops)).toHaveLength(opsBefore);
  });
});
