// The demo's physical goods: a shipped tea set sold through a (fake) payment provider in US dollars.
// Its shoppers pay a flexible invoice: the fake Telegram sends the bot a shipping query with each
// simulated buyer's address, the bot answers with the options for that country, the buyer takes the
// first, and the payment is goods + shipping. At the end: paid physical orders per option, and an
// invariant that every one of them kept its option, its address and the right amount.
import { PHYSICAL_DEMO_CATALOG, seedCatalog, type Database } from "@orderbot/db";
import type { CustomerResult } from "./customer.ts";
import { startBuyers, type BuyerOptions, type FlashSale } from "./flash-sale.ts";
import type { InvariantResult } from "./invariants.ts";

const PRODUCT = PHYSICAL_DEMO_CATALOG[0]!;

/** The bots' environment for physical goods: a test provider, and where the shop ships. */
export const PHYSICAL_SHOP_ENV: Readonly<Record<string, string>> = {
  PROVIDER_TOKEN: "284685063:TEST:demo-provider",
  PROVIDER_CURRENCY: "USD",
  SHIPPING_OPTIONS: JSON.stringify([
    { id: "courier", title: "Courier", price: 500, countries: ["DE", "AT"] },
    { id: "post", title: "Post", price: 900, countries: "*" },
  ]),
};

/** Adds the physical products (once, with their seeded stock); returns the one the shoppers buy. */
export async function stockPhysicalGoods(db: Database): Promise<string> {
  await seedCatalog(db, PHYSICAL_DEMO_CATALOG);
  return PRODUCT.titleEn;
}

/** Shoppers who buy the shipped tea set and pay with delivery to their (simulated) address. */
export function startPhysicalShoppers(options: BuyerOptions): FlashSale {
  return startBuyers({ ...options, title: PRODUCT.titleEn, maxQuantity: 1 });
}

export interface PhysicalFigures {
  paid: number;
  /** Paid physical orders by shipping option id. */
  byOption: Record<string, number>;
}

const PAID = `('PAID', 'PROCESSING', 'SHIPPED', 'DELIVERED')`;

export async function physicalFigures(
  db: Database,
  results: CustomerResult[],
): Promise<PhysicalFigures> {
  const rows = await db.$queryRawUnsafe<{ option: string; n: number }[]>(`
    SELECT o.shipping_option_id AS option, count(*)::int AS n FROM orders o
     WHERE o.status IN ${PAID} AND o.shipping_option_id IS NOT NULL GROUP BY 1 ORDER BY 1`);
  return {
    paid: results.filter((r) => r.payment?.status === "paid").length,
    byOption: Object.fromEntries(rows.map((r) => [r.option, r.n])),
  };
}

/** Every paid order of a physical product has its option, its address, and was paid goods + shipping. */
export async function checkPhysicalOrders(db: Database): Promise<InvariantResult> {
  const rows = await db.$queryRawUnsafe<{ public_id: string; problem: string }[]>(`
    SELECT o.public_id,
           CASE WHEN o.shipping_option_id IS NULL THEN 'no shipping option'
                WHEN o.order_info->'shipping_address' IS NULL THEN 'no address'
                ELSE 'paid ' || p.amount_minor || ', goods ' || o.total_minor || ' + shipping ' || o.shipping_minor END AS problem
      FROM orders o
      JOIN payments p ON p.order_id = o.id AND p.status = 'CAPTURED'
     WHERE o.status IN ${PAID}
       AND EXISTS (SELECT 1 FROM order_items i JOIN products pr ON pr.id = i.product_id
                    WHERE i.order_id = o.id AND pr.kind = 'PHYSICAL')
       AND (o.shipping_option_id IS NULL OR o.order_info->'shipping_address' IS NULL
            OR p.amount_minor <> o.total_minor + o.shipping_minor)`);
  return {
    name: "every paid physical order has its shipping option and address, and was paid goods + shipping",
    ok: rows.length === 0,
    violations: rows.length,
    examples: rows.slice(0, 5).map((r) => `order ${r.public_id}: ${r.problem}`),
  };
}
