// The demo's promo codes: the operator creates a limited code from the group at the start, some
// shoppers apply it to their cart (by reply to the bot's question) before Checkout, and at the end
// the shop is checked: uses never above the limit, each held by an open or paid order, and every
// expired or cancelled reservation's use given back.
import type { Database } from "@orderbot/db";
import type { FakeTelegram, SimulatedUser, TgMessage } from "@orderbot/fake-telegram";
import type { Operator } from "./operator.ts";
import type { InvariantResult } from "./invariants.ts";
import { buttonsOf, delivered, FlowStopped, screenAfter } from "./shopper-screens.ts";

/** `/promo add CODE PERCENT% uses=LIMIT` from the operator group; the bot's reply. */
export async function createPromoCode(
  operator: Operator,
  code: { code: string; percent: number; uses: number },
): Promise<string> {
  const sent = await operator.user.send(
    `/promo add ${code.code} ${code.percent}% uses=${code.uses}`,
    { in: operator.group },
  );
  await sent.handled();
  const reply = await operator.group.waitForMessage(
    (m) => m.reply_to_message?.message_id === sent.message.message_id,
  );
  if (!reply.text?.startsWith("Created:"))
    throw new Error(`the promo code was not created: ${reply.text ?? "(no reply)"}`);
  return reply.text;
}

/**
 * On the cart screen: press "Promo code", answer the bot's question with the code, and return the
 * cart the bot shows then (with the discount, or as it was when the code is refused: used up).
 */
export async function applyPromoCode(
  kit: FakeTelegram,
  user: SimulatedUser,
  cart: TgMessage,
  code: string,
): Promise<TgMessage> {
  if (!buttonsOf(cart).includes("🏷 Promo code")) return cart;
  await delivered(await user.press("🏷 Promo code", { messageId: cart.message_id }), "promo code");
  const prompt = screenAfter(kit, user, -1);
  if (!prompt.text?.startsWith("Send your promo code"))
    throw new FlowStopped("the bot did not ask for the promo code");
  await delivered(await user.send(code, { replyTo: prompt.message_id }), "the promo code");
  const answer = screenAfter(kit, user, -1);
  // Applied: the answer is the cart with its discount and Checkout. Refused: the cart as it was.
  return buttonsOf(answer).some((b) => b.startsWith("✅ Checkout")) ? answer : cart;
}

/** The demo report's figures for one code: uses held now against its limit. */
export async function promoFigures(
  db: Database,
  code: string,
): Promise<{ code: string; used: number; limit: number; returned: number } | null> {
  const row = await db.promoCode.findUnique({ where: { code } });
  if (!row) return null;
  const [uses] = await db.$queryRaw<{ held: number; returned: number }[]>`
    SELECT count(*) FILTER (WHERE returned_at IS NULL)::int AS held,
           count(*) FILTER (WHERE returned_at IS NOT NULL)::int AS returned
    FROM promo_uses WHERE code_id = ${row.id}`;
  return { code, used: uses?.held ?? 0, limit: row.totalUses, returned: uses?.returned ?? 0 };
}

type Row = Record<string, unknown>;

/**
 * "promo uses never exceed their limit and every expired or cancelled reservation gave its use
 * back": per code, the uses held equal total − remaining and are at most the total; no customer
 * holds more than per_customer; an order holds its use exactly while it holds its stock.
 */
export async function checkPromoUses(db: Database): Promise<InvariantResult> {
  const q = (sql: string) => db.$queryRawUnsafe<Row[]>(sql);
  const codes = await q(`
    SELECT c.code, c.total_uses, c.remaining_uses,
           (SELECT count(*) FROM promo_uses u WHERE u.code_id = c.id AND u.returned_at IS NULL)::int AS held
      FROM promo_codes c
     WHERE c.total_uses - c.remaining_uses <> (SELECT count(*) FROM promo_uses u WHERE u.code_id = c.id AND u.returned_at IS NULL)
        OR (SELECT count(*) FROM promo_uses u WHERE u.code_id = c.id AND u.returned_at IS NULL) > c.total_uses`);
  const customers = await q(`
    SELECT c.code, u.user_id::text AS user_id, count(*)::int AS held, c.per_customer
      FROM promo_uses u JOIN promo_codes c ON c.id = u.code_id
     WHERE u.returned_at IS NULL
     GROUP BY c.id, u.user_id HAVING count(*) > c.per_customer`);
  const orders = await q(`
    SELECT o.public_id, o.status::text AS status, u.returned_at IS NOT NULL AS returned
      FROM orders o LEFT JOIN promo_uses u ON u.order_id = o.id
     WHERE o.promo_code_id IS NOT NULL
       AND (u.id IS NULL
            OR (o.status IN ('EXPIRED', 'CANCELLED') AND u.returned_at IS NULL)
            OR (o.status IN ('RESERVED', 'PAYING', 'PAID', 'PROCESSING', 'SHIPPED', 'DELIVERED')
                AND u.returned_at IS NOT NULL))`);
  const examples = [
    ...codes.map(
      (r) => `code ${r.code}: ${r.held} uses held, ${r.total_uses} - ${r.remaining_uses} counted`,
    ),
    ...customers.map((r) => `code ${r.code}: a customer holds ${r.held} of ${r.per_customer}`),
    ...orders.map(
      (r) => `order ${r.public_id} (${r.status}): use ${r.returned ? "given back" : "held"}`,
    ),
  ];
  return {
    name: "promo uses never exceed their limit and every expired or cancelled reservation gave its use back",
    ok: examples.length === 0,
    violations: examples.length,
    examples: examples.slice(0, 5),
  };
}
