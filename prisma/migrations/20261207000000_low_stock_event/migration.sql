-- A low-stock alert is written with the change that lowered the stock, in its transaction: an
-- order's COMMIT (the stock rule's decrement), an operator's /stock, a late payment's re-reserve.
-- Before, the bot queued it after the order committed, so a crash between the two lost it.
--
-- Every bound group whose threshold (its /settings, 3 when unset, 0 for never) the product's stock
-- is now at or below gets one `operator-low-stock` row. The dedupe key names the product, the
-- level ("low", or "out" at zero) and the UTC day: a group hears of a product at most twice a day,
-- however many sales follow. The worker renders it in the group's language when it sends it.
CREATE FUNCTION "queue_low_stock_alert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "outbox_messages" ("dedupe_key", "chat_id", "method", "payload", "next_attempt_at", "created_at")
  SELECT format('low-stock:%s:%s:%s:%s', NEW."sku", CASE WHEN NEW."stock" = 0 THEN 'out' ELSE 'low' END,
                to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD'), g."chat_id"),
         g."chat_id", 'notify',
         jsonb_build_object('template', 'operator-low-stock', 'params', jsonb_build_object(
           'sku', NEW."sku", 'titleEn', NEW."title_en", 'titleZh', NEW."title_zh",
           'stock', NEW."stock", 'threshold', t."threshold")),
         now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC'
    FROM "operator_groups" g
   CROSS JOIN LATERAL (
     -- The settings are validated when written (groups/settings.ts); anything else reads as unset.
     SELECT CASE WHEN jsonb_typeof(g."settings" -> 'lowStockThreshold') = 'number'
                 THEN (g."settings" ->> 'lowStockThreshold')::numeric ELSE 3 END AS "threshold"
   ) t
   WHERE NEW."active" AND t."threshold" > 0 AND NEW."stock" <= t."threshold"
  ON CONFLICT ("dedupe_key") DO NOTHING;
  RETURN NULL;
END $$;

CREATE TRIGGER "products_low_stock_alert"
  AFTER UPDATE OF "stock" ON "products"
  FOR EACH ROW WHEN (NEW."stock" < OLD."stock")
  EXECUTE FUNCTION "queue_low_stock_alert"();
