-- The messages that show an order in its customer's chat leave the orders table: the conversation
-- keeps them (@orderbot/conversation), and core, which keeps the orders, never reads them. An
-- order's move now queues an event (`order-card`, `voidInvoice`) that names the order; the relay
-- finds the card or the invoice here when it sends it.
CREATE TABLE "order_messages" (
    "order_public_id" TEXT NOT NULL,
    "card_message_id" INTEGER,
    "invoice_message_id" INTEGER,
    "invoice_sent_at" TIMESTAMP(3),
    "invoice_claimed_by" VARCHAR(64),

    CONSTRAINT "order_messages_pkey" PRIMARY KEY ("order_public_id"),
    CONSTRAINT "order_messages_order_public_id_fkey" FOREIGN KEY ("order_public_id")
        REFERENCES "orders"("public_id") ON DELETE CASCADE ON UPDATE CASCADE
);

INSERT INTO "order_messages" ("order_public_id", "card_message_id", "invoice_message_id",
                              "invoice_sent_at", "invoice_claimed_by")
SELECT "public_id", "card_message_id", "invoice_message_id", "invoice_sent_at", "invoice_claimed_by"
  FROM "orders"
 WHERE "card_message_id" IS NOT NULL OR "invoice_sent_at" IS NOT NULL;

ALTER TABLE "orders" DROP COLUMN "card_message_id", DROP COLUMN "invoice_message_id",
                     DROP COLUMN "invoice_sent_at", DROP COLUMN "invoice_claimed_by";

-- Pending card edits name their card no more: the relay looks it up when it sends them.
UPDATE "outbox_messages" SET "payload" = "payload" - 'edit'
 WHERE "status" = 'PENDING' AND "method" = 'notify' AND "payload" ->> 'template' = 'order-card';
