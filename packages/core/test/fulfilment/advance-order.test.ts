import { beforeAll, describe, expect, it } from "vitest";
import { type OrderView } from "../../src/index.ts";
import { nextFulfilmentSteps, statusNoticeKey } from "../../src/fulfilment/index.ts";
import { queueStatusNotice } from "../../src/fulfilment/status-notice.ts";
import { addProduct, paymentFor, placed, stockOf, user } from "../support/fixtures.ts";
import { assertInvariants } from "@orderbot/testkit";
import { useShopHarness } from "../support/shop.ts";
import { ownerActor } from "../../src/rights/index.ts";
import { deliveries } from "../support/deliveries.ts";

const OPS_CHAT = -1_001_000_000_019n;
const h = useShopHarness();
beforeAll(async () => {
  await h.shop.groups.bind({ chatId: OPS_CHAT, title: "Ops", boundBy: user(900) });
});

async function paidOrder(n: number, stock = 5): Promise<{ order: OrderView; sku: string }> {
  const p = await addProduct(h.db, { stock });
  const order = await placed(h.shop, user(n), [{ sku: p.sku, quantity: 1 }]);
  const paid = await h.shop.payments.confirmPayment(paymentFor(order));
  expect(paid.status).toBe("ok");
  return { order, sku: p.sku };
}

/** The order's status notices, as the relay would claim them (the chat it goes to appended). */
const notices = (orderId: string) => deliveries(h.db, `status:${orderId}:`);

