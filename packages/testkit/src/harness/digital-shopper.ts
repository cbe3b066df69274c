// The demo's digital goods: the operator loads a pool of gift-card codes from the group with
// /codes, some shoppers buy the card, and each paid order's codes arrive in the buyer's chat. At
// the end the chats are read back: every code seen, and any code seen twice (which must not be).
import type { Database } from "@orderbot/db";
import type { FakeTelegram } from "@orderbot/fake-telegram";
import type { CustomerResult } from "./customer.ts";
import { startBuyers, type BuyerOptions, type FlashSale } from "./flash-sale.ts";
import type { Operator } from "./operator.ts";

export const GIFT_CARD = {
  sku: "GIFT-CARD",
  titleEn: "Tea shop gift card",
  titleZh: "茶叶店礼品卡",
  priceMinor: 25,
};

/** The demo's codes: easy to spot in a chat, distinct by their number. */
const codeOf = (n: number) => `DEMO-GIFT-${String(n).padStart(5, "0")}`;
const CODE = /DEMO-GIFT-\d{5}/g;

/**
 * A digital product with no stock, then `/codes GIFT-CARD` with `count` codes from the group: its
 * stock becomes the pool's size. The bot's reply (it says how many were added).
 */
export async function loadGiftCards(
  db: Database,
  operator: Operator,
  count: number,
): Promise<string> {
  await db.product.upsert({
    where: { sku: GIFT_CARD.sku },
    create: { ...GIFT_CARD, currency: "XTR", stock: 0, kind: "DIGITAL" },
    update: {},
  });
  const codes = Array.from({ length: count }, (_, i) => codeOf(i + 1));
  const sent = await operator.user.send(`/codes ${GIFT_CARD.sku}\n${codes.join("\n")}`, {
    in: operator.group,
  });
  await sent.handled();
  const reply = await operator.group.waitForMessage(
    (m) => m.reply_to_message?.message_id === sent.message.message_id,
  );
  if (!/new codes added/.test(reply.text ?? ""))
    throw new Error(`the codes were not loaded: ${reply.text ?? "(no reply)"}`);
  return reply.text!;
}

/** Shoppers who buy the gift card (1 or 2) and pay, arriving over `seconds` like the sale's. */
export function startDigitalShoppers(options: BuyerOptions): FlashSale {
  return startBuyers({ ...options, title: GIFT_CARD.titleEn, maxQuantity: 2 });
}

export interface DigitalFigures {
  loaded: number;
  /** Codes assigned to paid orders (the database). */
  assigned: number;
  /** Distinct codes that reached a buyer's chat. */
  delivered: number;
  /** Sightings of a code beyond its first: in two chats, or twice in one. Must be 0. */
  duplicates: number;
  paid: number;
}

/** What the digital shoppers' chats show, against the pool. */
export async function digitalFigures(
  db: Database,
  kit: FakeTelegram,
  results: CustomerResult[],
): Promise<DigitalFigures> {
  const [pool] = await db.$queryRaw<{ loaded: number; assigned: number }[]>`
    SELECT COUNT(*)::int AS loaded, COUNT(d.order_id)::int AS assigned
      FROM digital_items d JOIN products p ON p.id = d.product_id WHERE p.sku = ${GIFT_CARD.sku}`;
  const seen = new Map<string, number>();
  for (const result of results)
    for (const message of kit.chat(result.userId).botMessages)
      for (const code of (message.text ?? "").match(CODE) ?? [])
        seen.set(code, (seen.get(code) ?? 0) + 1);
  const sightings = [...seen.values()].reduce((sum, n) => sum + n, 0);
  return {
    loaded: pool?.loaded ?? 0,
    assigned: pool?.assigned ?? 0,
    delivered: seen.size,
    duplicates: sightings - seen.size,
    paid: results.filter((r) => r.payment?.status === "paid").length,
  };
}
