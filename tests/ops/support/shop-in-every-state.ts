// A shop with an order in every state, its payments and the Star ledger read from Telegram's list,
// built through core's own services (as the bot and the worker would) on a test database.
import { createDatabase, type Database } from "@orderbot/db";
import {
  createShop,
  defaultShopConfig,
  LOCK_KINDS,
  type OrderView,
  type Shop,
} from "@orderbot/core";
import type { LedgerTransaction } from "@orderbot/core/payments";
import { createRedis } from "@orderbot/platform";
import { createTestRedis, shopLockManager } from "@orderbot/testkit";

const MASK_KEY = "ops-backup-mask-key-0123456789";
const OPERATOR = 7_000_000_900n;
const OPS_CHAT = -1_001_000_000_057n;
const BOT_ID = 7_100_000_057n;
const HOUR = 3_600_000;

export const EVERY_STATE = [
  "RESERVED",
  "PAYING",
  "PAID",
  "PROCESSING",
  "SHIPPED",
  "DELIVERED",
  "CANCELLED",
  "EXPIRED",
  "REFUNDED",
] as const;

/** Fills the database at `url` with one order in each of EVERY_STATE. */
export async function buildShopInEveryState(url: string): Promise<void> {
  let now = Date.parse("2026-12-01T12:00:00Z");
  const db = createDatabase({ url, poolMax: 4 });
  const testRedis = await createTestRedis();
  const redis = createRedis({ url: testRedis.url, commandTimeoutMs: 2_000 });
  const locks = shopLockManager({
    redis,
    namespace: testRedis.namespace,
    kinds: LOCK_KINDS,
    hashKey: MASK_KEY,
  });
  const shop = createShop({
    db,
    locks,
    clock: { now: () => new Date(now) },
    config: defaultShopConfig(MASK_KEY),
  });
  try {
    await fill(shop, db, () => new Date((now += 2 * HOUR)));
  } finally {
    await locks.close();
    redis.disconnect();
    await testRedis.cleanup();
    await db.$disconnect();
  }
}

async function fill(shop: Shop, db: Database, twoHoursLater: () => Date): Promise<void> {
  const sku = await addProduct(db);
  let customer = 0;
  const place = async () => {
    const userId = 7_000_000_000n + BigInt(++customer);
    const result = await shop.orders.placeOrder({
      userId,
      chatId: userId,
      items: [{ sku, quantity: 1 }],
      idempotencyKey: `backup-${customer}`,
    });
    if (result.status !== "ok") throw new Error(`placeOrder: ${result.status}`);
    return result.order;
  };
  // Expired first: expiring later would take the reserved and paying orders with it.
  await place();
  await shop.orders.expireDue(twoHoursLater());
  await place();
  const cancelled = await place();
  await expectOk(shop.orders.cancelOrder(cancelled.id, cancelled.userId));
  const paying = await place();
  await expectOk(shop.payments.checkPayable(payable(paying)));
  const paid: OrderView[] = [];
  for (let i = 0; i < 5; i++) {
    const order = await place();
    await expectOk(shop.payments.confirmPayment(paymentOf(order)));
    paid.push(order);
  }
  await moveOn(shop, paid);
  const refunded = paid[4]!;
  await expectRecorded(shop.payments.recordTelegramRefund(paymentOf(refunded)));
  await shop.ledger.reconcile({
    botId: BOT_ID,
    fetchPage: async (offset, limit) => ledgerOf(paid, refunded).slice(offset, offset + limit),
    operatorChats: [],
    graceMs: 0,
  });
}

/** PROCESSING, SHIPPED and DELIVERED, each one step further, by an operator of a bound group. */
async function moveOn(shop: Shop, paid: OrderView[]): Promise<void> {
  await expectOk(shop.groups.bind({ chatId: OPS_CHAT, title: "Ops", boundBy: OPERATOR }));
  const steps = ["PROCESSING", "SHIPPED", "DELIVERED"] as const;
  for (let n = 1; n <= steps.length; n++)
    for (const to of steps.slice(0, n))
      await expectOk(shop.fulfilment.advance({ orderId: paid[n]!.id, to, actor: OPERATOR }));
}

async function addProduct(db: Database): Promise<string> {
  await db.$transaction(async (tx) => {
    const product = await tx.product.create({
      data: {
        sku: "BACKUP-TEA",
        titleEn: "Tea",
        titleZh: "茶",
        priceMinor: 25,
        currency: "XTR",
        stock: 20,
      },
    });
    await tx.stockMovement.create({
      data: { productId: product.id, batchId: "seed", delta: 20, reason: "SEED", actor: "seed" },
    });
  });
  return "BACKUP-TEA";
}

const payable = (o: OrderView) => ({
  orderId: o.id,
  userId: o.userId,
  amount: o.totalMinor,
  currency: o.currency,
});
const paymentOf = (o: OrderView) => ({ ...payable(o), telegramChargeId: `charge-${o.id}` });

/** Telegram's list: every charge in, and the refund out. */
function ledgerOf(paid: OrderView[], refunded: OrderView): LedgerTransaction[] {
  const date = Math.floor(Date.parse("2026-12-01T15:00:00Z") / 1000);
  const partner = (o: OrderView) => ({
    type: "user",
    transaction_type: "invoice_payment",
    user: { id: Number(o.userId) },
    invoice_payload: o.id,
  });
  return [
    ...paid.map((o) => ({ id: `charge-${o.id}`, amount: o.totalMinor, date, source: partner(o) })),
    { id: `charge-${refunded.id}`, amount: refunded.totalMinor, date, receiver: partner(refunded) },
  ];
}

async function expectOk(result: Promise<{ status: string }>): Promise<void> {
  const { status } = await result;
  if (status !== "ok") throw new Error(`expected ok, got ${status}`);
}

async function expectRecorded(result: Promise<{ status: string }>): Promise<void> {
  const { status } = await result;
  if (status !== "recorded") throw new Error(`expected recorded, got ${status}`);
}
