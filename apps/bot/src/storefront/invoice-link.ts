// An invoice link for an order, for Telegram.WebApp.openInvoice: core's invoiceFor decides
// whether the order may be paid now and its terms; this renders the texts in the customer's
// language and asks Telegram for the link. The payment itself arrives as the chat's does
// (pre_checkout_query, then successful_payment) and is recorded by the bot's payments feature:
// the order reads PAID only once the server has recorded it.
import { GrammyError, type Api } from "grammy";
import type { OrderView } from "@orderbot/core";
import type { OrderMessages } from "@orderbot/conversation";
import {
  invoiceFor,
  invoicePayload,
  newInvoiceNonce,
  type InvoiceRefusal,
  type InvoiceSettings,
  type InvoiceTerms,
} from "@orderbot/core/payments";
import { itemLines } from "../format/order.ts";
import { invoiceDescription, invoiceTitle } from "../format/promo.ts";
import type { Locale, Translate } from "../format/translate.ts";

export interface InvoiceLinkDeps {
  api: Pick<Api, "createInvoiceLink">;
  settings: InvoiceSettings;
  /** The provider's token, for physical goods; it stays on the server. */
  providerToken: string;
  /**
   * INVOICE_NONCE: a link carries a nonce and claims the order's one live invoice, as the chat's
   * Pay does, so an invoice sent before it is paid no more (and a chat Pay after it replaces it).
   */
  nonce: boolean;
  claims: Pick<OrderMessages, "claimInvoice" | "releaseInvoice">;
  translate: (locale: Locale) => Translate;
  now: () => Date;
}

export type InvoiceLinkResult =
  | { status: "ok"; url: string; terms: InvoiceTerms }
  | InvoiceRefusal
  /** Another attempt claimed the order's invoice a moment ago (a double tap): use that one. */
  | { status: "invoice-pending" }
  /** Telegram refused the invoice (an amount or provider problem): nothing to pay. */
  | { status: "invoice-refused" };

/** `attempt`: the client's key for this Pay; a retry with it claims again instead of waiting. */
export async function createOrderInvoiceLink(
  deps: InvoiceLinkDeps,
  order: OrderView | null,
  customer: { userId: number; locale: Locale },
  attempt: string,
): Promise<InvoiceLinkResult> {
  const decided = invoiceFor(order, customer, { settings: deps.settings, now: deps.now() });
  if (decided.status !== "ok") return decided;
  const { terms } = decided;
  const nonce = deps.nonce ? newInvoiceNonce() : null;
  if (nonce !== null) {
    const claim = await deps.claims.claimInvoice(terms.orderId, `app:${attempt}`, nonce);
    if (claim.status === "already-sent") return { status: "invoice-pending" };
    if (claim.status === "not-found") return { status: "not-found" };
  }
  try {
    const url = await askTelegram(
      deps,
      terms,
      customer.locale,
      invoicePayload(terms.orderId, nonce),
    );
    return { status: "ok", url, terms };
  } catch (error) {
    // As the chat's Pay: the next attempt may claim again at once.
    if (nonce !== null) await deps.claims.releaseInvoice(terms.orderId);
    if (error instanceof GrammyError && error.error_code === 400)
      return { status: "invoice-refused" };
    throw error;
  }
}

/** The link, its texts in the customer's language; pre-checkout and payment find the order by the payload. */
function askTelegram(
  deps: InvoiceLinkDeps,
  terms: InvoiceTerms,
  locale: Locale,
  payload: string,
): Promise<string> {
  const t = deps.translate(locale);
  const title = invoiceTitle(t, terms.title.orderId);
  const items = itemLines(t, terms.description, locale);
  return deps.api.createInvoiceLink(
    title,
    invoiceDescription(t, terms.description, items),
    payload,
    terms.payVia === "provider" ? deps.providerToken : "",
    terms.currency,
    [{ label: title, amount: terms.amountMinor }],
    terms.asks
      ? {
          need_name: terms.asks.name,
          need_phone_number: terms.asks.phone,
          need_email: terms.asks.email,
          need_shipping_address: terms.asks.shippingAddress,
          is_flexible: terms.asks.shippingAddress,
        }
      : {},
  );
}
