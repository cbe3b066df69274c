import { runTransaction, TransactionAbortedError, type ProductKind, type Tx } from "@orderbot/db";
import type { CoreDeps } from "../deps.ts";
import {
  BUSY,
  invalid,
  UNAVAILABLE,
  type Busy,
  type Invalid,
  type Unavailable,
} from "../results.ts";
import {
  isDatabaseOverloaded,
  Rollback,
  UNIQUE,
  violatedUniqueIndex,
} from "../database/db-errors.ts";
import { newPublicId } from "./public-id.ts";
import { utcTimestamp } from "../database/sql-time.ts";
import type { OrderView } from "../views.ts";
import {
  checkInvoiceAmount,
  INVOICE_LIMITS,
  type InvoiceAmountRefusal,
} from "../payments/invoice-limits.ts";
import type { ValidPlaceOrder } from "./place-order-input.ts";
import { findOrderByKey, storedIdempotencyKey } from "./queries.ts";
import { shortfallOf, type ShortLine } from "./shortfall.ts";
import type { PromoRefusal } from "../promotions/terms.ts";
import { priceOrderPromo, takeOrderPromoUse, type OrderPromo } from "../promotions/reservation.ts";

/** The largest total an order can have: `orders.total_minor` is a PostgreSQL integer. */
const MAX_TOTAL_MINOR = 2_147_483_647;

export type PlaceOrderResult =
  | { status: "ok"; order: OrderView; replayed: boolean }
  | { status: "out-of-stock"; short: ShortLine[] }
  /** The user already has `open` open reservations, the most allowed. */
  | { status: "limit"; open: number; max: number }
  | Busy
  | Unavailable
  | Invalid
  /** The order's total is more (or less) than one invoice of its currency may ask: nothing reserved. */
  | InvoiceAmountRefusal
  /** Placed from a cart (`cartRevision`) that changed meanwhile: nothing reserved. */
  | { status: "cart-changed" }
  /** Its promo code cannot be used (used up, expired, already used by this customer...): nothing reserved. */
  | PromoRefusal;

interface Line {
  productId: number;
  sku: string;
  title: { en: string; zh: string };
  kind: ProductKind;
  quantity: number;
  unitPriceMinor: number;
}

/**
 * Two-int advisory lock space for "one placement per user at a time" inside PostgreSQL, keyed by
 * `hashtext(<user id>)`. Exported for the tests that park a placement on it.
 */
export const OPEN_ORDER_CAP_LOCK = 0x0c4e01;
const ATTEMPTS = 3;

/**
 * The database half of placeOrder, correct on its own without any Redis lock (the checkout lock
 * in front of it only spares PostgreSQL the double taps). One short transaction:
 *
 * 1. a transaction-scoped advisory lock per user, then the count of their open orders: the cap
 *    holds even when two placements of one user run at once (a lost lease, Redis down);
 * 2. in one statement, the order, its items and its RESERVE ledger rows (the unique idempotency
 *    key makes a concurrent replay fail here and read the winner's order instead);
 * 3. with a promo code, one of its uses (promotions/take-use.ts: a conditional decrement of the
 *    code's remaining uses, then a unique slot per customer);
 * 4. at COMMIT, each line takes its units: a deferred constraint trigger runs the conditional
 *    decrement `stock >= qty` (at the price the order was priced at) per line, in product id
 *    order, then the cap on unpaid holds (migration order_lines_take_stock). A hot product's row
 *    is locked only while the commit runs, never across a round trip.
 *
 * Anything short rolls the whole transaction back: nothing changes.
 */
