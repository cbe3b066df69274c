// The rights table in core: every command that needs a right checks it itself, whichever way in
// called it. A moderator (an admin without "Add new admins") is refused money's commands, even by
// a way round the chat's own check (`/kind SKU digital PRICE` once set any price), and nothing
// changes.
import { describe, expect, it } from "vitest";
import { addProduct, paymentFor, placed, user } from "../support/fixtures.ts";
import { useShopHarness } from "../support/shop.ts";
import { mayDo, type Actor, type Member } from "../../src/rights/index.ts";

const h = useShopHarness();

const moderator: Member = {
  role: "admin",
  rights: ["can_delete_messages", "can_restrict_members", "can_pin_messages"],
};
const actor = (member: Member): Actor => ({ id: user(900), member });
const forbidden = (action: string) => ({
  status: "forbidden",
  action,
  right: "can_promote_members",
});

/** Everything the refused commands could change, read back. */
async function state(orderId: string, sku: string) {
  return Promise.all([
    h.db.order.findUniqueOrThrow({ where: { publicId: orderId }, select: { status: true } }),
    h.db.payment.findMany({ select: { status: true } }),
    h.db.product.findUniqueOrThrow({
      where: { sku },
      select: { priceMinor: true, kind: true, version: true, stock: true },
    }),
    h.db.priceChange.count(),
    h.db.promoCode.count(),
    h.db.outboxMessage.count(),
  ]);
}

describe("core's rights table", () => {
  it("refuses a refund, a price, a kind and a promo code to an admin without the right", async () => {
    const p = await addProduct(h.db, { stock: 5, priceMinor: 40 });
    const order = await placed(h.shop, user(1), [{ sku: p.sku, quantity: 1 }]);
    expect((await h.shop.payments.confirmPayment(paymentFor(order))).status).toBe("ok");
    const before = await state(order.id, p.sku);
    const by = actor(moderator);

    expect(await h.shop.payments.refundOrder(order.id, by)).toEqual(forbidden("refund"));
    expect(await h.shop.stock.setPrice({ sku: p.sku, priceMinor: 1, actor: by })).toEqual(
      forbidden("price"),
    );
    expect(
      await h.shop.shipping.setProductKind({
        sku: p.sku,
        kind: "DIGITAL",
        currency: "XTR",
        priceMinor: 1,
        actor: by,
      }),
    ).toEqual(forbidden("kind"));
    expect(
      await h.shop.promotions.create({
        code: "ALMOSTFREE",
        kind: "PERCENT",
        value: 99,
        currency: null,
        totalUses: 50,
        actor: by,
      }),
    ).toEqual(forbidden("promo-add"));
    expect(await state(order.id, p.sku)).toEqual(before);
  });

  it("refuses retrying, marking and resolving what the shop owes to an admin without the right", async () => {
    const p = await addProduct(h.db, { stock: 5, priceMinor: 40 });
    const order = await placed(h.shop, user(2), [{ sku: p.sku, quantity: 1 }]);
    await h.shop.payments.confirmPayment(paymentFor(order));
    const second = paymentFor(order);
    expect((await h.shop.payments.confirmPayment(second)).status).toBe("refund-pending");
    const ref = { telegramChargeId: second.telegramChargeId };
    const finding = await h.db.starLedgerFinding.create({
      data: { kind: "charge-missing", telegramChargeId: "stxMayDo", telegramAmount: 25 },
    });
    const read = () =>
      Promise.all([
        h.db.payment.findUniqueOrThrow({ where: { telegramChargeId: ref.telegramChargeId } }),
        h.db.starLedgerFinding.findUniqueOrThrow({ where: { id: finding.id } }),
        h.db.outboxMessage.findMany({ select: { status: true, attempts: true } }),
      ]);
    const before = await read();
    const by = actor(moderator);

    expect(await h.shop.payments.retryRefund(ref, by)).toEqual(forbidden("refund-retry"));
    expect(await h.shop.payments.markRefundedByHand({ ref, actor: by })).toEqual(
      forbidden("refund-mark"),
    );
    expect(await h.shop.ledger.resolveFinding(finding.id, by)).toEqual(
      forbidden("finding-resolve"),
    );
    expect(await read()).toEqual(before);
  });

  it("lets an admin with the right, and an owner, do them; /stock takes any admin", async () => {
    const p = await addProduct(h.db, { stock: 5, priceMinor: 40 });
    const holder = actor({ role: "admin", rights: ["can_promote_members"] });
    expect(
      (await h.shop.stock.setPrice({ sku: p.sku, priceMinor: 30, actor: holder })).status,
    ).toBe("ok");
    expect(
      (await h.shop.stock.adjustStock(p.sku, { op: "add", units: 1 }, actor(moderator))).status,
    ).toBe("ok");
    expect(
      await h.shop.stock.adjustStock(
        p.sku,
        { op: "add", units: 1 },
        actor({ role: "none", rights: [] }),
      ),
    ).toEqual({ status: "forbidden", action: "stock", right: null });
    expect(await h.db.product.findUniqueOrThrow({ where: { id: p.id } })).toMatchObject({
      priceMinor: 30,
      stock: 6,
    });
  });

  it("mayDo: owners everything, admins what their rights allow, others nothing", () => {
    const owner: Member = { role: "owner", rights: [] };
    expect(mayDo("refund", owner)).toBe(true);
    expect(mayDo("refund", moderator)).toBe(false);
    expect(mayDo("stock", moderator)).toBe(true);
    expect(mayDo("stock", { role: "none", rights: ["can_promote_members"] })).toBe(false);
  });
});
