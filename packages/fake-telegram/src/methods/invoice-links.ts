// createInvoiceLink: sendInvoice's terms and rules (title 1-32 characters, description 1-255,
// payload 1-128 bytes, Stars with one price and no provider token), but no chat: Telegram answers
// with a link (`https://t.me/$<slug>`) that a Mini App opens with Telegram.WebApp.openInvoice.
// Paying it (links.ts's payInvoiceLink) runs the same pre-checkout and successful_payment steps.
import { randomBytes } from "node:crypto";
import { STARS } from "../stars-ledger.ts";
import type { InvoiceRecord } from "../state.ts";
import type { MethodHandler } from "./context.ts";
import { readAsks, readTerms } from "./payments.ts";

const LINK_PREFIX = "https://t.me/$";

export const createInvoiceLink: MethodHandler = (ctx, args) => {
  const { payload, currency, providerToken, totalAmount } = readTerms(args);
  const invoice: InvoiceRecord = {
    payload,
    currency,
    totalAmount,
    providerToken,
    ...(currency === STARS ? {} : { asks: readAsks(args) }),
  };
  const slug = randomBytes(16).toString("base64url");
  ctx.state.invoiceLinks.set(slug, invoice);
  return `${LINK_PREFIX}${slug}`;
};

/** The invoice a link made by createInvoiceLink stands for, or undefined for any other URL. */
export function invoiceOfLink(
  invoiceLinks: ReadonlyMap<string, InvoiceRecord>,
  url: string,
): InvoiceRecord | undefined {
  return url.startsWith(LINK_PREFIX) ? invoiceLinks.get(url.slice(LINK_PREFIX.length)) : undefined;
}
