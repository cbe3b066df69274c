// A charge whose successful_payment is late (the webhook unreachable past the reconciliation grace):
// the reconciler records it against the order its payload names, through the successful_payment
// path, so the update, when it finally comes, changes nothing. A refund only when that path refunds.
import { describe, expect, it } from "vitest";
import {
  invoicePayload,
  newInvoiceNonce,
  type LedgerTransaction,
} from "../../../src/payments/index.ts";
import {
  addProduct,
  loadCodes,
  payable,
  paymentFor,
  placed,
  unique,
  user,
} from "../../support/fixtures.ts";
import { assertInvariants } from "@orderbot/testkit";
import { useShopHarness } from "../../support/shop.ts";

const h = useShopHarness();

const GRACE_MS = 600_000;
const OPERATOR = 9_000_000_001n;
let nextBot = 9_100_000_000n;
let customer = 0;

/** Telegram's ledger, holding the charges it took and the bot never heard of. */
function telegram(charges: { id: string; userId: bigint; amount: number; payload: string }[]) {
  const list: LedgerTransaction[] = charges.map((c) => ({
    id: c.id,
    amount: c.amount,
    date: Math.floor(h.clock.now().getTime() / 1000),
    source: {
      type: "user",
      transaction_type: "invoice_payment",
      user: { id: Number(c.userId) },
      invoice_payload: c.payload,
    },
  }));
  const botId = nextBot++;
  return () =>
    h.shop.ledger.reconcile({
      botId,
      fetchPage: async (offset, limit) => list.slice(offset, offset + limit),
      operatorChats: [],
      graceMs: GRACE_MS,
    });
}

/** A digital order with a pool of codes, through pre-checkout: Telegram charges it next. */
async function payingOrder(codes: string[]) {
  const { sku } = await addProduct(h.db, { stock: 0 });
  await loadCodes(h.shop, sku, codes, OPERATOR);
  const order = await placed(h.shop, user(++customer), [{ sku, quantity: 1 }]);
  const check = await h.shop.payments.checkPayable(payable(order));
  expect(check.status).toBe("ok");
  return { sku, order };
}

const outboxCount = (prefix: string) =>
  h.db.outboxMessage.count({ where: { dedupeKey: { startsWith: prefix } } });

