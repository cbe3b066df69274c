import { z } from "zod";
import { ConfigError } from "@orderbot/platform";
import { shippingOptionsSchema } from "./shipping/options.ts";

const ms = (min: number, max: number) => z.number().int().min(min).max(max);

/**
 * The business rules' knobs. Every field has a default except `maskKey`; the bot and the worker
 * build this from their own validated environment and pass it to `createShop`.
 */
export const coreConfigSchema = z.object({
  /** How long a reservation holds stock before the worker may expire it. */
  reservationTtlMs: ms(1_000, 24 * 3_600_000).default(15 * 60_000),
  /**
   * Pre-checkout moves an order to PAYING and holds it at least this long from then; the worker
   * expires a PAYING order only this long after its (extended) expiry, so a payment in flight
   * never races the expiry job.
   */
  paymentGraceMs: ms(1_000, 3_600_000).default(5 * 60_000),
  /**
   * How long a payment's queued "payment received" waits for the bot's own reply to say it first
   * (and settle it). Longer than a reply takes even when Telegram is slow; short enough that a user
   * whose reply was lost (a crash, a failed send) hears within half a minute.
   */
  paymentNoticeDelayMs: ms(1_000, 600_000).default(20_000),
  /** Lines per order (and per cart) and units per line. */
  maxLines: z.number().int().min(1).max(50).default(10),
  maxUnitsPerLine: z.number().int().min(1).max(10_000).default(10),
  /**
   * The largest order total the shop takes, in minor units, below what one invoice of the
   * currency may ask for (payments/invoice-limits.ts); unset: that invoice limit alone.
   */
  maxOrderTotalMinor: z.number().int().min(1).max(2_147_483_647).optional(),
  /** Open (RESERVED or PAYING) orders one user may hold at once. */
  maxOpenOrders: z.number().int().min(1).max(1_000).default(3),
  /**
   * The share of a product's unsold units (held + free) that unpaid orders of everyone together
   * may hold (stock/unpaid-holds.ts): past it, a reservation is answered out-of-stock with what
   * is still allowed. 1 (the default here) turns the cap off; the bot sets it from
   * ORDER_MAX_UNPAID_SHARE (0.5 unless changed). Against hoarding by many throwaway accounts.
   */
  maxUnpaidShare: z.number().gt(0).max(1).default(1),
  /**
   * How many times pre-checkout may extend a PAYING order's hold (each by `paymentGraceMs` from
   * then). Past it, pre-checkout still answers yes while the hold lasts, but extends nothing, so
   * repeated pre-checkouts cannot hold stock for ever.
   */
  maxPayingExtensions: z.number().int().min(0).max(100).default(3),
  /** Pre-checkout must be answered within 10 s: checkPayable gives up (and refuses) before this. */
  checkPayableDeadlineMs: ms(100, 9_500).default(8_000),
  /**
   * How long a placeOrder that finds the user's checkout lock held waits to learn whether the
   * holder was placing the same intent (same idempotency key); it never places a second order.
   */
  replayWaitMs: ms(0, 10_000).default(2_000),
  /** Bound on every domain transaction (ms), and on the wait for a pool connection. */
  transactionTimeoutMs: ms(100, 60_000).default(5_000),
  transactionMaxWaitMs: ms(10, 60_000).default(2_000),
  /** Length of the random public order ids shown to users (31-letter alphabet). */
  publicIdLength: z.number().int().min(6).max(16).default(8),
  /** HMAC key for masking user ids in logs and the ledger's actor column. */
  maskKey: z.string().min(16, "must be at least 16 characters"),
  /**
   * Physical goods' shipping options (SHIPPING_OPTIONS): offered in answer to a shipping_query, and
   * the price of the one chosen added to the goods at pre-checkout and confirmation.
   */
  shippingOptions: shippingOptionsSchema.default([]),
  /** Where operator alerts go when no operator group is bound (none: logged only). */
  fallbackOperatorChatId: z.bigint().optional(),
});

export type CoreConfig = z.output<typeof coreConfigSchema>;
export type CoreConfigInput = z.input<typeof coreConfigSchema>;

/** Applies defaults and validates, or throws a ConfigError listing every problem. */
export function resolveCoreConfig(input: CoreConfigInput): CoreConfig {
  const parsed = coreConfigSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new ConfigError(
    parsed.error.issues.map((issue) => `core.${issue.path.join(".")}: ${issue.message}`),
  );
}
