-- The stock rule: an order line commits only with its units taken, so stock never goes below zero.
-- The current definition, in one place. Migrations 20261205000000_order_lines_take_stock and
-- 20261206000000_unpaid_hold_cap made it; packages/db/test/stock-rule.test.ts fails when the
-- migrated database and this file differ, so a migration that redefines the rule updates it here.
--
-- A deferred constraint trigger takes a line's units inside COMMIT, by a conditional decrement:
-- the product's row is locked only while the commit runs (docs/architecture.md, "A hot product").
-- A line takes its units only at the price it was priced at, in its order's currency, from a
-- product on sale and, when the transaction set `orderbot.max_unpaid_share` below 1, only while
-- unpaid orders hold no more than that share of the unsold units. Otherwise the COMMIT fails:
--   OBST1  the product cannot give the line its units (short, repriced, off sale);
--   OBST2  the line would take unpaid holds of the product past the cap.

-- The most units of a product that unpaid orders may hold: `share` of what is unsold (held +
-- free), rounded up so that a product with stock can always be reserved by someone. Exact numeric:
-- 0.14 x 50 is 7, where a float would make it 8.
CREATE OR REPLACE FUNCTION "unpaid_hold_cap"(held int, free int, share numeric) RETURNS int
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN greatest(1, ceil(share * (held + free)))::int;

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

-- Named with a capital so that it sorts, and so fires, before PostgreSQL's own
-- RI_ConstraintTrigger_* on the same row: triggers on one event fire in name order. The line's
-- foreign key to the product is deferred too (same migration), so its check finds the row already
-- locked by this transaction. A constraint trigger has no CREATE OR REPLACE.
DROP TRIGGER IF EXISTS "Order_line_takes_stock" ON "order_items";
CREATE CONSTRAINT TRIGGER "Order_line_takes_stock" AFTER INSERT ON "order_items"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "order_line_take_stock"();