describe("a charge the reconciler finds before its successful_payment", () => {
  it("pays for the order it names, and the late update changes nothing", async () => {
    const { order } = await payingOrder(["LATE-CODE-0001"]);
    const chargeId = unique("late-charge");
    const pass = telegram([
      { id: chargeId, userId: order.userId, amount: order.totalMinor, payload: order.id },
    ]);
    expect((await pass()).found["charge-missing"]).toBe(0); // within the grace: on its way
    h.clock.advance(GRACE_MS + 1_000);
    expect((await pass()).found["charge-missing"]).toBe(1);

    const payment = await h.db.payment.findUniqueOrThrow({ where: { telegramChargeId: chargeId } });
    expect(payment.status).toBe("CAPTURED");
    expect((await h.db.order.findUniqueOrThrow({ where: { publicId: order.id } })).status).toBe(
      "PAID",
    );
    expect(payment.orderId).not.toBeNull();
    // Telegram delivers the successful_payment at last: a duplicate of the recorded charge.
    const late = await h.shop.payments.confirmPayment(paymentFor(order, chargeId));
    expect(late).toMatchObject({ status: "ok", duplicate: true, codesSent: false });
    expect((await pass()).found["charge-missing"]).toBe(0);

    expect(await outboxCount(`delivery:${order.id}:`)).toBe(1);
    expect(await h.db.digitalItem.count({ where: { order: { publicId: order.id } } })).toBe(1);
    expect(await outboxCount(`refund:${chargeId}`)).toBe(0);
    expect(await h.db.payment.count({ where: { order: { publicId: order.id } } })).toBe(1);
    const [finding] = (await h.shop.ledger.openFindings(100)).filter(
      (f) => f.telegramChargeId === chargeId,
    );
    expect(finding?.details).toMatchObject({ orderId: order.id, outcome: "paid" });
    await assertInvariants(h.db);
  });

  it("names its order by an invoice payload that carries a nonce too", async () => {
    const { order } = await payingOrder(["NONCE-CODE-0001"]);
    const chargeId = unique("late-charge");
    const payload = invoicePayload(order.id, newInvoiceNonce());
    const pass = telegram([
      { id: chargeId, userId: order.userId, amount: order.totalMinor, payload },
    ]);
    h.clock.advance(GRACE_MS + 1_000);
    expect((await pass()).found["charge-missing"]).toBe(1);
    expect(
      await h.db.payment.findUniqueOrThrow({ where: { telegramChargeId: chargeId } }),
    ).toMatchObject({ status: "CAPTURED", orderId: expect.any(Number) });
  });

  it("is refunded, against its order, only when the order cannot be honoured", async () => {
    const { order } = await payingOrder(["GONE-CODE-0001"]);
    // The order was cancelled meanwhile and its only unit sold to someone else.
    expect(await h.shop.orders.cancelOrder(order.id, order.userId)).toMatchObject({ status: "ok" });
    await h.db.digitalItem.updateMany({
      where: { secret: "GONE-CODE-0001" },
      data: { revokedAt: h.clock.now() },
    });
    const chargeId = unique("late-charge");
    const pass = telegram([
      { id: chargeId, userId: order.userId, amount: order.totalMinor, payload: order.id },
    ]);
    h.clock.advance(GRACE_MS + 1_000);
    expect((await pass()).found["charge-missing"]).toBe(1);
    const payment = await h.db.payment.findUniqueOrThrow({ where: { telegramChargeId: chargeId } });
    expect(payment.status).toBe("REFUND_PENDING");
    expect(payment.orderId).not.toBeNull();
    expect(await outboxCount(`refund:${chargeId}`)).toBe(1);
    const late = await h.shop.payments.confirmPayment(paymentFor(order, chargeId));
    expect(late).toMatchObject({ status: "refund-pending", duplicate: true });
    expect(await outboxCount(`refund:${chargeId}`)).toBe(1);
  });
});

describe("a late charge after Telegram's list went out of order", () => {
  it("is still stored and recorded: the reader alerts and reads on", async () => {
    const { order } = await payingOrder(["AFTER-BREAK-0001"]);
    const at = (seconds: number) => Math.floor(h.clock.now().getTime() / 1000) + seconds;
    const entry = (id: string, date: number, payload: string): LedgerTransaction => ({
      id,
      amount: order.totalMinor,
      date,
      source: {
        type: "user",
        transaction_type: "invoice_payment",
        user: { id: Number(order.userId) },
        invoice_payload: payload,
      },
    });
    const earlier = entry(unique("earlier"), at(0), "none");
    const list: LedgerTransaction[] = [earlier];
    const botId = nextBot++;
    const pass = () =>
      h.shop.ledger.reconcile({
        botId,
        fetchPage: async (offset, limit) => list.slice(offset, offset + limit),
        operatorChats: [],
        graceMs: GRACE_MS,
      });
    await pass();
    // Entries dated earlier appear past the position: a page out of order, found and alerted.
    list.push(entry(unique("back-1"), at(-20), "none"), entry(unique("back-2"), at(-10), "none"));
    expect(await pass()).toMatchObject({ outOfOrder: true });
    // Then Telegram charges the order, and its successful_payment does not come.
    const chargeId = unique("after-break");
    list.push(entry(chargeId, at(5), order.id));
    h.clock.advance(GRACE_MS + 10_000);
    await pass();
    expect(await h.db.starTransaction.count({ where: { transactionId: chargeId } })).toBe(1);
    const payment = await h.db.payment.findUniqueOrThrow({ where: { telegramChargeId: chargeId } });
    expect(payment.status).toBe("CAPTURED");
    expect((await h.db.order.findUniqueOrThrow({ where: { publicId: order.id } })).status).toBe(
      "PAID",
    );
    const breaks = (await h.shop.ledger.openFindings(100)).filter(
      (f) => f.kind === "ledger-out-of-order",
    );
    expect(breaks.filter((f) => f.telegramChargeId === list[1]!.id)).toHaveLength(1);
  });
});
