-- The cap on unpaid holds, written once: the order lines' trigger enforces it under the product's
-- row lock, and a refused placement reads it (core/src/stock/unpaid-holds.ts) to tell the buyer
-- what the cap still allows. The most units of a product that unpaid orders may hold is `share`
-- of what is not sold yet (held + free), rounded up so that a product with stock can always be
-- reserved by someone. In exact numeric: 0.14 x 50 is 7, where a float would make it 8.
CREATE FUNCTION "unpaid_hold_cap"(held int, free int, share numeric) RETURNS int
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN greatest(1, ceil(share * (held + free)))::int;

-- As in migration order_lines_take_stock, with the cap from the function above.
CREATE OR REPLACE FUNCTION "order_line_take_stock"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  share numeric := coalesce(nullif(current_setting('orderbot.max_unpaid_share', true), ''), '1')::numeric;
  free int;
  held int;
BEGIN
  UPDATE "products" p
     SET "stock" = p."stock" - NEW."quantity", "version" = p."version" + 1,
         "updated_at" = now() AT TIME ZONE 'UTC'
    FROM "orders" o
   WHERE p."id" = NEW."product_id" AND o."id" = NEW."order_id"
     AND p."stock" >= NEW."quantity" AND p."price_minor" = NEW."unit_price_minor"
     AND p."currency" = o."currency" AND p."active"
  RETURNING p."stock" INTO free;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'order line of product % cannot take % units', NEW."product_id", NEW."quantity"
      USING ERRCODE = 'OBST1';
  END IF;
  IF share < 1 THEN
    -- This line's order counts among the holders: held + free is what was unsold before it.
    SELECT coalesce(sum(oi."quantity"), 0) INTO held
      FROM "orders" o JOIN "order_items" oi ON oi."order_id" = o."id" AND oi."product_id" = NEW."product_id"
     WHERE o."status" IN ('RESERVED', 'PAYING');
    IF held > "unpaid_hold_cap"(held, free, share) THEN
      RAISE EXCEPTION 'order line of product % would hold more than the unpaid cap', NEW."product_id"
        USING ERRCODE = 'OBST2';
    END IF;
  END IF;
  RETURN NULL;
END $$;
