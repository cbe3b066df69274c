// Support questions against money alerts in the operator group (20 messages a minute): a
// customer's open questions are capped, and a paid-order alert queued after a flood of questions
// is the group's next message. Real PostgreSQL, Redis and worker; the kit's Telegram.
import { beforeAll, describe, expect, it } from "vitest";
import { type Shop } from "@orderbot/core";
import { MAX_OPEN_SUPPORT_REQUESTS } from "@orderbot/core/customers";
import { confirmCharge, payOnTelegram, reserveFor, startedUser } from "../support/kit.ts";
import { createProduct } from "../support/seed.ts";
import { useWorkerShop } from "../support/shop.ts";
import { waitUntil } from "../support/worker.ts";

const fixture = useWorkerShop({ poolMax: 20, telegram: { floodLimits: true } });
const { db } = fixture;
let shop: Shop;

beforeAll(async () => {
  shop = await fixture.botShop();
});

const CUSTOMERS = 40;
const QUESTIONS_EACH = 5;

describe("the operator group's outbox under a flood of questions", () => {
  it("caps each customer's open questions and sends the paid alert before every question", async () => {
    const tg = fixture.tg;
    const admin = tg.createUser();
    const group = tg.createGroup({ title: "Ops", admins: [admin] });
    await shop.groups.bind({ chatId: group.id, title: "Ops", boundBy: admin.id });

    // 200 questions, every customer's five at once (four customers at a time: the pool's size).
    const ask = (userId: number, i: number) =>
      shop.support.open({
        userId,
        chatId: userId,
        topic: "question",
        text: `question ${i}`,
        customer: { name: `Customer ${userId}` },
        requestKey: `question:${i + 1}`,
      });
    const results: Awaited<ReturnType<typeof ask>>[] = [];
    for (let c = 0; c < CUSTOMERS; c += 4) {
      const batch = Array.from({ length: 4 * QUESTIONS_EACH }, (_, i) =>
        ask(7_200_000_000 + c + (i % 4), c * QUESTIONS_EACH + i),
      );
      results.push(...(await Promise.all(batch)));
    }
    expect(results.filter((r) => r.status === "ok")).toHaveLength(
      CUSTOMERS * MAX_OPEN_SUPPORT_REQUESTS,
    );
    expect(results.filter((r) => r.status === "too-many")).toHaveLength(
      CUSTOMERS * (QUESTIONS_EACH - MAX_OPEN_SUPPORT_REQUESTS),
    );
    const perCustomer = await db.supportRequest.groupBy({ by: ["userId"], _count: true });
    expect(perCustomer.map((c) => c._count)).toEqual(
      Array.from({ length: CUSTOMERS }, () => MAX_OPEN_SUPPORT_REQUESTS),
    );

    // Then one payment (of a product with stock to spare: no low-stock alert joins the lane).
    const product = await createProduct(db, 10);
    const buyer = await startedUser(tg);
    const order = await reserveFor(shop, buyer, product.sku);
    const chargeId = await payOnTelegram(tg, buyer, order.id, order.totalMinor);
    const confirmed = await confirmCharge(shop, buyer, order, chargeId);
    expect(confirmed.status).toBe("ok");

    await fixture.startWorker({ OUTBOX_INTERVAL_MS: "100" });
    const toGroup = () => tg.callsTo("sendMessage").filter((c) => c.chatId === group.id && c.ok);
    await waitUntil("two messages in the group", async () => toGroup().length >= 2, 30_000);
    const [first, second] = toGroup();
    expect(first!.params.text).toContain(order.id);
    expect(second!.params.text).toMatch(/^Question #\d+/);
  });

  it("counts an answered question as closed: its customer may ask again", async () => {
    const userId = 7_200_000_000;
    const [open] = await db.supportRequest.findMany({ where: { userId }, take: 1 });
    const group = await db.operatorGroup.findFirstOrThrow();
    const askAgain = () =>
      shop.support.open({
        userId,
        chatId: userId,
        topic: "paysupport",
        text: "",
        customer: { name: "C" },
      });
    const refused = await askAgain();
    expect(refused).toEqual({ status: "too-many", max: MAX_OPEN_SUPPORT_REQUESTS });
    await shop.support.answer({
      requestId: open!.id,
      answerKey: `${group.chatId}:1`,
      text: "Yes, we do.",
    });
    const again = await askAgain();
    expect(again.status).toBe("ok");
  });
});
