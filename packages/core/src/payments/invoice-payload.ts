// What an invoice carries as its payload and gets back with its pre-checkout, its payment and its
// Stars ledger entry: the order's public id, then, from this release, the invoice's nonce
// ("ORDERID:nonce"), so that only the order's latest invoice is paid. A bare id is an invoice of
// the previous release. docs/operations.md, "Upgrades", says when the nonce is sent.
import { randomBytes } from "node:crypto";
import { publicIdSchema } from "../orders/public-id-schema.ts";

const SEPARATOR = ":";
const NONCE_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;

export interface InvoicePayload {
  orderId: string;
  /** Null: a bare order id, as the previous release sent it. */
  nonce: string | null;
}

/** A new invoice's nonce: 8 characters of base64url (48 random bits). */
export function newInvoiceNonce(): string {
  return randomBytes(6).toString("base64url");
}

/** The payload for an invoice of `orderId`; a null nonce gives the bare id. */
export function invoicePayload(orderId: string, nonce: string | null): string {
  return nonce === null ? orderId : `${orderId}${SEPARATOR}${nonce}`;
}

/** The order and nonce a payload names, or null when it names no order. */
export function parseInvoicePayload(payload: string): InvoicePayload | null {
  const at = payload.indexOf(SEPARATOR);
  const id = publicIdSchema.safeParse(at < 0 ? payload : payload.slice(0, at));
  if (!id.success) return null;
  if (at < 0) return { orderId: id.data, nonce: null };
  const nonce = payload.slice(at + 1);
  return NONCE_PATTERN.test(nonce) ? { orderId: id.data, nonce } : null;
}
