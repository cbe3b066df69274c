import type { ShippingOption } from "./shipping/options.ts";

/**
 * The business rules' knobs. There is one schema with one set of defaults, the environment's
 * (shop-settings.ts, `shopSettingsShape`): `shopConfigOf` turns it into this, and
 * `defaultShopConfig` gives a test or a bench the same rules the shop runs with.
 */
export interface CoreConfig {
  /** How long a reservation holds stock before the worker may expire it. */
  reservationTtlMs: number;
  /**
   * Pre-checkout moves an order to PAYING and holds it at least this long from then; the worker
   * expires a PAYING order only this long after its (extended) expiry, so a payment in flight
   * never races the expiry job.
   */
  paymentGraceMs: number;
  /**
   * How long a payment's queued "payment received" waits for the bot's own reply to say it first
   * (and settle it). Longer than a reply takes even when Telegram is slow; short enough that a user
   * whose reply was lost (a crash, a failed send) hears within half a minute.
   */
  paymentNoticeDelayMs: number;
  /** Lines per order (and per cart) and units per line. */
  maxLines: number;
  maxUnitsPerLine: number;
  /**
   * The largest order total the shop takes, in minor units, below what one invoice of the
   * currency may ask for (payments/invoice-limits.ts); unset: that invoice limit alone.
   */
  maxOrderTotalMinor?: number;
  /** Open (RESERVED or PAYING) orders one user may hold at once. */
  maxOpenOrders: number;
  /**
   * The share of a product's unsold units (held + free) that unpaid orders of everyone together
   * may hold (stock/unpaid-holds.ts): past it, a reservation is answered out-of-stock with what
   * is still allowed. 1 turns the cap off. Against hoarding by many throwaway accounts.
   */
  maxUnpaidShare: number;
  /**
   * How many times pre-checkout may extend a PAYING order's hold (each by `paymentGraceMs` from
   * then). Past it, pre-checkout still answers yes while the hold lasts, but extends nothing, so
   * repeated pre-checkouts cannot hold stock for ever.
   */
  maxPayingExtensions: number;
  /** Pre-checkout must be answered within 10 s: checkPayable gives up (and refuses) before this. */
  checkPayableDeadlineMs: number;
  /**
   * How long a placeOrder that finds the user's checkout lock held waits to learn whether the
   * holder was placing the same intent (same idempotency key); it never places a second order.
   */
  replayWaitMs: number;
  /** Bound on every domain transaction (ms), and on the wait for a pool connection. */
  transactionTimeoutMs: number;
  transactionMaxWaitMs: number;
  /** Length of the random public order ids shown to users (31-letter alphabet). */
  publicIdLength: number;
  /** HMAC key for masking user ids in logs and the ledger's actor column (LOCK_HASH_KEY). */
  maskKey: string;
  /**
   * Physical goods' shipping options (SHIPPING_OPTIONS): offered in answer to a shipping_query, and
   * the price of the one chosen added to the goods at pre-checkout and confirmation.
   */
  shippingOptions: ShippingOption[];
  /** Where operator alerts go when no operator group is bound (none: logged only). */
  fallbackOperatorChatId?: bigint;
}

/**
 * The rules no environment sets: fixed by what they guard (Telegram's 10 s for pre-checkout, a
 * transaction short enough to hold locks for). A test that changes one says so in its name.
 */
export const FIXED_RULES = {
  maxOpenOrders: 3,
  checkPayableDeadlineMs: 8_000,
  replayWaitMs: 2_000,
  transactionTimeoutMs: 5_000,
  transactionMaxWaitMs: 2_000,
  publicIdLength: 8,
} as const satisfies Partial<CoreConfig>;
