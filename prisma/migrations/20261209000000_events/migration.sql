-- Events, then deliveries (packages/core/src/events). An event says what happened, with ids and
-- facts, and no recipient; the worker expands it into one delivery per recipient, by the one
-- recipient rule, and sends each delivery once (unique per event and chat).
--
-- Expand only: the previous release reads neither table, so its workers never claim a delivery,
-- and the `outbox_messages` rows its bots still write are sent by either release's worker.
CREATE TABLE "events" (
    "id" SERIAL NOT NULL,
    "kind" VARCHAR(64) NOT NULL,
    -- One event per key: a replayed change records nothing new.
    "dedupe_key" TEXT NOT NULL,
    -- Its deliveries' key, with the chat appended: events that share it reach a chat once.
    "delivery_key" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT timezone('UTC', now()),
    -- Recipients are expanded in chat id order, a batch at a time: the last chat expanded.
    "expanded_to" BIGINT,
    "expanded_at" TIMESTAMP(3),

    CONSTRAINT "events_pkey" PRIMARY KEY ("id")
);
ALTER TABLE "events" ADD CONSTRAINT "events_kind" CHECK ("payload" ->> 'kind' = "kind");
CREATE UNIQUE INDEX "events_dedupe_key_key" ON "events"("dedupe_key");
CREATE INDEX "events_unexpanded_idx" ON "events"("id") WHERE "expanded_at" IS NULL;

-- The columns the relay claims by are those of "outbox_messages".
CREATE TABLE "deliveries" (
    "id" SERIAL NOT NULL,
    "event_id" INTEGER NOT NULL,
    "chat_id" BIGINT NOT NULL,
    "dedupe_key" TEXT NOT NULL,
    "status" "OutboxStatus" NOT NULL DEFAULT 'PENDING',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMP(3) NOT NULL DEFAULT timezone('UTC', now()),
    "last_error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT timezone('UTC', now()),
    "sent_at" TIMESTAMP(3),
    "lane" SMALLINT NOT NULL DEFAULT 0,
    -- What the recipient rule adds for this chat (a group's low-stock threshold).
    "params" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "deliveries_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "deliveries_lane" CHECK ("lane" IN (0, 1)),
    CONSTRAINT "deliveries_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "events"("id") ON DELETE CASCADE
);
CREATE UNIQUE INDEX "deliveries_event_id_chat_id_key" ON "deliveries"("event_id", "chat_id");
CREATE UNIQUE INDEX "deliveries_dedupe_key_key" ON "deliveries"("dedupe_key");
CREATE INDEX "deliveries_pending_lane_idx" ON "deliveries"("lane", "next_attempt_at") WHERE "status" = 'PENDING';
CREATE INDEX "deliveries_sent_at_idx" ON "deliveries"("sent_at") WHERE "status" = 'SENT';
CREATE INDEX "deliveries_dead_idx" ON "deliveries"("id") WHERE "status" = 'DEAD';

-- The one writer of events: the shop's code (packages/core/src/events/record.ts) and the low-stock
-- trigger both call it.
CREATE FUNCTION "record_event"("p_kind" TEXT, "p_dedupe_key" TEXT, "p_delivery_key" TEXT, "p_payload" JSONB)
RETURNS BOOLEAN LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "events" ("kind", "dedupe_key", "delivery_key", "payload")
  VALUES ("p_kind", "p_dedupe_key", "p_delivery_key", "p_payload" || jsonb_build_object('kind', "p_kind"))
  ON CONFLICT ("dedupe_key") DO NOTHING;
  RETURN FOUND;
END $$;

-- The recipient rule, the one place that says who hears of an event: every bound operator group,
-- or with none bound the configured chat (`p_fallback`, null: none) with the default settings. A
-- group that turned paid-order notices off hears of no `order.paid`; a `stock.low` reaches the
-- chats whose threshold (3 when unset, 0 for never) the stock is at or below.
CREATE FUNCTION "event_recipients"("p_kind" TEXT, "p_payload" JSONB, "p_fallback" BIGINT)
RETURNS TABLE ("chat_id" BIGINT, "params" JSONB) LANGUAGE sql STABLE AS $$
  WITH "chats" AS (
    SELECT g."chat_id", g."settings" FROM "operator_groups" g
    UNION ALL
    SELECT "p_fallback", '{}'::jsonb
     WHERE "p_fallback" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "operator_groups")
  ), "ruled" AS (
    SELECT c."chat_id", c."settings",
           CASE WHEN jsonb_typeof(c."settings" -> 'lowStockThreshold') = 'number'
                THEN (c."settings" ->> 'lowStockThreshold')::numeric ELSE 3 END AS "threshold"
      FROM "chats" c
  )
  SELECT r."chat_id",
         CASE WHEN "p_kind" = 'stock.low' THEN jsonb_build_object('threshold', r."threshold")
              ELSE '{}'::jsonb END
    FROM "ruled" r
   WHERE ("p_kind" <> 'order.paid' OR r."settings" -> 'notifyPaidOrders' IS DISTINCT FROM 'false'::jsonb)
     AND ("p_kind" <> 'stock.low'
          OR (r."threshold" > 0 AND ("p_payload" ->> 'stock')::numeric <= r."threshold"))
$$;

-- A low stock is an event now, recorded with the change that lowered it. Which groups hear of it
-- (their threshold) is the recipient rule's; the event is recorded when the stock is at or below
-- the highest threshold any recipient may have, and its deliveries keep today's key: a chat hears
-- of a product at most twice a day (low, out).
CREATE OR REPLACE FUNCTION "queue_low_stock_alert"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "level" TEXT := CASE WHEN NEW."stock" = 0 THEN 'out' ELSE 'low' END;
  "day" TEXT := to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD');
  "facts" JSONB := jsonb_build_object('sku', NEW."sku", 'titleEn', NEW."title_en",
                                      'titleZh', NEW."title_zh", 'stock', NEW."stock");
BEGIN
  -- 0 stands for the configured chat, which the database does not know: it may be the recipient.
  IF NEW."active" AND EXISTS (SELECT 1 FROM "event_recipients"('stock.low', "facts", 0)) THEN
    PERFORM "record_event"('stock.low', format('stock.low:%s:%s:%s:%s', NEW."sku", "level", "day", NEW."stock"),
                           format('low-stock:%s:%s:%s', NEW."sku", "level", "day"), "facts");
  END IF;
  RETURN NULL;
END $$;
