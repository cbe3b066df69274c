-- CreateTable
CREATE TABLE "categories" (
    "id" SERIAL NOT NULL,
    "slug" VARCHAR(32) NOT NULL,
    "title_en" VARCHAR(64) NOT NULL,
    "title_zh" VARCHAR(64) NOT NULL,
    "parent_id" INTEGER,
    "level" SMALLINT NOT NULL DEFAULT 0,
    "parent_level" SMALLINT NOT NULL DEFAULT 0,
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "categories_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "carts" (
    "user_id" BIGINT NOT NULL,
    "revision" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "carts_pkey" PRIMARY KEY ("user_id")
);

-- CreateTable
CREATE TABLE "cart_items" (
    "user_id" BIGINT NOT NULL,
    "product_id" INTEGER NOT NULL,
    "quantity" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "cart_items_pkey" PRIMARY KEY ("user_id","product_id")
);

-- AlterTable
ALTER TABLE "products" ADD COLUMN "category_id" INTEGER;

-- CreateIndex
CREATE UNIQUE INDEX "categories_slug_key" ON "categories"("slug");
CREATE INDEX "categories_parent_id_idx" ON "categories"("parent_id");
CREATE UNIQUE INDEX "categories_id_level_key" ON "categories"("id", "level");
CREATE INDEX "cart_items_product_id_idx" ON "cart_items"("product_id");
CREATE INDEX "products_category_id_idx" ON "products"("category_id");

-- AddForeignKey
ALTER TABLE "products" ADD CONSTRAINT "products_category_id_fkey" FOREIGN KEY ("category_id") REFERENCES "categories"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "cart_items" ADD CONSTRAINT "cart_items_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "carts"("user_id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "cart_items" ADD CONSTRAINT "cart_items_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Categories nest one level at most. A subcategory's (parent_id, parent_level = 0) must name a
-- category whose level is 0, so a subcategory can never be a parent. A top-level category with
-- subcategories cannot become one itself: its level is referenced by them (ON UPDATE RESTRICT),
-- and deleting a category that still has subcategories (or products, above) is refused.
ALTER TABLE "categories" ADD CONSTRAINT "categories_level_check"
    CHECK ((parent_id IS NULL AND level = 0) OR (parent_id IS NOT NULL AND level = 1));
ALTER TABLE "categories" ADD CONSTRAINT "categories_parent_level_check" CHECK (parent_level = 0);
ALTER TABLE "categories" ADD CONSTRAINT "categories_parent_fkey"
    FOREIGN KEY ("parent_id", "parent_level") REFERENCES "categories"("id", "level")
    ON DELETE RESTRICT ON UPDATE RESTRICT;
-- What operators type after /category: short, lowercase, no spaces.
ALTER TABLE "categories" ADD CONSTRAINT "categories_slug_check" CHECK (slug ~ '^[a-z0-9][a-z0-9-]{0,31}$');
ALTER TABLE "categories" ADD CONSTRAINT "categories_title_check"
    CHECK (char_length(btrim(title_en)) > 0 AND char_length(btrim(title_zh)) > 0);

-- A cart line holds at least one unit (removing a line deletes it). The per-line limit is the
-- shop's configuration, checked by the cart service; this bound only keeps arithmetic sane.
ALTER TABLE "cart_items" ADD CONSTRAINT "cart_items_quantity_check" CHECK (quantity > 0 AND quantity <= 10000);

-- Search by title in both languages (/search, or plain text in the private chat): trigram
-- matching from pg_trgm, through one GIN index over both titles. The search's ILIKE and
-- word-similarity conditions use this very expression, so the planner can use the index.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "products_title_trgm_idx" ON "products" USING gin (("title_en" || ' ' || "title_zh") gin_trgm_ops);
