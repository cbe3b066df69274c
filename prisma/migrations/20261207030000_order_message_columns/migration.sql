-- Expand: 20261207020000_order_messages dropped four orders columns that the previous release
-- still reads and writes, and queues a `voidInvoice` its relay cannot send; an upgrade runs both
-- releases at once. Until a later release contracts (drops these triggers, their functions and the
-- columns, once no replica of the previous release runs; CONTRIBUTING.md, "Adding a migration"):
--   1. the columns are back, and kept equal to order_messages in both directions by triggers;
--   2. an order's events are queued in the shape both relays send: a card's edit names its
--      message, a void becomes the deletion of the live invoice, and one with nothing to send is
--      not queued (this release's relay would settle it without a call).
ALTER TABLE "orders" ADD COLUMN "card_message_id" INTEGER,
                     ADD COLUMN "invoice_message_id" INTEGER,
                     ADD COLUMN "invoice_sent_at" TIMESTAMP(3),
                     ADD COLUMN "invoice_claimed_by" VARCHAR(64);

UPDATE "orders" o
   SET "card_message_id" = m."card_message_id", "invoice_message_id" = m."invoice_message_id",
       "invoice_sent_at" = m."invoice_sent_at", "invoice_claimed_by" = m."invoice_claimed_by"
  FROM "order_messages" m
 WHERE m."order_public_id" = o."public_id";

-- This release writes order_messages: the previous release reads the copy in orders.
CREATE FUNCTION "order_messages_to_orders"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "orders"
     SET "card_message_id" = NEW."card_message_id", "invoice_message_id" = NEW."invoice_message_id",
         "invoice_sent_at" = NEW."invoice_sent_at", "invoice_claimed_by" = NEW."invoice_claimed_by"
   WHERE "public_id" = NEW."order_public_id"
     AND ("card_message_id", "invoice_message_id", "invoice_sent_at", "invoice_claimed_by")
         IS DISTINCT FROM
         (NEW."card_message_id", NEW."invoice_message_id", NEW."invoice_sent_at", NEW."invoice_claimed_by");
  RETURN NULL;
END $$;

CREATE TRIGGER "order_messages_to_orders"
  AFTER INSERT OR UPDATE ON "order_messages"
  FOR EACH ROW EXECUTE FUNCTION "order_messages_to_orders"();

-- The previous release writes orders: this release reads the copy in order_messages.
CREATE FUNCTION "orders_to_order_messages"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "order_messages" ("order_public_id", "card_message_id", "invoice_message_id",
                                "invoice_sent_at", "invoice_claimed_by")
  VALUES (NEW."public_id", NEW."card_message_id", NEW."invoice_message_id", NEW."invoice_sent_at",
          NEW."invoice_claimed_by")
  ON CONFLICT ("order_public_id") DO UPDATE
     SET "card_message_id" = EXCLUDED."card_message_id",
         "invoice_message_id" = EXCLUDED."invoice_message_id",
         "invoice_sent_at" = EXCLUDED."invoice_sent_at",
         "invoice_claimed_by" = EXCLUDED."invoice_claimed_by"
   WHERE ("order_messages"."card_message_id", "order_messages"."invoice_message_id",
          "order_messages"."invoice_sent_at", "order_messages"."invoice_claimed_by")
         IS DISTINCT FROM
         (EXCLUDED."card_message_id", EXCLUDED."invoice_message_id", EXCLUDED."invoice_sent_at",
          EXCLUDED."invoice_claimed_by");
  RETURN NULL;
END $$;

CREATE TRIGGER "orders_to_order_messages"
  AFTER UPDATE OF "card_message_id", "invoice_message_id", "invoice_sent_at", "invoice_claimed_by"
  ON "orders"
  FOR EACH ROW
  WHEN ((OLD."card_message_id", OLD."invoice_message_id", OLD."invoice_sent_at", OLD."invoice_claimed_by")
        IS DISTINCT FROM
        (NEW."card_message_id", NEW."invoice_message_id", NEW."invoice_sent_at", NEW."invoice_claimed_by"))
  EXECUTE FUNCTION "orders_to_order_messages"();

-- An order's event in the shape the previous release's relay sends (its orders/order-messages.ts
-- queued the message ids); this release's relay sends either shape.
CREATE FUNCTION "outbox_events_for_previous_release"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  m "order_messages"%ROWTYPE;
BEGIN
  IF NEW."method" = 'voidInvoice' THEN
    SELECT * INTO m FROM "order_messages" WHERE "order_public_id" = NEW."payload" ->> 'orderId';
    -- Telegram lets a bot delete its message for 48 hours (conversation's DELETABLE_FOR_MS).
    IF m."invoice_message_id" IS NULL
       OR m."invoice_sent_at" <= timezone('UTC', now()) - interval '48 hours' THEN
      RETURN NULL;
    END IF;
    NEW."method" := 'deleteMessage';
    NEW."payload" := jsonb_build_object('message_id', m."invoice_message_id");
  ELSE
    SELECT * INTO m FROM "order_messages"
     WHERE "order_public_id" = NEW."payload" -> 'params' ->> 'orderId';
    IF m."card_message_id" IS NULL THEN
      RETURN NULL;
    END IF;
    NEW."payload" := NEW."payload" || jsonb_build_object(
      'edit', jsonb_build_object('message_id', m."card_message_id"));
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER "outbox_events_for_previous_release"
  BEFORE INSERT ON "outbox_messages"
  FOR EACH ROW
  WHEN (NEW."method" = 'voidInvoice'
        OR (NEW."method" = 'notify' AND NEW."payload" ->> 'template' = 'order-card'
            AND NOT NEW."payload" ? 'edit'))
  EXECUTE FUNCTION "outbox_events_for_previous_release"();
