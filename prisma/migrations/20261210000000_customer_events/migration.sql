-- Customer notices become events: the recipient rule gains the customer branch. A customer kind
-- reaches the customer the ids name (the order's chat, or the support request's), and no operator;
-- an operator kind reaches whom it reached before (20261209000000_events).
--
-- The kinds told to a customer, not to operators (packages/core/src/events/kinds.ts).
CREATE FUNCTION "customer_event_kinds"() RETURNS TEXT[] LANGUAGE sql IMMUTABLE AS $$
  SELECT ARRAY['order.expired', 'order.moved', 'order.refunded', 'payment.received', 'payment.rejected',
               'question.answered']
$$;

-- Expand only: the previous release reads no event, and the `outbox_messages` notices it still
-- writes are sent by either release's worker.
CREATE OR REPLACE FUNCTION "event_recipients"("p_kind" TEXT, "p_payload" JSONB, "p_fallback" BIGINT)
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
   WHERE "p_kind" <> ALL ("customer_event_kinds"())
     AND ("p_kind" <> 'order.paid' OR r."settings" -> 'notifyPaidOrders' IS DISTINCT FROM 'false'::jsonb)
     AND ("p_kind" <> 'stock.low'
          OR (r."threshold" > 0 AND ("p_payload" ->> 'stock')::numeric <= r."threshold"))
  UNION ALL
  SELECT o."chat_id", '{}'::jsonb FROM "orders" o
   WHERE "p_kind" IN ('order.expired', 'order.moved', 'order.refunded', 'payment.received', 'payment.rejected')
     AND o."public_id" = "p_payload" ->> 'orderId'
  UNION ALL
  -- A payment its invoice named no order for: the payer, in their private chat.
  SELECT p."user_id", '{}'::jsonb FROM "payments" p
   WHERE "p_kind" = 'payment.rejected' AND "p_payload" ->> 'orderId' = ''
     AND p."telegram_charge_id" = "p_payload" ->> 'telegramChargeId'
  UNION ALL
  SELECT s."chat_id", '{}'::jsonb FROM "support_requests" s
   WHERE "p_kind" = 'question.answered' AND s."id" = ("p_payload" ->> 'requestId')::int
$$;

-- An event may be due later (a payer's "payment received", which the bot's own reply normally
-- says first): it is expanded once due. Until then the bot may settle it (told inline): expanded
-- to nobody.
ALTER TABLE "events" ADD COLUMN "not_before" TIMESTAMP(3);

CREATE FUNCTION "record_event"("p_kind" TEXT, "p_dedupe_key" TEXT, "p_delivery_key" TEXT, "p_payload" JSONB,
                               "p_not_before" TIMESTAMP(3))
RETURNS BOOLEAN LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "events" ("kind", "dedupe_key", "delivery_key", "payload", "not_before")
  VALUES ("p_kind", "p_dedupe_key", "p_delivery_key", "p_payload" || jsonb_build_object('kind', "p_kind"),
          "p_not_before")
  ON CONFLICT ("dedupe_key") DO NOTHING;
  RETURN FOUND;
END $$;
