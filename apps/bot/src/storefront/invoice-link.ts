// An invoice link for an order, for Telegram.WebApp.openInvoice: core's invoiceFor decides
// whether the order may be paid now and its terms; this renders the texts in the customer's
// language and asks Telegram for the link. The payment itself arrives as the chat's does
// (pre_checkout_query, then successful_payment) and is recorded by the bot's payments feature:
// the order reads PAID only once the server has recorded it.
import { GrammyError, type Api } from "grammy";
import type { OrderView } from "@orderbot/core";
import {
  invoiceFor,
  invoicePayload,
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
  translate: (locale: Locale) => Translate;
  now: () => Date;
}

export type InvoiceLinkResult =
  | { status: "ok"; url: string; terms: InvoiceTerms }
  | InvoiceRefusal
  /** Telegram refused the invoice (an amount or provider problem): nothing to pay. */
  | { status: "invoice-refused" };

export async function createOrderInvoiceLink(
  deps: InvoiceLinkDeps,
  order: OrderView | null,
  customer: { userId: number; locale: Locale },
): Promise<InvoiceLinkResult> {
  const decided = invoiceFor(order, customer, { settings: deps.settings, now: deps.now() });
  if (decided.status !== "ok") return decided;
  const { terms } = decided;
  const t = deps.translate(customer.locale);
  const title = invoiceTitle(t, terms.title.orderId);
  const items = itemLines(t, terms.description, customer.locale);
  try {
    const url = await deps.api.createInvoiceLink(
      title,
      invoiceDescription(t, terms.description, items),
      // The bare order id: pre-checkout and the payment find the order by it, as for the chat's.
      invoicePayload(terms.orderId, null),
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
    return { status: "ok", url, terms };
  } catch (error) {
    if (error instanceof GrammyError && error.error_code === 400)
      return { status: "invoice-refused" };
    throw error;
  }
}
