-- CreateTable
CREATE TABLE "digital_items" (
    "id" SERIAL NOT NULL,
    "product_id" INTEGER NOT NULL,
    "secret" TEXT NOT NULL,
    "order_id" INTEGER,
    "assigned_at" TIMESTAMP(3),
    "revoked_at" TIMESTAMP(3),
    "batch_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "digital_items_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "digital_items_order_id_idx" ON "digital_items"("order_id");

-- AddForeignKey
ALTER TABLE "digital_items" ADD CONSTRAINT "digital_items_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "digital_items" ADD CONSTRAINT "digital_items_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "digital_items" ADD CONSTRAINT "digital_items_batch_id_fkey" FOREIGN KEY ("batch_id") REFERENCES "stock_batches"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- A digital product's pool (docs/architecture.md, "Two kinds of goods"): one row per code, key or
-- link, loaded by operators (/codes) in a stock batch, given to at most one order.

-- A secret fits one Telegram message (4096 characters) with the words around it: 1 to 3500.
ALTER TABLE "digital_items" ADD CONSTRAINT "digital_items_secret_check"
    CHECK (char_length("secret") BETWEEN 1 AND 3500);

-- An item is assigned exactly when it names an order. Revoked: a refunded order's item (or one
-- taken out of the pool): never handed out again.
ALTER TABLE "digital_items" ADD CONSTRAINT "digital_items_assignment_check"
    CHECK (("order_id" IS NULL) = ("assigned_at" IS NULL));

-- The same code loaded twice is one item: unique per product. Over a hash of the secret, since a
-- 4096-character text does not fit a btree entry (about 2700 bytes). SHA-256 of the UTF-8 bytes;
-- convert_to is only STABLE (it depends on the database encoding, which never changes for a
-- database), hence the IMMUTABLE wrapper an index expression needs.
CREATE FUNCTION "digital_item_secret_hash"(secret TEXT) RETURNS BYTEA
    LANGUAGE SQL IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT sha256(convert_to(secret, 'UTF8')) $$;
CREATE UNIQUE INDEX "digital_items_product_id_secret_key"
    ON "digital_items" ("product_id", "digital_item_secret_hash"("secret"));

-- The unused items of a product, in the order they are handed out (payment picks them FOR UPDATE
-- SKIP LOCKED from this index).
CREATE INDEX "digital_items_unused_idx" ON "digital_items" ("product_id", "id")
    WHERE "order_id" IS NULL AND "revoked_at" IS NULL;

-- Two orders, one item is impossible: an item has one order_id column, and once set it never
-- changes, never goes back to NULL (so a refunded order's revoked code is never handed out again),
-- and a revocation is never undone, whoever writes (this trigger holds for every writer, not only
-- the application's conditional UPDATE ... WHERE order_id IS NULL). The secret and the product of
-- an item never change either: what an order received stays what it received.
CREATE FUNCTION "digital_items_guard"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.order_id IS NOT NULL AND NEW.order_id IS DISTINCT FROM OLD.order_id THEN
        RAISE EXCEPTION 'digital item % is already assigned to order %', OLD.id, OLD.order_id
            USING ERRCODE = 'check_violation';
    END IF;
    IF OLD.revoked_at IS NOT NULL AND (NEW.revoked_at IS DISTINCT FROM OLD.revoked_at
                                       OR NEW.order_id IS DISTINCT FROM OLD.order_id) THEN
        RAISE EXCEPTION 'digital item % is revoked', OLD.id USING ERRCODE = 'check_violation';
    END IF;
    IF NEW.secret IS DISTINCT FROM OLD.secret OR NEW.product_id IS DISTINCT FROM OLD.product_id THEN
        RAISE EXCEPTION 'digital item % keeps its secret and product', OLD.id
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER "digital_items_guard" BEFORE UPDATE ON "digital_items"
    FOR EACH ROW EXECUTE FUNCTION "digital_items_guard"();
