// The amount of a physical order at pre-checkout and at confirmation: the goods plus the price of
// the option chosen, from the shop's configuration; a client's total that leaves shipping out, an
// unknown option or an address the option does not reach is refused.
import { beforeAll, describe, expect, it } from "vitest";
import {
  BERLIN_ADDRESS,
  addProduct,
  paymentFor,
  placed,
  unique,
  user,
} from "../support/fixtures.ts";
import { assertInvariants } from "@orderbot/testkit";
import { useShopHarness } from "../support/shop.ts";
import { deliveries } from "../support/deliveries.ts";

const OPS_CHAT = -1_001_000_000_031n;
const shippingOptions = [
  { id: "pickup", title: "Pickup in store", price: 0, countries: ["DE"] },
  { id: "courier", title: "Courier", price: 500, countries: ["DE", "AT"] },
];
const ADDRESS = BERLIN_ADDRESS;
const ORDER_INFO = {
  name: "Ann Lee",
  phone_number: "+49 151 2345 6767",
  shipping_address: ADDRESS,
};

const h = useShopHarness({ config: { shippingOptions } });
beforeAll(async () => {
  await h.shop.groups.bind({ chatId: OPS_CHAT, title: "Ops", boundBy: user(900) });
});

async function physicalOrder(n: number) {
  const p = await addProduct(h.db, { stock: 10, priceMinor: 1_250, currency: "USD" });
  await h.db.product.update({ where: { id: p.id }, data: { kind: "PHYSICAL" } });
  return placed(h.shop, user(n), [{ sku: p.sku, quantity: 2 }]);
}

describe("pre-checkout of a physical order", () => {
  it("accepts goods + the chosen option's price, and refuses a total without shipping", async () => {
    const order = await physicalOrder(1);
    expect(order.totalMinor).toBe(2_500);
    const ask = (amount: number, extra: object) =>
      h.shop.payments.checkPayable({
        orderId: order.id,
        userId: order.userId,
        amount,
        currency: "USD",
        ...extra,
      });
    const courier = { shippingOptionId: "courier", shippingAddress: { country_code: "DE" } };
    expect(await ask(2_500, courier)).toEqual({ status: "refused", reason: "wrong-amount" });
    expect(await ask(2_600, courier)).toEqual({ status: "refused", reason: "wrong-amount" });
    expect(await ask(3_000, {})).toEqual({ status: "refused", reason: "wrong-shipping" });
    expect(
      await ask(3_000, { shippingOptionId: "drone", shippingAddress: { country_code: "DE" } }),
    ).toEqual({ status: "refused", reason: "wrong-shipping" });
    expect(
      await ask(3_000, { shippingOptionId: "courier", shippingAddress: { country_code: "FR" } }),
    ).toEqual({ status: "refused", reason: "wrong-shipping" });
    // Nothing moved while refused.
    expect((await h.db.order.findUnique({ where: { publicId: order.id } }))!.status).toBe(
      "RESERVED",
    );
    expect(await ask(3_000, courier)).toMatchObject({ status: "ok", order: { status: "PAYING" } });
  });
});

describe("confirmation of a physical order", () => {
  it("refunds a payment whose total leaves shipping out", async () => {
    const order = await physicalOrder(2);
    const result = await h.shop.payments.confirmPayment({
      ...paymentFor(order),
      shippingOptionId: "courier",
      orderInfo: ORDER_INFO,
    });
    expect(result).toMatchObject({ status: "refund-pending", reason: "amount-mismatch" });
    const row = await h.db.order.findUnique({ where: { publicId: order.id } });
    expect(row).toMatchObject({ status: "RESERVED", shippingOptionId: null, orderInfo: null });
    await assertInvariants(h.db);
  });

  it("records goods + shipping paid, the option and the order info; operators see the buyer masked", async () => {
    const order = await physicalOrder(3);
    const result = await h.shop.payments.confirmPayment({
      ...paymentFor(order),
      amount: 3_000,
      shippingOptionId: "courier",
      orderInfo: ORDER_INFO,
    });
    expect(result).toMatchObject({
      status: "ok",
      order: {
        status: "PAID",
        totalMinor: 2_500,
        shipping: {
          optionId: "courier",
          shippingMinor: 500,
          nameMasked: "A••• L•••",
          phoneMasked: "+49 ••• ••• 67",
          addressMasked: "•••, Berlin, DE",
          hasContact: true,
        },
      },
      payment: { amountMinor: 3_000, currency: "USD", status: "CAPTURED" },
    });
    const row = await h.db.order.findUnique({ where: { publicId: order.id } });
    expect(row).toMatchObject({ shippingOptionId: "courier", shippingMinor: 500 });
    expect(row!.orderInfo).toEqual(ORDER_INFO);

    const [alert] = await deliveries(h.db, `paid:${order.id}:`);
    // The event names the order: the worker shows its shipping, masked as above, when it sends it.
    const payload = alert!.payload;
    expect(payload).toMatchObject({ orderId: order.id, amountMinor: 3_000 });
    for (const secret of ["2345 6767", "Ann Lee", "Invalidenstr", "10115"])
      expect(JSON.stringify(payload)).not.toContain(secret);
    await assertInvariants(h.db);
  });

  it("shows the buyer's full details to an operator who asks, and records who asked", async () => {
    const order = await physicalOrder(4);
    await h.shop.payments.confirmPayment({
      ...paymentFor(order, unique("charge")),
      amount: 3_000,
      shippingOptionId: "courier",
      orderInfo: ORDER_INFO,
    });
    const revealed = await h.shop.shipping.revealPhone({
      orderId: order.id,
      operatorId: user(901),
      operatorName: "Bo",
    });
    expect(revealed).toEqual({
      status: "ok",
      contact: {
        name: "Ann Lee",
        phone: "+49 151 2345 6767",
        email: null,
        address: "Invalidenstr. 1, 10115 Berlin, DE",
      },
    });
    const reveals = await h.db.orderPhoneReveal.findMany({
      where: { order: { publicId: order.id } },
    });
    expect(reveals).toMatchObject([
      { actor: `op:${h.shop.deps.mask(user(901))}`, actorName: "Bo" },
    ]);
    expect(
      await h.shop.shipping.revealPhone({ orderId: "ZZZZZZZZ", operatorId: user(901) }),
    ).toEqual({ status: "not-found" });
  });
});