describe("fulfilment.advance", () => {
  it("moves PAID → PROCESSING → SHIPPED → DELIVERED, records each move and queues one notice each", async () => {
    const { order } = await paidOrder(1);
    const op = user(900);
    const processing = await h.shop.fulfilment.advance({
      orderId: order.id,
      to: "PROCESSING",
      actor: op,
      actorName: "Alice",
    });
    expect(processing).toMatchObject({ status: "ok", order: { status: "PROCESSING" } });
    const shipped = await h.shop.fulfilment.advance({
      orderId: order.id,
      to: "SHIPPED",
      actor: op,
      note: "  DHL 123456  ",
    });
    expect(shipped).toMatchObject({
      status: "ok",
      entry: { from: "PROCESSING", to: "SHIPPED", note: "DHL 123456" },
    });
    expect(
      await h.shop.fulfilment.advance({ orderId: order.id, to: "DELIVERED", actor: op }),
    ).toMatchObject({ status: "ok", order: { status: "DELIVERED" } });

    const timeline = (await h.shop.fulfilment.timelines([order.id])).get(order.id)!;
    expect(timeline.map((e) => [e.from, e.to])).toEqual([
      ["RESERVED", "PAID"],
      ["PAID", "PROCESSING"],
      ["PROCESSING", "SHIPPED"],
      ["SHIPPED", "DELIVERED"],
    ]);
    // Who: the operator's masked id (never the id itself), and the name they had in the group.
    expect(timeline[1]).toMatchObject({ actor: `op:${h.shop.deps.mask(op)}`, actorName: "Alice" });
    expect(timeline[1]!.actor).not.toContain(String(op));

    expect((await notices(order.id)).map((m) => [m.dedupeKey, m.chatId, m.payload])).toEqual([
      // In key order.
      [
        `${statusNoticeKey(order.id, "DELIVERED")}:${order.chatId}`,
        order.chatId,
        { kind: "order.moved", orderId: order.id, status: "DELIVERED", note: "" },
      ],
      [
        `${statusNoticeKey(order.id, "PROCESSING")}:${order.chatId}`,
        order.chatId,
        { kind: "order.moved", orderId: order.id, status: "PROCESSING", note: "" },
      ],
      [
        `${statusNoticeKey(order.id, "SHIPPED")}:${order.chatId}`,
        order.chatId,
        { kind: "order.moved", orderId: order.id, status: "SHIPPED", note: "DHL 123456" },
      ],
    ]);
    await assertInvariants(h.db);
  });

  it("tells a second press who moved the order and when, and changes nothing", async () => {
    const { order } = await paidOrder(2);
    const first = await h.shop.fulfilment.advance({
      orderId: order.id,
      to: "SHIPPED",
      actor: user(901),
      actorName: "Bob",
      note: "UPS 1Z",
    });
    expect(first.status).toBe("ok");
    const version = (await h.shop.orders.get(order.id))!.version;
    // Pressing Ship again, and pressing the older "Processing" button, both find it shipped.
    for (const to of ["SHIPPED", "PROCESSING"] as const) {
      expect(
        await h.shop.fulfilment.advance({ orderId: order.id, to, actor: user(902), note: "x" }),
      ).toMatchObject({
        status: "already",
        current: "SHIPPED",
        entry: { to: "SHIPPED", actorName: "Bob", note: "UPS 1Z" },
      });
    }
    expect((await h.shop.orders.get(order.id))!.version).toBe(version);
    expect(await notices(order.id)).toHaveLength(1);
  });

  it("lets two operators on two instances press at once: one move, one notice, the other told", async () => {
    const { order } = await paidOrder(3);
    const other = await h.instance();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        (i % 2 === 0 ? h.shop : other.shop).fulfilment.advance({
          orderId: order.id,
          to: "SHIPPED",
          actor: user(910 + i),
          actorName: `op${i}`,
          note: `track-${i}`,
        }),
      ),
    );
    const won = results.filter((r) => r.status === "ok");
    expect(won).toHaveLength(1);
    const winner = won[0]!.status === "ok" ? won[0]!.entry : null;
    for (const r of results.filter((r) => r.status !== "ok")) {
      // A loser either waited for the lock and was told who won, or gave up waiting (busy).
      if (r.status === "already") expect(r.entry).toEqual(winner);
      else expect(r.status).toBe("busy");
    }
    expect(results.some((r) => r.status === "already")).toBe(true);
    const timeline = (await h.shop.fulfilment.timelines([order.id])).get(order.id)!;
    expect(timeline.filter((e) => e.to === "SHIPPED")).toHaveLength(1);
    expect(await notices(order.id)).toHaveLength(1);
    await assertInvariants(h.db);
  });

  it("keeps the database's last word: a second SHIPPED move cannot be recorded", async () => {
    const { order } = await paidOrder(4);
    await h.shop.fulfilment.advance({ orderId: order.id, to: "SHIPPED", actor: user(900) });
    const row = await h.db.order.findUniqueOrThrow({ where: { publicId: order.id } });
    await expect(
      h.db.orderTimelineEntry.create({
        data: { orderId: row.id, fromStatus: "PAID", toStatus: "SHIPPED", actor: "system" },
      }),
    ).rejects.toThrow(/order_timeline_one_move_per_status|Unique constraint/);
  });

  it("refuses orders that are not paid, bad notes and unknown ids, changing nothing", async () => {
    const p = await addProduct(h.db, { stock: 5 });
    const reserved = await placed(h.shop, user(5), [{ sku: p.sku, quantity: 1 }]);
    expect(
      await h.shop.fulfilment.advance({ orderId: reserved.id, to: "SHIPPED", actor: user(900) }),
    ).toEqual({ status: "conflict", current: "RESERVED" });
    const { order } = await paidOrder(6);
    const tooLong = await h.shop.fulfilment.advance({
      orderId: order.id,
      to: "SHIPPED",
      actor: user(900),
      note: "x".repeat(501),
    });
    expect(tooLong.status).toBe("invalid");
    expect(
      await h.shop.fulfilment.advance({ orderId: "ZZZZZZZZ", to: "SHIPPED", actor: user(900) }),
    ).toEqual({ status: "not-found" });
    expect(
      (await h.shop.fulfilment.advance({ orderId: "??", to: "SHIPPED", actor: user(900) })).status,
    ).toBe("invalid");
    expect((await h.shop.orders.get(order.id))!.status).toBe("PAID");
    expect(await notices(order.id)).toHaveLength(0);
    await h.shop.payments.refundOrder(order.id, ownerActor(user(900)));
    expect(
      await h.shop.fulfilment.advance({ orderId: order.id, to: "SHIPPED", actor: user(900) }),
    ).toEqual({ status: "conflict", current: "REFUNDED" });
  });

  it("keys the notice per order and status: queueing it again (a re-run) queues nothing", async () => {
    const { order } = await paidOrder(9);
    const queue = () =>
      h.db.$transaction((tx) => queueStatusNotice(tx, order.id, "SHIPPED", "T-1"));
    expect(await queue()).toBe(1);
    expect(await queue()).toBe(0);
    // The move itself finds its notice queued already: still one.
    await h.shop.fulfilment.advance({ orderId: order.id, to: "SHIPPED", actor: user(900) });
    expect(await notices(order.id)).toHaveLength(1);
    await assertInvariants(h.db);
  });

  it("queues the notice as an event, its ids and facts: no words, no language, no buttons", async () => {
    await h.db.customer.create({ data: { userId: user(8), language: "zh" } });
    const { order } = await paidOrder(8);
    await h.shop.fulfilment.advance({ orderId: order.id, to: "SHIPPED", actor: user(900) });
    const [notice] = await notices(order.id);
    expect(Object.keys(notice!.payload).sort()).toEqual(["kind", "note", "orderId", "status"]);
    const [alert] = await deliveries(h.db, `paid:${order.id}:${OPS_CHAT}`);
    expect(Object.keys(alert!.payload).sort()).toEqual([
      "amountMinor",
      "codeTails",
      "currency",
      "customer",
      "kind",
      "orderId",
    ]);
  });

  it("offers the next steps of each state, and none once delivered", () => {
    expect(nextFulfilmentSteps("PAID")).toEqual(["PROCESSING", "SHIPPED"]);
    expect(nextFulfilmentSteps("PROCESSING")).toEqual(["SHIPPED"]);
    expect(nextFulfilmentSteps("SHIPPED")).toEqual(["DELIVERED"]);
    expect(nextFulfilmentSteps("DELIVERED")).toEqual([]);
    expect(nextFulfilmentSteps("RESERVED")).toEqual([]);
  });
});

