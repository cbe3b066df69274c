import { randomBytes } from "node:crypto";
import type { Database } from "@orderbot/db";
import type { NotificationTemplate, OutboxMessageInput } from "@orderbot/core/outbox";

let seq = 0;
const uid = () => `${process.pid}-${++seq}-${randomBytes(3).toString("hex")}`;

export async function createProduct(db: Database, stock: number, currency = "XTR") {
  const sku = `P-${uid()}`;
  // The ledger starts with the initial stock, so stock == sum(delta) from the first row on.
  return db.product.create({
    data: {
      sku,
      titleEn: sku,
      titleZh: sku,
      priceMinor: 10,
      currency,
      stock,
      movements: stock > 0 ? { create: [{ delta: stock, reason: "SEED", actor: "test" }] } : {},
    },
  });
}

/**
 * An order with one line, as core would leave it: its RESERVE ledger row, and the stock taken by
 * the line itself when the insert commits (the schema's "Order_line_takes_stock" trigger).
 */
export async function createOrder(
  db: Database,
  options: {
    productId: number;
    userId: bigint;
    status?: "RESERVED" | "PAID" | "EXPIRED";
    quantity?: number;
    expiresAt?: Date;
    currency?: string;
  },
) {
  const quantity = options.quantity ?? 1;
  return db.order.create({
    data: {
      publicId: uid().replace(/-/g, "").slice(0, 12).toUpperCase(),
      userId: options.userId,
      chatId: options.userId,
      status: options.status ?? "RESERVED",
      totalMinor: 10 * quantity,
      currency: options.currency ?? "XTR",
      expiresAt: options.expiresAt ?? new Date(Date.now() + 600_000),
      idempotencyKey: `idem-${uid()}`,
      items: { create: [{ productId: options.productId, quantity, unitPriceMinor: 10 }] },
      movements: {
        create: [
          { productId: options.productId, delta: -quantity, reason: "RESERVE", actor: "user" },
        ],
      },
    },
  });
}

export async function createPayment(
  db: Database,
  options: {
    orderId: number;
    userId: bigint;
    status: "CAPTURED" | "REFUND_PENDING" | "REFUNDED";
    currency?: string;
    chargeId?: string;
    amountMinor?: number;
  },
) {
  return db.payment.create({
    data: {
      orderId: options.orderId,
      userId: options.userId,
      telegramChargeId: options.chargeId ?? `charge-${uid()}`,
      amountMinor: options.amountMinor ?? 10,
      currency: options.currency ?? "XTR",
      status: options.status,
    },
  });
}

/** A payment owed back: the order expired before it came, so its refund is pending. */
export async function refundOwed(db: Database, userId: bigint) {
  const product = await createProduct(db, 5);
  const order = await createOrder(db, { productId: product.id, userId, status: "EXPIRED" });
  return createPayment(db, { orderId: order.id, userId, status: "REFUND_PENDING" });
}

export const notify = (
  chatId: bigint,
  key: string,
  template: NotificationTemplate = "order-expired",
): OutboxMessageInput => ({
  dedupeKey: key,
  chatId,
  method: "notify",
  payload: { template, params: { orderId: key } },
});
