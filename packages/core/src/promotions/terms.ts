import type { PromoKind } from "@orderbot/db";
import { checkInvoiceAmount } from "../payments/invoice-limits.ts";

/** What a code takes off, and when it may be used. */
export interface PromoTerms {
  code: string;
  kind: PromoKind;
  /** PERCENT: 1-100; FIXED: minor units of `currency`. */
  value: number;
  /** FIXED only: the currency of `value` and `minTotalMinor`. */
  currency: string | null;
  minTotalMinor: number;
  startsAt: Date | null;
  endsAt: Date | null;
  remainingUses: number;
  perCustomer: number;
  active: boolean;
}

/** Why a code cannot be used on this cart. None of them says anything about other customers. */
export type PromoRefusalReason =
  /** No such code. */
  | "unknown"
  /** Turned off by an operator. */
  | "inactive"
  /** Its window has not opened yet (`startsAt`). */
  | "not-started"
  /** Its window has closed. */
  | "expired"
  /** Every use has been taken (some may come back when reservations expire). */
  | "used-up"
  /** This customer holds every use they are allowed. */
  | "used-by-you"
  /** The cart's subtotal is under the code's minimum (`minTotalMinor`). */
  | "below-minimum"
  /** A fixed amount in another currency than the cart's. */
  | "currency"
  /** The discounted total would be less than one invoice may ask for. */
  | "total-too-small";

export interface PromoRefusal {
  status: "promo-refused";
  reason: PromoRefusalReason;
  /** The code as the customer typed it, upper-cased. */
  code: string;
  /** below-minimum: the smallest subtotal the code takes, in `currency`. */
  minTotalMinor?: number;
  currency?: string;
  /** not-started: when it opens. */
  startsAt?: Date;
}

export interface PromoPrice {
  status: "ok";
  discountMinor: number;
  /** What the customer pays: the subtotal less the discount. */
  totalMinor: number;
}

/**
 * The discount on `subtotalMinor`: a percentage is rounded down, in the shop's favour (10% of 15 ⭐
 * takes off 1 ⭐, not 2), so no rounding ever gives away more than the code says; a fixed amount
 * takes off at most the subtotal. Integer arithmetic only (subtotal × 100 stays far below 2^53).
 */
export function discountFor(
  terms: Pick<PromoTerms, "kind" | "value">,
  subtotalMinor: number,
): number {
  if (terms.kind === "PERCENT") return Math.floor((subtotalMinor * terms.value) / 100);
  return Math.min(terms.value, subtotalMinor);
}

/**
 * Whether a code can be used on a cart of `subtotalMinor` in `currency` at `now`, and the price if
 * so. `heldByCustomer` is how many of its uses this customer holds (optional: the reservation's own
 * transaction decides that part by a unique key, not by this count).
 */
export function priceWithCode(
  terms: PromoTerms,
  cart: { subtotalMinor: number; currency: string; now: Date; heldByCustomer?: number },
): PromoPrice | PromoRefusal {
  const refuse = (reason: PromoRefusalReason, extra: Partial<PromoRefusal> = {}): PromoRefusal => ({
    status: "promo-refused",
    reason,
    code: terms.code,
    ...extra,
  });
  if (!terms.active) return refuse("inactive");
  if (terms.startsAt && cart.now < terms.startsAt)
    return refuse("not-started", { startsAt: terms.startsAt });
  if (terms.endsAt && cart.now >= terms.endsAt) return refuse("expired");
  if (terms.currency !== null && terms.currency !== cart.currency) return refuse("currency");
  if (terms.remainingUses <= 0) return refuse("used-up");
  if (cart.heldByCustomer !== undefined && cart.heldByCustomer >= terms.perCustomer)
    return refuse("used-by-you");
  // A percentage too small to take off one minor unit of this cart is a minimum too.
  const minTotal = Math.max(
    terms.minTotalMinor,
    terms.kind === "PERCENT" ? Math.ceil(100 / terms.value) : 1,
  );
  if (cart.subtotalMinor < minTotal)
    return refuse("below-minimum", { minTotalMinor: minTotal, currency: cart.currency });
  const discountMinor = discountFor(terms, cart.subtotalMinor);
  const totalMinor = cart.subtotalMinor - discountMinor;
  if (checkInvoiceAmount(totalMinor, cart.currency).status !== "ok")
    return refuse("total-too-small", { currency: cart.currency });
  return { status: "ok", discountMinor, totalMinor };
}

/** "SALE10", whatever case the customer typed; null when it cannot be a code. */
export function normaliseCode(text: string): string | null {
  const code = text.trim().toUpperCase();
  return PROMO_CODE_PATTERN.test(code) ? code : null;
}

/** The migration's CHECK on promo_codes.code. */
export const PROMO_CODE_PATTERN = /^[A-Z0-9][A-Z0-9_-]{2,31}$/;
