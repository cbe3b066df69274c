// An order's card is edited by an `order-card` event when the bot is not answering there. Events
// wait in the outbox, and the order may move on meanwhile (a late payment after expiry): the card
// must show the order as it is when the event is sent, never as the event was queued.
import { describe, expect, it } from "vitest";
import type { OrderView } from "@orderbot/core";
import { useTestDatabase } from "@orderbot/testkit";
import type { ApiCall } from "../../src/outbox/api-call.ts";
import { drainOnce, testRelay } from "../support/relay.ts";

const testDb = useTestDatabase({ poolMax: 4 });

const CUSTOMER = 7_000_000_077n;
const PAID_LATE: OrderView = {
  id: "CARD2345",
  userId: CUSTOMER,
  chatId: CUSTOMER,
  status: "PAID",
  totalMinor: 50,
  currency: "XTR",
  expiresAt: new Date(),
  createdAt: new Date(),
  version: 3,
  items: [
    {
      sku: "MUG",
      title: { en: "Mug", zh: "杯子" },
      kind: "DIGITAL",
      quantity: 1,
      unitPriceMinor: 50,
    },
  ],
};

// The row is queued in the shape the expand migration stores while the previous release may run
// (20261207030000_order_message_columns names the card's message in `edit`).
describe("an order-card event", () => {
  it("renders the order as it is when sent: paid, though queued when it expired", async () => {
    await testDb.db.$executeRaw`
      INSERT INTO outbox_messages (dedupe_key, chat_id, method, payload, status, attempts, next_attempt_at)
      VALUES ('card:CARD2345:EXPIRED', ${CUSTOMER}, 'notify',
              '{"template":"order-card","params":{"orderId":"CARD2345","status":"EXPIRED"},"edit":{"message_id":42}}'::jsonb,
              'PENDING', 0, timezone('UTC', now()))`;
    const calls: ApiCall[] = [];
    const relay = testRelay(testDb.db, {
      readOrder: async (id) => (id === PAID_LATE.id ? PAID_LATE : null),
      orderMessages: {
        of: async () => ({ cardMessageId: 42, invoiceMessageId: null, invoiceDeletable: false }),
      },
      callApi: async (call) => (calls.push(call), true),
    });
    expect((await drainOnce(relay)).sent).toBe(1);
    expect(calls.map((c) => [c.method, c.payload.message_id])).toEqual([["editMessageText", 42]]);
    expect(String(calls[0]!.payload.text)).toMatch(/^Order CARD2345: paid\./);
  });
});
