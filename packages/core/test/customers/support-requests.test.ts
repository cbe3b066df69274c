// "Ask the shop": a support request is recorded with its `question.asked` event, delivered to each
// operator group, carrying the customer and their latest orders; bad input records nothing.
import { describe, expect, it } from "vitest";
import { supportRequestKey } from "../../src/customers/index.ts";
import { deliveries } from "../support/deliveries.ts";
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
    const alerts = await deliveries(h.db, `${supportRequestKey(result.requestId)}:`);
    expect(alerts.map((a) => a.chatId).sort()).toEqual([...groups].sort());
    expect(alerts[0]).toMatchObject({ kind: "question.asked" });
    expect(alerts[0]!.payload).toEqual({
      kind: "question.asked",
      requestId: result.requestId,
      topic: "paysupport",
      customer: { userId: String(user(1)), name: "Ann", username: "ann" },
      text: "charged twice?",
      orders: [{ orderId: order.id, status: "RESERVED", amountMinor: 50, currency: "XTR" }],
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
    expect(await deliveries(h.db, `${supportRequestKey(id!)}:`)).toHaveLength(
      await h.db.operatorGroup.count(),
    );
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

  it("marks a request answered only with its answer queued: both or neither", async () => {
    const asked = await h.shop.support.open({
      userId: user(7),
      chatId: user(7),
      topic: "question",
      text: "where is my order?",
      customer: { name: "Di" },
    });
    if (asked.status !== "ok") throw new Error(JSON.stringify(asked));
    // The answer's INSERT fails, as a full disk or a lost connection would fail it.
    await h.db.$executeRawUnsafe(`
      CREATE FUNCTION refuse_answer() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'no room for the answer'; END $$`);
    await h.db.$executeRawUnsafe(`
      CREATE TRIGGER refuse_answer BEFORE INSERT ON events FOR EACH ROW
      WHEN (NEW.kind = 'question.answered') EXECUTE FUNCTION refuse_answer()`);
    const answer = { requestId: asked.requestId, answerKey: "-1001:9", text: "On its way." };
    try {
      await expect(h.shop.support.answer(answer)).rejects.toThrow();
      const request = await h.db.supportRequest.findUniqueOrThrow({
        where: { id: asked.requestId },
      });
      expect(request.answeredAt).toBeNull();
    } finally {
      await h.db.$executeRawUnsafe(`DROP TRIGGER refuse_answer ON events`);
      await h.db.$executeRawUnsafe(`DROP FUNCTION refuse_answer()`);
    }
    expect(await h.shop.support.answer(answer)).toEqual({ status: "ok", queued: true });
    // A re-delivered answer is told once, to the asker's chat only.
    expect(await h.shop.support.answer(answer)).toEqual({ status: "ok", queued: false });
    const told = await deliveries(h.db, "support-answer:-1001:9:", -1_003_000_000_009n);
    expect(told).toEqual([
      {
        dedupeKey: `support-answer:-1001:9:${user(7)}`,
        chatId: user(7),
        kind: "question.answered",
        payload: { kind: "question.answered", requestId: asked.requestId, text: "On its way." },
      },
    ]);
  });
});
