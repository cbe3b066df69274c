// What the storefront's API answers, as JSON: amounts as values (minor units and a currency),
// never formatted text; times as ISO strings; ids a browser can hold (no bigint). Only what the
// customer may see: no operator names, no other customer's data.
import type { Money, OrderView, ProductView } from "@orderbot/core";
import type { CartView } from "@orderbot/core/cart";
import type { CategoryView } from "@orderbot/core/catalog";

const money = (minor: number, currency: string): Money => ({ minor, currency });

/** A photo the browser may load itself: an HTTP(S) URL. A Telegram file_id needs the proxy. */
const photoUrl = (photo: string | null) => (photo && /^https?:\/\//.test(photo) ? photo : null);

export function productJson(product: ProductView) {
  return {
    id: product.id,
    sku: product.sku,
    title: product.title,
    price: money(product.priceMinor, product.currency),
    stock: product.stock,
    onSale: product.active,
    photoUrl: photoUrl(product.photo),
    categoryId: product.categoryId,
  };
}

export function categoryJson(category: CategoryView) {
  return {
    id: category.id,
    slug: category.slug,
    title: category.title,
    parentId: category.parentId,
    productCount: category.productCount,
    subcategoryCount: category.subcategoryCount,
  };
}

export function cartJson(cart: CartView) {
  const currency = cart.currency;
  return {
    revision: cart.revision,
    lines: cart.lines.map((line) => ({
      product: productJson(line.product),
      quantity: line.quantity,
    })),
    units: cart.units,
    total: currency === null ? null : money(cart.totalMinor, currency),
    promo:
      cart.promo && currency !== null
        ? {
            code: cart.promo.code,
            discount: money(cart.promo.discountMinor, currency),
            payable: money(cart.promo.payableMinor, currency),
            problem: cart.promo.problem?.reason ?? null,
          }
        : null,
  };
}

/** The customer's view of an order: its state, lines and timeline (who moved it, not by name). */
export function orderJson(order: OrderView) {
  return {
    id: order.id,
    status: order.status,
    total: money(order.totalMinor, order.currency),
    expiresAt: order.expiresAt.toISOString(),
    createdAt: order.createdAt.toISOString(),
    items: order.items.map((item) => ({
      sku: item.sku,
      title: item.title,
      quantity: item.quantity,
      unitPrice: money(item.unitPriceMinor, order.currency),
    })),
    discount: order.promo
      ? { code: order.promo.code, amount: money(order.promo.discountMinor, order.currency) }
      : null,
    timeline: (order.timeline ?? []).map((entry) => ({
      event: entry.event,
      from: entry.from,
      to: entry.to,
      at: entry.at.toISOString(),
      note: entry.note,
    })),
  };
}
