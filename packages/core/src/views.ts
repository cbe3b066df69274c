import type { OrderStatus, PaymentStatus, Prisma } from "@orderbot/db";
import { timelineEntryView, type TimelineEntryView } from "./fulfilment/timeline.ts";

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
      quantity: item.quantity,
      unitPriceMinor: item.unitPriceMinor,
    })),
    timeline: order.timeline.map(timelineEntryView),
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
