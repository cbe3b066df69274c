-- A customer's language lives in PostgreSQL: every message the bot and the worker send a customer
-- is in it. Redis only caches it.
CREATE TABLE "customers" (
    "user_id" BIGINT NOT NULL,
    "language" VARCHAR(8) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "customers_pkey" PRIMARY KEY ("user_id")
);

ALTER TABLE "customers" ADD CONSTRAINT "customers_language_known" CHECK ("language" IN ('en', 'zh'));

-- Customers who ordered before languages were stored: English until they next write to the bot,
-- which records the language they use.
INSERT INTO "customers" ("user_id", "language")
SELECT DISTINCT "user_id", 'en' FROM "orders"
ON CONFLICT DO NOTHING;

-- The messages that show an order in its private chat (orders.chat_id): the card, edited whenever
-- the order changes state, and the one live invoice, deleted once the order can no longer be paid.
ALTER TABLE "orders" ADD COLUMN "card_message_id" INTEGER;
ALTER TABLE "orders" ADD COLUMN "invoice_message_id" INTEGER;
ALTER TABLE "orders" ADD COLUMN "invoice_sent_at" TIMESTAMP(3);
-- The press that claimed the invoice (its callback query id): Telegram delivering that same press
-- again, after a crash between the claim and the send, may claim it again; any other press waits.
ALTER TABLE "orders" ADD COLUMN "invoice_claimed_by" VARCHAR(64);

-- A question passed on from a message ("Ask the shop") is recorded once per message: a double tap,
-- or Telegram delivering the press again, finds the request the first press opened.
ALTER TABLE "support_requests" ADD COLUMN "source_message_id" INTEGER;
CREATE UNIQUE INDEX "support_requests_chat_id_source_message_id_key" ON "support_requests"("chat_id", "source_message_id");