export async function reserveOrder(
  deps: CoreDeps,
  input: ValidPlaceOrder,
  signal?: AbortSignal,
): Promise<PlaceOrderResult> {
  const { db, config } = deps;
  const key = storedIdempotencyKey(input.userId, input.idempotencyKey);
  /**
   * A refusal, unless this very intent was placed already (Telegram re-delivering the update, a
   * double tap): the stock, the promo use or the open-order slot it took is what is missing now,
   * so the answer is its order. Only refusals look the key up: a new order never does, since
   * the unique key answers for it (the insert fails on a replay).
   */
  const refuse = async (refusal: PlaceOrderResult) => (await replayOf(deps, input)) ?? refusal;
  for (let attempt = 1; ; attempt++) {
    const priced = await priceLines(deps, input);
    if (!Array.isArray(priced)) return refuse(priced);
    const short = priced.filter((line) => line.available < line.quantity);
    if (short.length > 0)
      // A fresh read already shows it: answer without a transaction (a sold-out sale stays cheap).
      return refuse({
        status: "out-of-stock",
        short: short.map((l) => ({ sku: l.sku, requested: l.quantity, available: l.available })),
      });
    const currency = priced[0]!.currency;
    const subtotalMinor = priced.reduce((sum, l) => sum + l.unitPriceMinor * l.quantity, 0);
    let promo: OrderPromo | null = null;
    if (input.promoCodeId !== undefined) {
      const withCode = await priceOrderPromo(deps, input.promoCodeId, subtotalMinor, currency);
      if (withCode.status === "promo-refused") return refuse(withCode);
      promo = withCode;
    }
    const totalMinor = promo ? promo.totalMinor : subtotalMinor;
    const now = deps.clock.now();
    const expiresAt = new Date(now.getTime() + config.reservationTtlMs);
    const publicId = newPublicId(config.publicIdLength);
    try {
      const created = await runTransaction(
        db,
        async (tx) => {
          // The user's lock, and the unpaid-holds cap the lines' trigger checks at COMMIT.
          await tx.$executeRaw`SELECT pg_advisory_xact_lock(${OPEN_ORDER_CAP_LOCK}::int, hashtext(${input.userId.toString()})),
                                      set_config('orderbot.max_unpaid_share', ${config.maxUnpaidShare.toString()}, true)`;
          const [row] = await insertOrder(tx, {
            ...input,
            key,
            publicId,
            totalMinor,
            currency,
            expiresAt,
            maxOpen: config.maxOpenOrders,
            lines: priced,
            promo,
          });
          if (!row || row.orderId === null)
            throw new Rollback({
              status: "limit",
              open: row?.open ?? 0,
              max: config.maxOpenOrders,
            } as const);
          if (promo)
            await takeOrderPromoUse(tx, deps, promo, { id: row.orderId, userId: input.userId });
          if (input.cartRevision !== undefined)
            await emptyCart(tx, input.userId, input.cartRevision);
          return row;
        },
        { signal, timeoutMs: config.transactionTimeoutMs, maxWaitMs: config.transactionMaxWaitMs },
      );
      const order: OrderView = {
        id: publicId,
        userId: input.userId,
        chatId: input.chatId,
        status: "RESERVED",
        totalMinor,
        currency,
        expiresAt,
        createdAt: created.createdAt!,
        version: 0,
        items: priced.map((l) => ({
          sku: l.sku,
          title: l.title,
          kind: l.kind,
          quantity: l.quantity,
          unitPriceMinor: l.unitPriceMinor,
        })),
        promo: promo
          ? {
              code: promo.code,
              kind: promo.kind,
              value: promo.value,
              discountMinor: promo.discountMinor,
            }
          : null,
        // Shipping is chosen in Telegram's payment form, after the reservation.
        shipping: null,
      };
      return { status: "ok", order, replayed: false };
    } catch (error) {
      if (error instanceof Rollback) return refuse(error.result as PlaceOrderResult);
      if (error instanceof TransactionAbortedError) return UNAVAILABLE;
      const shortfall = await shortfallOf(deps, error, priced);
      if (shortfall === "price-again") {
        if (attempt >= ATTEMPTS) return BUSY;
        continue; // stock, a price or the sale changed under us: the fresh pricing answers
      }
      if (shortfall) return refuse({ status: "out-of-stock", short: shortfall });
      if (isDatabaseOverloaded(error)) {
        deps.logger.warn(
          "placeOrder shed: the database is overloaded (no connection within maxWait, or the transaction timed out)",
        );
        return BUSY;
      }
      const index = violatedUniqueIndex(error);
      if (index === UNIQUE.orderIdempotencyKey) {
        // A concurrent replay of the same intent committed first: its order is ours.
        const replay = await replayOf(deps, input);
        if (replay) return replay;
      }
      if (index === UNIQUE.orderPublicId && attempt < ATTEMPTS) continue;
      throw error;
    }
  }
}

/** The answer to a replay: the order this intent placed already, or null when it placed none. */
export async function replayOf(
  deps: CoreDeps,
  input: Pick<ValidPlaceOrder, "userId" | "idempotencyKey">,
): Promise<PlaceOrderResult | null> {
  const order = await findOrderByKey(
    deps.db,
    storedIdempotencyKey(input.userId, input.idempotencyKey),
  );
  return order ? { status: "ok", order, replayed: true } : null;
}

type PricedLine = Line & { currency: string; available: number };

