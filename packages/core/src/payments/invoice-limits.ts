// What one Telegram invoice may ask for, per currency, in minor units. Telegram refuses an invoice
// outside these bounds (400 CURRENCY_TOTAL_AMOUNT_INVALID), so a price or an order total outside
// them could never be paid: it is refused where it is set (/price) and where it is ordered.
//
// Sources: Telegram Stars invoices take 1..10000 Stars. Provider currencies follow Telegram's
// currencies.json (https://core.telegram.org/bots/payments/currencies.json), whose min_amount and
// max_amount are the equivalent of US$1 and US$10,000. Those bounds move with exchange rates for
// every currency but USD, so only currencies with fixed bounds are listed; the shop refuses any
// other currency rather than guess.

export interface InvoiceLimit {
  /** Smallest invoice total, in minor units. */
  minMinor: number;
  /** Largest invoice total, in minor units. */
  maxMinor: number;
}

export const INVOICE_LIMITS: Readonly<Record<string, InvoiceLimit>> = {
  XTR: { minMinor: 1, maxMinor: 10_000 },
  USD: { minMinor: 100, maxMinor: 1_000_000 },
};

export type InvoiceAmountCheck =
  | { status: "ok" }
  /** The shop takes no invoices in this currency. */
  | { status: "unsupported-currency"; currency: string; supported: string[] }
  /** Outside what one invoice of this currency may ask for. */
  | ({ status: "amount-out-of-range"; currency: string; amountMinor: number } & InvoiceLimit);

/** The refusals of checkInvoiceAmount, as services return them. */
export type InvoiceAmountRefusal = Exclude<InvoiceAmountCheck, { status: "ok" }>;

/** Whether one invoice of `amountMinor` in `currency` is one Telegram accepts. */
export function checkInvoiceAmount(amountMinor: number, currency: string): InvoiceAmountCheck {
  const limit = INVOICE_LIMITS[currency];
  if (!limit)
    return { status: "unsupported-currency", currency, supported: Object.keys(INVOICE_LIMITS) };
  if (amountMinor < limit.minMinor || amountMinor > limit.maxMinor)
    return { status: "amount-out-of-range", currency, amountMinor, ...limit };
  return { status: "ok" };
}
