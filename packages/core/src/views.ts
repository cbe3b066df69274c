import type { OrderStatus, PaymentStatus, Prisma, ProductKind, PromoKind } from "@orderbot/db";
import { timelineEntryView, type TimelineEntryView } from "./fulfilment/timeline.ts";
import { shippingView, type OrderShippingView } from "./shipping/shipping-view.ts";

/** A product as shown to users and operators. Money: integer minor units, with its currency. */
export interface ProductView {
  id: number;
  sku: string;
  title: { en: string; zh: string };
  priceMinor: number;
  currency: string;
  stock: number;
  active: boolean;
  version: number;
  /** The card's photo: an HTTP(S) URL or a Telegram file_id; null shows a text card. */
  photo: string | null;
  /** The catalog category it is listed in; null: "Other products". */
  categoryId: number | null;
}

export interface OrderItemView {
  sku: string;
  title: { en: string; zh: string };
  /** PHYSICAL lines are shipped and paid through the provider; DIGITAL ones with Stars. */
  kind?: ProductKind;
  quantity: number;
  unitPriceMinor: number;
}

/** An order as callers see it: `id` is the short public id, never the database key. */
export interface OrderView {
  id: string;
  userId: bigint;
  chatId: bigint;
  status: OrderStatus;
  totalMinor: number;
  currency: string;
  expiresAt: Date;
  createdAt: Date;
  version: number;
  items: OrderItemView[];
  /**
   * Its history, oldest first: each status change (who, when, a note such as a tracking number)
   * and any refund after shipping. Present whenever the order was read from the database.
   */
  timeline?: TimelineEntryView[];
  /**
   * The promo code it was placed with and what it took off (`totalMinor` is already after the
   * discount); null or absent: none.
   */
  promo?: OrderPromoView | null;
  /**
   * A paid physical order's shipping (option, price, name, address, phone masked): the payment
   * was `totalMinor + shipping.shippingMinor`. Null or absent: not shipped (digital, or unpaid).
   */
  shipping?: OrderShippingView | null;
}

export interface OrderPromoView {
  code: string;
  kind: PromoKind;
  value: number;
  discountMinor: number;
}

export interface PaymentView {
  telegramChargeId: string;
  orderId: string | null;
  amountMinor: number;
  currency: string;
  status: PaymentStatus;
}

export const ORDER_INCLUDE = {
  items: {
    include: { product: { select: { sku: true, titleEn: true, titleZh: true } } },
    orderBy: { productId: "asc" },
  },
  timeline: { orderBy: { id: "asc" } },
  promoCode: { select: { code: true, kind: true, value: true } },
} as const satisfies Prisma.OrderInclude;

export type OrderWithItems = Prisma.OrderGetPayload<{ include: typeof ORDER_INCLUDE }>;

export function orderView(order: OrderWithItems): OrderView {
  return {
    id: order.publicId,
    userId: order.userId,
    chatId: order.chatId,
    status: order.status,
    totalMinor: order.totalMinor,
    currency: order.currency,
    expiresAt: order.expiresAt,
    createdAt: order.createdAt,
    version: order.version,
    items: order.items.map((item) => ({
      sku: item.product.sku,
      title: { en: item.product.titleEn, zh: item.product.titleZh },
      kind: item.kind,
      quantity: item.quantity,
      unitPriceMinor: item.unitPriceMinor,
    })),
    timeline: order.timeline.map(timelineEntryView),
    promo: order.promoCode ? { ...order.promoCode, discountMinor: order.discountMinor } : null,
    shipping: shippingView(order),
  };
}

type ProductRow = Prisma.ProductGetPayload<object>;

export function productView(p: ProductRow): ProductView {
  return {
    id: p.id,
    sku: p.sku,
    title: { en: p.titleEn, zh: p.titleZh },
    priceMinor: p.priceMinor,
    currency: p.currency,
    stock: p.stock,
    active: p.active,
    version: p.version,
    photo: p.photo,
    categoryId: p.categoryId,
  };
}

export function paymentView(
  p: { telegramChargeId: string; amountMinor: number; currency: string; status: PaymentStatus },
  orderId: string | null,
): PaymentView {
  return {
    telegramChargeId: p.telegramChargeId,
    orderId,
    amountMinor: p.amountMinor,
    currency: p.currency,
    status: p.status,
  };
}
