// An invoice's payload: the order's public id, then (INVOICE_NONCE) the invoice's nonce. A bare id,
// the previous release's, still names its order; anything else names none.
import { describe, expect, it } from "vitest";
import { invoicePayload, newInvoiceNonce, parseInvoicePayload } from "../../src/payments/index.ts";

describe("an invoice payload", () => {
  it("carries the order and the nonce, within Telegram's 128 bytes", () => {
    const nonce = newInvoiceNonce();
    expect(nonce).toMatch(/^[A-Za-z0-9_-]{8}$/);
    expect(nonce).not.toBe(newInvoiceNonce());
    const payload = invoicePayload("ABCD2345", nonce);
    expect(payload).toBe(`ABCD2345:${nonce}`);
    expect(parseInvoicePayload(payload)).toEqual({ orderId: "ABCD2345", nonce });
    expect(Buffer.byteLength(invoicePayload("ABCDEFGH23456789", nonce))).toBeLessThanOrEqual(128);
  });

  it("may be the bare order id, as the previous release sent it", () => {
    expect(invoicePayload("ABCD2345", null)).toBe("ABCD2345");
    expect(parseInvoicePayload("ABCD2345")).toEqual({ orderId: "ABCD2345", nonce: null });
  });

  it("names no order when either part is malformed", () => {
    for (const payload of ["", "not an id", "ABCD2345:", "ABCD2345:a b", ":nonce", "ABCD1111:ok"])
      expect(parseInvoicePayload(payload)).toBeNull();
  });
});
