// A product's kind is kept on each order line at the reservation, like its price: an operator's
// /kind between the pre-checkout and the payment changes neither how the order is paid (shipping
// in the amount or not) nor how it is delivered (codes from the pool or not).
import { describe, expect, it } from "vitest";
import { assertInvariants } from "@orderbot/testkit";
import {
  addProduct,
  BERLIN_ADDRESS,
  loadCodes,
  paymentFor,
  placed,
  user,
} from "../support/fixtures.ts";
import { useShopHarness } from "../support/shop.ts";
import { ownerActor } from "../../src/rights/index.ts";

const OPERATOR = 9_000_000_001n;
const shippingOptions = [{ id: "courier", title: "Courier", price: 500, countries: ["DE"] }];
const ORDER_INFO = {
  name: "Ann Lee",
  shipping_address: BERLIN_ADDRESS,
};

const h = useShopHarness({ config: { shippingOptions } });

const itemsOf = (orderId: string) =>
  h.db.digitalItem.count({ where: { order: { publicId: orderId } } });

describe("an operator's /kind between the pre-checkout and the payment", () => {
  it("leaves a digital order paid in Stars, without shipping", async () => {
    const { sku } = await addProduct(h.db, { stock: 0, priceMinor: 40 });
    await loadCodes(h.shop, sku, ["KIND-KEPT-CODE-0001", "KIND-KEPT-CODE-0002"], OPERATOR);
    const order = await placed(h.shop, user(1), [{ sku, quantity: 1 }]);
    const payment = paymentFor(order);
    expect(await h.shop.payments.checkPayable(payment)).toMatchObject({ status: "ok" });
    const changed = await h.shop.shipping.setProductKind({
      sku,
      kind: "PHYSICAL",
      currency: "USD",
      priceMinor: 999,
      actor: ownerActor(OPERATOR),
    });
    expect(changed).toMatchObject({ status: "ok", kind: "PHYSICAL" });

    expect(await h.shop.payments.confirmPayment(payment)).toMatchObject({
      status: "ok",
      codesSent: true,
      order: { status: "PAID", items: [{ kind: "DIGITAL" }] },
    });
    expect(await itemsOf(order.id)).toBe(1);
    await assertInvariants(h.db);
  });

  it("leaves a physical order paid with its shipping, and gives it no codes", async () => {
    const p = await addProduct(h.db, { stock: 5, priceMinor: 1_000, currency: "USD" });
    await h.db.product.update({ where: { id: p.id }, data: { kind: "PHYSICAL" } });
    const order = await placed(h.shop, user(2), [{ sku: p.sku, quantity: 1 }]);
    const payment = { ...paymentFor(order), amount: 1_500 };
    expect(
      await h.shop.payments.checkPayable({
        ...payment,
        shippingOptionId: "courier",
        shippingAddress: { country_code: "DE" },
      }),
    ).toMatchObject({ status: "ok" });
    expect(
      await h.shop.shipping.setProductKind({
        sku: p.sku,
        kind: "DIGITAL",
        currency: "XTR",
        priceMinor: 50,
        actor: ownerActor(OPERATOR),
      }),
    ).toMatchObject({ status: "ok", kind: "DIGITAL" });
    await loadCodes(h.shop, p.sku, ["NOW-DIGITAL-CODE-0001"], OPERATOR);

    expect(
      await h.shop.payments.confirmPayment({
        ...payment,
        shippingOptionId: "courier",
        orderInfo: ORDER_INFO,
      }),
    ).toMatchObject({
      status: "ok",
      codesSent: false,
      order: { status: "PAID", shipping: { optionId: "courier", shippingMinor: 500 } },
    });
    expect(await itemsOf(order.id)).toBe(0);
  });
});
