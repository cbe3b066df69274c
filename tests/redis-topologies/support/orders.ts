// One reserved order and the two things two lock holders may try to do to it at once: pay it or
// cancel it. Each is a short transaction whose first statement is the conditional transition
// `UPDATE orders SET status = :to, version = version + 1 WHERE id = :id AND status = 'RESERVED'
// AND version = :v`; its row count decides who won, whatever the locks said.
import { randomBytes } from "node:crypto";
import { runTransaction, type Database, type Tx } from "@orderbot/db";

const QUANTITY = 2;
const INITIAL_STOCK = 10;

export interface ReservedOrder {
  orderId: number;
  productId: number;
  version: number;
}

export async function createReservedOrder(db: Database): Promise<ReservedOrder> {
  const tag = randomBytes(6).toString("hex");
  return runTransaction(db, async (tx) => {
    const product = await tx.product.create({
      data: {
        sku: `TOPO-${tag}`,
        titleEn: "Tea",
        titleZh: "茶",
        priceMinor: 100,
        currency: "XTR",
        // The order's line takes its QUANTITY units at COMMIT (trigger "Order_line_takes_stock").
        stock: INITIAL_STOCK,
      },
    });
    const order = await tx.order.create({
      data: {
        publicId: `T${tag}`,
        userId: 7_000_000_001n,
        chatId: 7_000_000_001n,
        status: "RESERVED",
        totalMinor: 100 * QUANTITY,
        currency: "XTR",
        expiresAt: new Date(Date.now() + 15 * 60_000),
        idempotencyKey: `topology:${tag}`,
        items: { create: { productId: product.id, quantity: QUANTITY, unitPriceMinor: 100 } },
      },
    });
    await tx.stockMovement.createMany({
      data: [
        { productId: product.id, delta: INITIAL_STOCK, reason: "SEED" },
        { productId: product.id, orderId: order.id, delta: -QUANTITY, reason: "RESERVE" },
      ],
    });
    return { orderId: order.id, productId: product.id, version: order.version };
  });
}

export type Outcome = "won" | "lost";

/**
 * One transaction: the order moves from RESERVED (at the version read) to `status` and `effects`
 * run, or, when another transition got there first, nothing is written.
 */
function leaveReserved(
  db: Database,
  order: ReservedOrder,
  status: "PAID" | "CANCELLED",
  effects: (tx: Tx) => Promise<unknown>,
): Promise<Outcome> {
  return runTransaction(db, async (tx) => {
    const { count } = await tx.order.updateMany({
      where: { id: order.orderId, status: "RESERVED", version: order.version },
      data: { status, version: { increment: 1 } },
    });
    if (count === 0) return "lost";
    await effects(tx);
    return "won";
  });
}

/** The payment confirmation: RESERVED -> PAID and the payment recorded, or nothing. */
export function payOrder(db: Database, order: ReservedOrder, chargeId: string): Promise<Outcome> {
  return leaveReserved(db, order, "PAID", async (tx) => {
    await tx.payment.create({
      data: {
        orderId: order.orderId,
        userId: 7_000_000_001n,
        telegramChargeId: chargeId,
        amountMinor: 100 * QUANTITY,
        currency: "XTR",
        status: "CAPTURED",
      },
    });
  });
}

/** The cancellation: RESERVED -> CANCELLED and the stock given back once, or nothing. */
export function cancelOrder(db: Database, order: ReservedOrder): Promise<Outcome> {
  return leaveReserved(db, order, "CANCELLED", async (tx) => {
    await tx.product.update({
      where: { id: order.productId },
      data: { stock: { increment: QUANTITY } },
    });
    await tx.stockMovement.create({
      data: {
        productId: order.productId,
        orderId: order.orderId,
        delta: QUANTITY,
        reason: "RELEASE",
      },
    });
  });
}

export interface OrderFacts {
  status: string;
  version: number;
  stock: number;
  /** Sum of the ledger: equals `stock` when every stock change was recorded exactly once. */
  ledger: number;
  payments: number;
}

export async function orderFacts(db: Database, order: ReservedOrder): Promise<OrderFacts> {
  const [row, product, ledger, payments] = await Promise.all([
    db.order.findUniqueOrThrow({ where: { id: order.orderId } }),
    db.product.findUniqueOrThrow({ where: { id: order.productId } }),
    db.stockMovement.aggregate({ where: { productId: order.productId }, _sum: { delta: true } }),
    db.payment.count({ where: { orderId: order.orderId } }),
  ]);
  return {
    status: row.status,
    version: row.version,
    stock: product.stock,
    ledger: ledger._sum.delta ?? 0,
    payments,
  };
}

/** What a consistent end state looks like: exactly one of the two transitions, applied once. */
export const PAID_ONCE: Omit<OrderFacts, "version"> = {
  status: "PAID",
  stock: INITIAL_STOCK - QUANTITY,
  ledger: INITIAL_STOCK - QUANTITY,
  payments: 1,
};
export const CANCELLED_ONCE: Omit<OrderFacts, "version"> = {
  status: "CANCELLED",
  stock: INITIAL_STOCK,
  ledger: INITIAL_STOCK,
  payments: 0,
};
