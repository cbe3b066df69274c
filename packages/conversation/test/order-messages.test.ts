// The messages that show an order, on real PostgreSQL: the one-live-invoice claim under concurrent
// taps (a conditional upsert keyed by the press) and the nonce it records, and the card recorded
// only in the order's chat.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@orderbot/testkit";
import {
  createOrderMessages,
  DELETABLE_FOR_MS,
  INVOICE_CLAIM_MS,
  type OrderMessages,
} from "../src/index.ts";

const testDb = useTestDatabase({ poolMax: 12 });
let now = new Date("2026-12-01T12:00:00Z");
const clock = { now: () => now };
const messages = (): OrderMessages => createOrderMessages({ db: testDb.db, clock });

let seq = 0;
/** An open order of `chatId`'s, as core leaves it; its public id. */
async function order(chatId = 7_000_000_001n): Promise<string> {
  const publicId = `ORDER${String(++seq).padStart(3, "2")}`.replace(/[01]/g, "9");
  await testDb.db.order.create({
    data: {
      publicId,
      userId: chatId,
      chatId,
      status: "RESERVED",
      totalMinor: 10,
      currency: "XTR",
      expiresAt: new Date(now.getTime() + 60_000),
      idempotencyKey: randomUUID(),
    },
  });
  return publicId;
}

describe("an order's invoice", () => {
  it("is claimed by one of many concurrent Pay taps, and again only after the claim window", async () => {
    const id = await order();
    const claims = await Promise.all(
      Array.from({ length: 12 }, (_, i) => messages().claimInvoice(id, `tap-${i}`, null)),
    );
    expect(claims.filter((c) => c.status === "send")).toEqual([{ status: "send", replaces: null }]);
    expect(claims.filter((c) => c.status === "already-sent")).toHaveLength(11);
    await messages().invoiceSent(id, 41);

    now = new Date(now.getTime() + INVOICE_CLAIM_MS + 1);
    // A later Pay (the customer deleted the invoice, say): a new one replaces the old one.
    expect(await messages().claimInvoice(id, "later", null)).toEqual({
      status: "send",
      replaces: 41,
    });
    expect(await messages().claimInvoice("ZZZZZZZZ", "tap", null)).toEqual({ status: "not-found" });
  });

  it("is claimed again by the same press delivered again before the invoice went out", async () => {
    const id = await order();
    expect((await messages().claimInvoice(id, "press-1", null)).status).toBe("send");
    // The bot died between the claim and the send: another tap still waits, the same press's
    // re-delivery sends the invoice.
    expect((await messages().claimInvoice(id, "press-2", null)).status).toBe("already-sent");
    expect(await messages().claimInvoice(id, "press-1", null)).toEqual({
      status: "send",
      replaces: null,
    });
    // Once it went out, even the same press is a double tap.
    await messages().invoiceSent(id, 51);
    expect((await messages().claimInvoice(id, "press-1", null)).status).toBe("already-sent");
  });

  it("a failed send releases the claim, so the next tap tries again at once", async () => {
    const id = await order();
    expect((await messages().claimInvoice(id, "tap", null)).status).toBe("send");
    await messages().releaseInvoice(id);
    expect((await messages().claimInvoice(id, "tap", null)).status).toBe("send");
  });

  it("is the only one paid once claimed: its nonce is recorded before it is sent", async () => {
    const id = await order();
    // Nothing claimed here (an invoice of the previous release): the bare id is live.
    expect(await messages().isLiveInvoice(id, null)).toBe(true);
    expect(await messages().isLiveInvoice(id, "n1")).toBe(false);
    await messages().claimInvoice(id, "press", "n1");
    // Its update failed after the send and was delivered again: the second invoice wins.
    await messages().claimInvoice(id, "press", "n2");
    expect(await messages().isLiveInvoice(id, "n1")).toBe(false);
    expect(await messages().isLiveInvoice(id, null)).toBe(false);
    expect(await messages().isLiveInvoice(id, "n2")).toBe(true);
    // With INVOICE_NONCE off again, a bare id is the live one.
    now = new Date(now.getTime() + INVOICE_CLAIM_MS + 1);
    await messages().claimInvoice(id, "later", null);
    expect(await messages().isLiveInvoice(id, "n2")).toBe(false);
    expect(await messages().isLiveInvoice(id, null)).toBe(true);
  });

  it("may be deleted for 48 hours after it was sent, and not after", async () => {
    const id = await order();
    await messages().claimInvoice(id, "tap", null);
    await messages().invoiceSent(id, 61);
    expect(await messages().of(id)).toMatchObject({ invoiceMessageId: 61, invoiceDeletable: true });
    now = new Date(now.getTime() + DELETABLE_FOR_MS + 1);
    expect(await messages().of(id)).toMatchObject({ invoiceDeletable: false });
  });
});

describe("an order's card", () => {
  it("is recorded in the order's own chat only, the latest one winning", async () => {
    const id = await order(7_000_000_002n);
    await messages().setCard(id, 7_000_000_999n, 5); // another chat: ignored
    expect(await messages().of(id)).toBeNull();
    await messages().setCard(id, 7_000_000_002n, 6);
    await messages().setCard(id, 7_000_000_002n, 7);
    expect(await messages().of(id)).toMatchObject({ cardMessageId: 7, invoiceMessageId: null });
  });
});
