-- The kind each line was reserved as, kept with the order like its price: an operator's /kind
-- between the pre-checkout and the payment must not change how an order is paid or delivered
-- (physical: shipping in the amount; digital: codes from the pool).
ALTER TABLE "order_items" ADD COLUMN "kind" "ProductKind";

UPDATE "order_items" i SET "kind" = p."kind" FROM "products" p WHERE p."id" = i."product_id";

-- A line inserted without its kind takes its product's kind at that moment (the reservation
-- names it explicitly; older writers and fixtures do not).
CREATE FUNCTION order_item_kind() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."kind" IS NULL THEN
    SELECT p."kind" INTO NEW."kind" FROM "products" p WHERE p."id" = NEW."product_id";
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER order_item_kind BEFORE INSERT ON "order_items"
  FOR EACH ROW EXECUTE FUNCTION order_item_kind();

ALTER TABLE "order_items" ALTER COLUMN "kind" SET NOT NULL;
