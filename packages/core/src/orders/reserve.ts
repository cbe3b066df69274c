import { runTransaction, TransactionAbortedError, type Tx, utcTimestamp } from "@orderbot/db";
import type { CoreDeps } from "../deps.ts";
import { BUSY, UNAVAILABLE, type Busy, type Invalid, type Unavailable } from "../results.ts";
import {
  isDatabaseOverloaded,
  Rollback,
  UNIQUE,
  violatedUniqueIndex,
} from "../database/db-errors.ts";
import type { OrderView } from "../views.ts";
import type { InvoiceAmountRefusal } from "../payments/invoice-limits.ts";
import type { ValidPlaceOrder } from "./place-order-input.ts";
import { findOrderByKey, isKeyTaken, storedIdempotencyKey } from "./idempotency-key.ts";
import { shortfallOf, type ShortLine } from "./shortfall.ts";
import { priceOrder, type KnownProduct, type PricedLine, type PricedOrder } from "./price-order.ts";
import type { PromoRefusal } from "../promotions/terms.ts";
import { takeOrderPromoUse, type OrderPromo } from "../promotions/reservation.ts";

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
  known?: readonly KnownProduct[],
): Promise<PlaceOrderResult> {
  const { db, config } = deps;
  for (let attempt = 1; ; attempt++) {
    // A retry follows a lost race: it reads the products again.
    const planned = await priceOrder(deps, input, attempt === 1 ? known : undefined);
    if (!planned.ok) return refuse(deps, input, planned.refusal);
    const plan = planned.plan;
    try {
      const created = await runTransaction(db, (tx) => createOrder(tx, deps, input, plan), {
        signal,
        timeoutMs: config.transactionTimeoutMs,
        maxWaitMs: config.transactionMaxWaitMs,
      });
      return {
        status: "ok",
        order: reservedView(input, plan, created.createdAt!),
        replayed: false,
      };
    } catch (error) {
      const answer = await answerFailure(deps, input, plan.lines, error, attempt);
      if (answer === "retry") continue;
      return answer;
    }
  }
}

/**
 * A refusal, unless this very intent was placed already (Telegram re-delivering the update, a
 * double tap): the stock, the promo use or the open-order slot it took is what is missing now,
 * so the answer is its order. Only refusals look the key up: a new order never does, since
 * the unique key answers for it (the insert fails on a replay).
 */
async function refuse(
  deps: CoreDeps,
  input: ValidPlaceOrder,
  refusal: PlaceOrderResult,
): Promise<PlaceOrderResult> {
  return (await replayOf(deps, input)) ?? refusal;
}

/** The transaction: the user's lock, the order under the cap, its promo use, the cart emptied. */
async function createOrder(tx: Tx, deps: CoreDeps, input: ValidPlaceOrder, plan: PricedOrder) {
  const { config } = deps;
  // The user's lock, and the unpaid-holds cap the lines' trigger checks at COMMIT.
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${OPEN_ORDER_CAP_LOCK}::int, hashtext(${input.userId.toString()})),
                              set_config('orderbot.max_unpaid_share', ${config.maxUnpaidShare.toString()}, true)`;
  const [row] = await insertOrder(tx, {
    ...input,
    key: storedIdempotencyKey(input.userId, input.idempotencyKey),
    publicId: plan.publicId,
    totalMinor: plan.totalMinor,
    currency: plan.currency,
    expiresAt: plan.expiresAt,
    maxOpen: config.maxOpenOrders,
    lines: plan.lines,
    promo: plan.promo,
  });
  if (!row || row.orderId === null)
    throw new Rollback({
      status: "limit",
      open: row?.open ?? 0,
      max: config.maxOpenOrders,
    } as const);
  if (plan.promo)
    await takeOrderPromoUse(tx, deps, plan.promo, { id: row.orderId, userId: input.userId });
  if (input.cartRevision !== undefined) await emptyCart(tx, input.userId, input.cartRevision);
  return row;
}

/** The order just reserved, as a read would show it. */
function reservedView(input: ValidPlaceOrder, plan: PricedOrder, createdAt: Date): OrderView {
  const { promo } = plan;
  return {
    id: plan.publicId,
    userId: input.userId,
    chatId: input.chatId,
    status: "RESERVED",
    totalMinor: plan.totalMinor,
    currency: plan.currency,
    expiresAt: plan.expiresAt,
    createdAt,
    version: 0,
    items: plan.lines.map((l) => ({
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
}

/** What a failed transaction answers, "retry" to price again, or the error rethrown. */
async function answerFailure(
  deps: CoreDeps,
  input: ValidPlaceOrder,
  priced: PricedLine[],
  error: unknown,
  attempt: number,
): Promise<PlaceOrderResult | "retry"> {
  if (error instanceof Rollback) return refuse(deps, input, error.result as PlaceOrderResult);
  if (error instanceof TransactionAbortedError) return UNAVAILABLE;
  const shortfall = await shortfallOf(deps, error, priced);
  // Stock, a price or the sale changed under us: the fresh pricing answers.
  if (shortfall === "price-again") return attempt >= ATTEMPTS ? BUSY : "retry";
  if (shortfall) return refuse(deps, input, { status: "out-of-stock", short: shortfall });
  if (isDatabaseOverloaded(error)) {
    deps.logger.warn(
      "placeOrder shed: the database is overloaded (no connection within maxWait, or the transaction timed out)",
    );
    return BUSY;
  }
  if (isKeyTaken(error)) {
    // A concurrent replay of the same intent committed first: its order is ours.
    const replay = await replayOf(deps, input);
    if (replay) return replay;
  }
  if (violatedUniqueIndex(error) === UNIQUE.orderPublicId && attempt < ATTEMPTS) return "retry";
  throw error;
}

/** The answer to a replay: the order this intent placed already, or null when it placed none. */
export async function replayOf(
  deps: CoreDeps,
  input: Pick<ValidPlaceOrder, "userId" | "idempotencyKey">,
): Promise<PlaceOrderResult | null> {
  const order = await findOrderByKey(deps.db, input);
  return order ? { status: "ok", order, replayed: true } : null;
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
