// Only an order's latest invoice is paid (INVOICE_NONCE): a Pay press whose invoice went out but
// whose answer was lost fails its update, and its re-delivery sends a second invoice; the first,
// never tracked, is declined at pre-checkout. An invoice of the previous release (a bare order id)
// still pays. In-process bot, real HTTP, PostgreSQL and Redis.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { FakeTelegram, SimulatedUser } from "@orderbot/fake-telegram";
import { callbacks } from "@orderbot/conversation";
import type { BotHarness } from "./support/harness.ts";
import { useBotHarness } from "./support/operators.ts";
import { shopper } from "./storefront/support.ts";

let h: BotHarness, kit: FakeTelegram;
useBotHarness({ env: { INVOICE_NONCE: "true" } }, (opened) => ({ h, kit } = opened));

/** Orders one unit of `sku` from its card; the order (its Pay button is on screen). */
async function placeOrder(user: SimulatedUser, sku: string) {
  const product = await h.db.product.findUniqueOrThrow({ where: { sku } });
  await user.send("/catalog");
  await user.waitForMessage("Catalog");
  const data = callbacks.order.encode({ productId: product.id, qty: 1, categoryId: 0, page: 1 });
  await user.pressData(data, { force: true });
  const placed = await user.waitForMessage(/Order [2-9A-Z]{8}/, { edits: true });
  const publicId = /Order ([2-9A-Z]{8})/.exec(placed.text!)![1]!;
  return h.db.order.findUniqueOrThrow({ where: { publicId } });
}

const paymentsOf = (orderId: number) =>
  h.db.payment.findMany({ where: { orderId }, orderBy: { id: "asc" } });

describe("an order with two invoices in the chat", () => {
  it("declines the older one at pre-checkout and takes payment for the newer one", async () => {
    const buyer = kit.createUser({ firstName: "Twice", languageCode: "en" });
    const order = await placeOrder(buyer, "FAN-SILK");
    // The invoice goes out, but the bot never hears so: its message id is lost with the update.
    const lost = kit.faults.set({ method: "sendInvoice", loseAnswer: true, times: 1 });
    const press = await buyer.press(/^Pay/);
    await press.handled(); // re-delivered until it succeeded
    expect(lost.injected).toBe(1);
    const [older, newer, ...more] = buyer.view().botMessages.filter((m) => m.invoice);
    expect(more).toEqual([]);

    const declined = await buyer.pay({ invoice: older });
    expect(declined).toMatchObject({
      status: "declined",
      errorMessage:
        "A newer invoice for this order was sent: please pay that one. Nothing was charged.",
    });
    const paid = await buyer.pay({ invoice: newer });
    if (paid.status !== "paid") throw new Error(`payment ${paid.status}`);
    await paid.handled();
    expect(kit.charges).toHaveLength(1);
    expect(await paymentsOf(order.id)).toMatchObject([
      { telegramChargeId: paid.chargeId, status: "CAPTURED" },
    ]);
  });

  it("records a payment of a replaced invoice all the same, as a second payment to refund", async () => {
    const buyer = kit.createUser({ firstName: "Late", languageCode: "en" });
    const order = await placeOrder(buyer, "MUG-PANDA");
    await buyer.press(/^Pay/);
    await buyer.waitForMessage((m) => m.invoice !== undefined);
    const paid = await buyer.pay();
    if (paid.status !== "paid") throw new Error(`payment ${paid.status}`);
    await paid.handled();
    // A replaced invoice's payment, its pre-checkout answered before the newer invoice was sent.
    const stale = structuredClone(paid.update);
    stale.update_id += 1_000_000;
    stale.message!.successful_payment!.invoice_payload = `${order.publicId}:replaced`;
    stale.message!.successful_payment!.telegram_payment_charge_id = "stale-charge";
    expect(await h.postUpdate(stale)).toBe(200);
    expect(await paymentsOf(order.id)).toMatchObject([
      { telegramChargeId: paid.chargeId, status: "CAPTURED" },
      { telegramChargeId: "stale-charge", status: "REFUND_PENDING" },
    ]);
  });
});

describe("an invoice of the previous release", () => {
  it("carries the bare order id, and still pays", async () => {
    const buyer = kit.createUser({ firstName: "Legacy", languageCode: "en" });
    const order = await placeOrder(buyer, "MUG-PANDA");
    const id = order.publicId;
    const old = await h.app.bot.api.sendInvoice(
      buyer.id,
      `Order ${id}`,
      "Panda mug",
      id,
      "XTR",
      [{ label: `Order ${id}`, amount: order.totalMinor }],
      { start_parameter: `pay-${id}` },
    );
    const paid = await buyer.pay({ invoice: old.message_id });
    if (paid.status !== "paid") throw new Error(`payment ${paid.status}`);
    await paid.handled();
    expect(await paymentsOf(order.id)).toMatchObject([
      { telegramChargeId: paid.chargeId, status: "CAPTURED" },
    ]);
    expect((await h.db.order.findUniqueOrThrow({ where: { id: order.id } })).status).toBe("PAID");
  });
});

describe("an invoice link of the storefront", () => {
  it("claims the order's live invoice: a retried attempt's newer link is paid, its older one declined", async () => {
    const buyer = kit.createUser({ firstName: "Linked", languageCode: "en" });
    await buyer.send("/start");
    await buyer.waitForMessage("Welcome");
    const api = shopper(h, buyer);
    const fan = await h.db.product.findUniqueOrThrow({ where: { sku: "FAN-SILK" } });
    const set = await api(`/cart/lines/${fan.id}`, { method: "PUT", json: { quantity: 1 } });
    const attempt = { revision: set.body.cart.revision, idempotencyKey: randomUUID() };
    const id: string = (await api("/checkout", { method: "POST", json: attempt })).body.order.id;

    const link = (attemptKey: string) =>
      api(`/orders/${id}/invoice-link`, { method: "POST", json: { attemptKey } });
    const attemptKey = randomUUID();
    const older = await link(attemptKey);
    // Another attempt within the double-tap window finds the invoice claimed.
    expect((await link(randomUUID())).body).toEqual({ status: "invoice-pending" });
    // The same attempt again (its answer was lost): a new link, and only it is paid.
    const newer = await link(attemptKey);
    expect(newer.body.url).not.toBe(older.body.url);
    expect(await buyer.payLink(older.body.url)).toMatchObject({
      status: "declined",
      errorMessage:
        "A newer invoice for this order was sent: please pay that one. Nothing was charged.",
    });
    const paid = await buyer.payLink(newer.body.url);
    if (paid.status !== "paid") throw new Error(`payment ${paid.status}`);
    await paid.handled();
    expect(paid.payload).toMatch(new RegExp(`^${id}:`));
    expect((await api(`/orders/${id}`)).body.order.status).toBe("PAID");
  });
});