describe("refunds and fulfilment", () => {
  it("refunds a PROCESSING order as before shipping: REFUNDED, stock back", async () => {
    const { order, sku } = await paidOrder(10, 3);
    await h.shop.fulfilment.advance({ orderId: order.id, to: "PROCESSING", actor: user(900) });
    expect(await h.shop.payments.refundOrder(order.id, ownerActor(user(900)))).toMatchObject({
      status: "ok",
      order: { status: "REFUNDED" },
    });
    expect(await stockOf(h.db, sku)).toBe(3);
    await assertInvariants(h.db);
  });

  it("refunds a shipped order only with a reason, keeps it shipped and records the reason", async () => {
    const { order, sku } = await paidOrder(11, 3);
    await h.shop.fulfilment.advance({ orderId: order.id, to: "SHIPPED", actor: user(900) });
    expect(await h.shop.payments.refundOrder(order.id, ownerActor(user(900)))).toEqual({
      status: "reason-required",
      current: "SHIPPED",
    });
    expect(
      await h.shop.payments.refundOrder(order.id, ownerActor(user(900)), { reason: "   " }),
    ).toEqual({
      status: "reason-required",
      current: "SHIPPED",
    });
    const payment = await h.db.payment.findFirstOrThrow({
      where: { order: { publicId: order.id } },
    });
    expect(payment.status).toBe("CAPTURED");

    const refunded = await h.shop.payments.refundOrder(order.id, ownerActor(user(901)), {
      reason: "parcel lost by the carrier",
      actorName: "Carol",
    });
    expect(refunded).toMatchObject({
      status: "ok",
      replayed: false,
      order: { status: "SHIPPED" },
      payments: [{ status: "REFUND_PENDING" }],
    });
    // The goods are gone: nothing goes back on sale.
    expect(await stockOf(h.db, sku)).toBe(2);
    const timeline = (await h.shop.fulfilment.timelines([order.id])).get(order.id)!;
    expect(timeline.at(-1)).toMatchObject({
      event: "refund",
      from: "SHIPPED",
      to: "SHIPPED",
      actorName: "Carol",
      note: "parcel lost by the carrier",
    });
    // A second /refund is a replay: one refund, one timeline entry.
    expect(
      await h.shop.payments.refundOrder(order.id, ownerActor(user(901)), { reason: "again" }),
    ).toMatchObject({ status: "ok", replayed: true });
    const again = (await h.shop.fulfilment.timelines([order.id])).get(order.id)!;
    expect(again.filter((e) => e.event === "refund")).toHaveLength(1);
    expect(
      await h.db.outboxMessage.count({
        where: { dedupeKey: `refund:${payment.telegramChargeId}` },
      }),
    ).toBe(1);
    // It can still be delivered: the customer may get the parcel after all.
    expect(
      (await h.shop.fulfilment.advance({ orderId: order.id, to: "DELIVERED", actor: user(900) }))
        .status,
    ).toBe("ok");
    await assertInvariants(h.db);
  });

  it("refuses, in the database, an operator's refund entry without a reason", async () => {
    const { order } = await paidOrder(12);
    const row = await h.db.order.findUniqueOrThrow({ where: { publicId: order.id } });
    await expect(
      h.db.orderTimelineEntry.create({
        data: {
          orderId: row.id,
          event: "refund",
          fromStatus: "PAID",
          toStatus: "PAID",
          actor: "op:x",
        },
      }),
    ).rejects.toThrow(/order_timeline_refund_has_reason|check constraint/i);
  });
});
