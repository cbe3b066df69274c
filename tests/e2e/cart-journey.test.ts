// The catalog, search and the cart end to end: two bot processes behind one webhook URL, the fake
// Telegram, real PostgreSQL and Redis. The journey's steps are in support/journey.ts, for the
// tests that continue from a paid order.
import { describe, expect, it } from "vitest";
import { useShop } from "./support/shop.ts";
import { stockOf } from "./support/users.ts";
import { addFromCatalog, buyCartOfThree } from "./support/journey.ts";

// Rivals below hold every umbrella left in unpaid orders: no cap on unpaid holds here.
const shop = useShop({ replicas: 2, env: { ORDER_MAX_UNPAID_SHARE: "1" } });

describe("a customer's cart, over two bot replicas", () => {
  it("category → product → a cart of 3 products → checkout → pay: one paid order of 3 lines", async () => {
    const user = shop.kit.createUser({ languageCode: "en" });
    const skus = ["TEA-LONGJING", "CUP-CELADON", "MUG-PANDA"];
    const before = await Promise.all(skus.map((sku) => stockOf(shop.db, sku)));
    const { id, total } = await buyCartOfThree(user);
    const order = await shop.db.order.findUniqueOrThrow({
      where: { publicId: id },
      include: { items: { include: { product: true } }, payments: true },
    });
    expect(order.status).toBe("PAID");
    expect(order.totalMinor).toBe(total);
    expect(order.items.map((i) => [i.product.sku, i.quantity]).sort()).toEqual([
      ["CUP-CELADON", 1],
      ["MUG-PANDA", 1],
      ["TEA-LONGJING", 2],
    ]);
    expect(order.payments.map((p) => [p.status, p.amountMinor])).toEqual([["CAPTURED", total]]);
    expect(await Promise.all(skus.map((sku) => stockOf(shop.db, sku)))).toEqual([
      before[0]! - 2,
      before[1]! - 1,
      before[2]! - 1,
    ]);
    expect(await shop.db.cartItem.count({ where: { userId: BigInt(user.id) } })).toBe(0);
  });

  it("finds a product by a word of its Chinese title", async () => {
    const li = shop.kit.createUser({ languageCode: "zh" });
    await li.send("碧螺春");
    const found = await li.waitForMessage("“碧螺春”共找到 1 件", { timeoutMs: 10_000 });
    expect(found.text).toContain("碧螺春绿茶 50 克：35 ⭐");
    await li.press("碧螺春绿茶 50 克");
    await li.waitForMessage("数量：1，合计 35 ⭐", { edits: true, timeoutMs: 10_000 });
  });

  it("a cart whose second line sold out meanwhile: nothing reserved, the line named, the cart kept", async () => {
    const user = shop.kit.createUser({ languageCode: "en" });
    await addFromCatalog(user, ["Crafts"], "Red Chinese knot");
    await addFromCatalog(user, ["Crafts"], "Oil-paper umbrella", 2);
    // Meanwhile other customers buy every umbrella left (at most 10 per order line).
    for (let rival = 1, left = await stockOf(shop.db, "UMBRELLA-PAPER"); left > 0; rival++) {
      const quantity = Math.min(left, 10);
      const placed = await shop.shop.orders.placeOrder({
        userId: 7_300_000_000 + rival,
        chatId: 7_300_000_000 + rival,
        items: [{ sku: "UMBRELLA-PAPER", quantity }],
        idempotencyKey: `rival-umbrellas-${rival}`,
      });
      expect(placed.status).toBe("ok");
      left -= quantity;
    }
    expect(await stockOf(shop.db, "UMBRELLA-PAPER")).toBe(0);
    const knots = await stockOf(shop.db, "KNOT-RED");

    await user.send("/cart");
    await user.waitForMessage("Your cart:", { timeoutMs: 10_000 });
    const press = await user.press(/^✅ Checkout/);
    const answer = await press.answered(10_000);
    expect(answer.text).toBe(
      "Not enough in stock: Oil-paper umbrella (sold out). Nothing was reserved, and your cart is unchanged: lower those lines or remove them, then check out again.",
    );
    expect(await stockOf(shop.db, "KNOT-RED")).toBe(knots);
    expect(await shop.db.order.count({ where: { userId: BigInt(user.id) } })).toBe(0);
    const cart = await shop.shop.cart.view(user.id);
    expect(cart.lines.map((l) => [l.product.sku, l.quantity])).toEqual([
      ["KNOT-RED", 1],
      ["UMBRELLA-PAPER", 2],
    ]);
  });
});
