// "Ask the shop": a support request is recorded with one alert per operator group, carrying the
// customer and their latest orders; bad input records nothing.
import { describe, expect, it } from "vitest";
import { supportRequestKey } from "../../src/customers/index.ts";
import { addProduct, placed, user } from "../support/fixtures.ts";
import { useShopHarness } from "../support/shop.ts";

const h = useShopHarness();

describe("support requests", () => {
  it("records the request and alerts every operator group with the customer's recent orders", async () => {
    const product = await addProduct(h.db, { stock: 10, priceMinor: 25 });
    const order = await placed(h.shop, user(1), [{ sku: product.sku, quantity: 2 }]);
    const groups = [-1_003_000_000_001n, -1_003_000_000_002n];
    for (const chatId of groups)
      await h.shop.groups.bind({ chatId, title: "Ops", boundBy: user(99) });

    const result = await h.shop.support.open({
      userId: user(1),
      chatId: user(1),
      topic: "paysupport",
      text: "charged twice?",
      customer: { name: "Ann", username: "ann" },
    });
    if (result.status !== "ok") throw new Error(JSON.stringify(result));
    expect(result.alerted).toBe(2);
    expect(
      await h.db.supportRequest.findUniqueOrThrow({ where: { id: result.requestId } }),
    ).toMatchObject({
      userId: user(1),
      chatId: user(1),
      topic: "paysupport",
      text: "charged twice?",
    });
    const alerts = await h.db.outboxMessage.findMany({
      where: { dedupeKey: { startsWith: `${supportRequestKey(result.requestId)}:` } },
      orderBy: { chatId: "asc" },
    });
    expect(alerts.map((a) => a.chatId)).toEqual([...groups].sort((a, b) => (a < b ? -1 : 1)));
    expect(alerts[0]!.payload).toEqual({
      template: "operator-support-request",
      params: {
        requestId: result.requestId,
        topic: "paysupport",
        customer: "Ann (@ann)",
        text: "charged twice?",
        orders: `${order.id} RESERVED 50 XTR`,
      },
    });
  });

  it("passes one message on once, however many presses arrive at once", async () => {
    const ask = () =>
      h.shop.support.open({
        userId: user(5),
        chatId: user(5),
        topic: "question",
        text: "do you ship to Berlin?",
        customer: { name: "Cy" },
        requestKey: "ask:77",
      });
    const results = await Promise.all(Array.from({ length: 8 }, ask));
    const ids = new Set(results.map((r) => (r.status === "ok" ? r.requestId : null)));
    expect(ids.size).toBe(1);
    expect(results.filter((r) => r.status === "ok" && !r.replayed)).toHaveLength(1);
    expect(await h.db.supportRequest.count({ where: { userId: user(5) } })).toBe(1);
    const [id] = [...ids];
    expect(
      await h.db.outboxMessage.count({
        where: { dedupeKey: { startsWith: `${supportRequestKey(id!)}:` } },
      }),
    ).toBe(await h.db.operatorGroup.count());
  });

  it("refuses bad input and records nothing", async () => {
    const before = await h.db.supportRequest.count();
    const result = await h.shop.support.open({
      userId: user(3),
      chatId: user(3),
      topic: "paysupport",
      text: "x".repeat(3501),
      customer: { name: "" },
    });
    expect(result.status).toBe("invalid");
    expect(await h.db.supportRequest.count()).toBe(before);
  });
});
