import type { Database } from "@orderbot/db";

let seq = 0;
/** A unique name per call within a test file. */
export const unique = (prefix: string) => `${prefix}-${++seq}`;

/** Telegram ids above 2^32, as real ones are. */
export const user = (n: number) => 7_000_000_000n + BigInt(n);

/** A product with its SEED ledger row, so stock = sum(ledger) from the start. */
export async function addProduct(
  db: Database,
  options: {
    sku?: string;
    stock: number;
    priceMinor?: number;
    currency?: string;
    active?: boolean;
  },
) {
  const sku = options.sku ?? unique("SKU");
  return db.$transaction(async (tx) => {
    const product = await tx.product.create({
      data: {
        sku,
        titleEn: sku,
        titleZh: sku,
        priceMinor: options.priceMinor ?? 10,
        currency: options.currency ?? "XTR",
        stock: options.stock,
        active: options.active ?? true,
      },
    });
    if (options.stock > 0)
      await tx.stockMovement.create({
        data: {
          productId: product.id,
          batchId: "seed",
          delta: options.stock,
          reason: "SEED",
          actor: "seed",
        },
      });
    return product;
  });
}

export async function stockOf(db: Database, sku: string): Promise<number> {
  return (await db.product.findUniqueOrThrow({ where: { sku } })).stock;
}

/** One user's intent to order `quantity` of `sku`, under a key of its own. */
export const intent = (userId: bigint, sku: string, quantity: number, tag: string) => ({
  userId,
  chatId: userId,
  items: [{ sku, quantity }],
  idempotencyKey: unique(tag),
});

/** Places an order that must succeed, and returns it. */
export async function placed(
  shop: import("../../src/index.ts").Shop,
  userId: bigint,
  items: { sku: string; quantity: number }[],
): Promise<import("../../src/index.ts").OrderView> {
  const result = await shop.orders.placeOrder({
    userId,
    chatId: userId,
    items,
    idempotencyKey: unique("order"),
  });
  if (result.status !== "ok") throw new Error(`placeOrder: ${JSON.stringify(result)}`);
  return result.order;
}

type PlacedOrder = { id: string; userId: bigint; totalMinor: number; currency: string };

/** A pre-checkout query as Telegram sends it, for an order's full amount. */
export const payable = (order: PlacedOrder) => ({
  orderId: order.id,
  userId: order.userId,
  amount: order.totalMinor,
  currency: order.currency,
});

/** A successful payment as Telegram reports it, for an order's full amount. */
export function paymentFor(order: PlacedOrder, chargeId = unique("charge")) {
  return { ...payable(order), telegramChargeId: chargeId, providerChargeId: null };
}

/** Loads `codes` into a digital product's pool, as an operator's upload would. */
export function loadCodes(
  shop: import("../../src/index.ts").Shop,
  sku: string,
  codes: string[],
  actor: bigint,
) {
  return shop.delivery.loadCodes({ sku, text: codes.join("\n"), batchId: unique("codes"), actor });
}

/** A shipping address in Telegram's shape (a successful_payment's order_info), in a DE zone. */
export const BERLIN_ADDRESS = {
  country_code: "DE",
  state: "",
  city: "Berlin",
  street_line1: "Invalidenstr. 1",
  street_line2: "",
  post_code: "10115",
};