/** The order's lines with today's prices, or why the input names products that cannot be sold. */
async function priceLines(
  deps: CoreDeps,
  input: ValidPlaceOrder,
): Promise<PricedLine[] | Invalid | InvoiceAmountRefusal> {
  const products = await deps.db.product.findMany({
    where: { sku: { in: input.items.map((i) => i.sku) } },
  });
  const bySku = new Map(products.map((p) => [p.sku, p]));
  const problems: string[] = [];
  const lines: PricedLine[] = [];
  input.items.forEach((item, index) => {
    const product = bySku.get(item.sku);
    if (!product) return problems.push(`items.${index}.sku: unknown product ${item.sku}`);
    if (!product.active) return problems.push(`items.${index}.sku: ${item.sku} is not on sale`);
    lines.push({
      productId: product.id,
      sku: product.sku,
      title: { en: product.titleEn, zh: product.titleZh },
      kind: product.kind,
      quantity: item.quantity,
      unitPriceMinor: product.priceMinor,
      currency: product.currency,
      available: product.stock,
    });
  });
  if (new Set(lines.map((l) => l.currency)).size > 1)
    problems.push("items: products in different currencies cannot share an order");
  if (lines.reduce((sum, l) => sum + l.unitPriceMinor * l.quantity, 0) > MAX_TOTAL_MINOR)
    problems.push(
      `items: the order's total would exceed ${MAX_TOTAL_MINOR} minor units; order fewer`,
    );
  if (problems.length > 0) return invalid(problems);
  const total = lines.reduce((sum, l) => sum + l.unitPriceMinor * l.quantity, 0);
  const currency = lines[0]!.currency;
  const payable = checkInvoiceAmount(total, currency);
  if (payable.status !== "ok") return payable;
  const cap = deps.config.maxOrderTotalMinor;
  if (cap !== undefined && total > cap) {
    const limit = INVOICE_LIMITS[currency]!;
    return {
      status: "amount-out-of-range",
      currency,
      amountMinor: total,
      minMinor: limit.minMinor,
      maxMinor: Math.min(cap, limit.maxMinor),
    };
  }
  // The fixed lock order: every placement updates its products' rows in ascending id order,
  // whatever order the cart was filled in, so two carts holding the same products in opposite
  // orders wait for each other instead of deadlocking (docs/architecture.md, The cart).
  return lines.sort((a, b) => a.productId - b.productId);
}

/**
 * One statement: count the user's open orders and, only if under the cap, insert the order, its
 * items and its RESERVE ledger rows. (The caller holds the user's advisory lock, so the count
 * cannot go stale before the commit.) A replayed idempotency key fails here with a unique violation.
 */
function insertOrder(
  tx: Tx,
  o: ValidPlaceOrder & {
    key: string;
    publicId: string;
    totalMinor: number;
    currency: string;
    expiresAt: Date;
    maxOpen: number;
    lines: PricedLine[];
    promo: OrderPromo | null;
  },
) {
  const productIds = o.lines.map((l) => l.productId);
  const quantities = o.lines.map((l) => l.quantity);
  const prices = o.lines.map((l) => l.unitPriceMinor);
  const kinds = o.lines.map((l) => l.kind);
  return tx.$queryRaw<{ open: number; orderId: number | null; createdAt: Date | null }[]>`
    WITH open AS (
      SELECT count(*)::int AS n FROM orders WHERE user_id = ${o.userId} AND status IN ('RESERVED', 'PAYING')
    ), new_order AS (
      INSERT INTO orders (public_id, user_id, chat_id, status, total_minor, currency, expires_at, idempotency_key, updated_at,
                          promo_code_id, discount_minor)
      SELECT ${o.publicId}, ${o.userId}, ${o.chatId}, 'RESERVED', ${o.totalMinor}, ${o.currency},
             ${utcTimestamp(o.expiresAt)}, ${o.key}, now() AT TIME ZONE 'UTC',
             ${o.promo?.codeId ?? null}::int, ${o.promo?.discountMinor ?? 0}
      FROM open WHERE open.n < ${o.maxOpen}
      RETURNING id, created_at
    ), items AS (
      INSERT INTO order_items (order_id, product_id, quantity, unit_price_minor, kind)
      SELECT new_order.id, l.product_id, l.quantity, l.price, l.kind
      FROM new_order, unnest(${productIds}::int[], ${quantities}::int[], ${prices}::int[], ${kinds}::"ProductKind"[]) AS l(product_id, quantity, price, kind)
    ), ledger AS (
      INSERT INTO stock_movements (product_id, order_id, delta, reason, actor)
      SELECT l.product_id, new_order.id, -l.quantity, 'RESERVE', 'user'
      FROM new_order, unnest(${productIds}::int[], ${quantities}::int[]) AS l(product_id, quantity)
    )
    SELECT open.n AS open, new_order.id AS "orderId", new_order.created_at AS "createdAt" FROM open LEFT JOIN new_order ON true`;
}

/**
 * Empties the cart the order was placed from, in the order's transaction: only if it is still at
 * the revision the customer checked out (a change since rolls the order back), and bumping the
 * revision, so that a Checkout button drawn before can never order it again.
 */
async function emptyCart(tx: Tx, userId: bigint, revision: number): Promise<void> {
  const [row] = await tx.$queryRaw<{ n: number }[]>`
    WITH cart AS (
      UPDATE carts SET revision = revision + 1, promo_code_id = NULL, updated_at = now() AT TIME ZONE 'UTC'
      WHERE user_id = ${userId} AND revision = ${revision}
      RETURNING user_id
    ), emptied AS (
      DELETE FROM cart_items WHERE user_id IN (SELECT user_id FROM cart) RETURNING 1
    )
    SELECT count(*)::int AS n FROM cart`;
  if (!row || row.n === 0) throw new Rollback({ status: "cart-changed" } as const);
}
