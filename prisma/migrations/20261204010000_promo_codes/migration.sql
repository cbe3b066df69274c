-- Promo codes with limited uses (docs/architecture.md, Promo codes): a code is good for its first
-- total_uses uses and per_customer uses per customer. A use is taken in the reservation's
-- transaction and given back, once, when that reservation expires or is cancelled.

-- CreateEnum
CREATE TYPE "PromoKind" AS ENUM ('PERCENT', 'FIXED');

-- CreateTable
CREATE TABLE "promo_codes" (
    "id" SERIAL NOT NULL,
    "code" VARCHAR(32) NOT NULL,
    "kind" "PromoKind" NOT NULL,
    "value" INTEGER NOT NULL,
    "currency" VARCHAR(3),
    "min_total_minor" INTEGER NOT NULL DEFAULT 0,
    "starts_at" TIMESTAMP(3),
    "ends_at" TIMESTAMP(3),
    "total_uses" INTEGER NOT NULL,
    "remaining_uses" INTEGER NOT NULL,
    "per_customer" INTEGER NOT NULL DEFAULT 1,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created_by" VARCHAR(64) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "promo_codes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "promo_uses" (
    "id" SERIAL NOT NULL,
    "code_id" INTEGER NOT NULL,
    "user_id" BIGINT NOT NULL,
    "slot" INTEGER NOT NULL,
    "order_id" INTEGER NOT NULL,
    "taken_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "returned_at" TIMESTAMP(3),

    CONSTRAINT "promo_uses_pkey" PRIMARY KEY ("id")
);

-- AlterTable
ALTER TABLE "orders" ADD COLUMN "promo_code_id" INTEGER,
ADD COLUMN "discount_minor" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "carts" ADD COLUMN "promo_code_id" INTEGER;

-- CreateIndex
CREATE UNIQUE INDEX "promo_codes_code_key" ON "promo_codes"("code");
CREATE UNIQUE INDEX "promo_uses_order_id_key" ON "promo_uses"("order_id");
CREATE INDEX "promo_uses_code_id_user_id_idx" ON "promo_uses"("code_id", "user_id");
CREATE INDEX "orders_promo_code_id_idx" ON "orders"("promo_code_id");

-- AddForeignKey
ALTER TABLE "promo_uses" ADD CONSTRAINT "promo_uses_code_id_fkey" FOREIGN KEY ("code_id") REFERENCES "promo_codes"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "promo_uses" ADD CONSTRAINT "promo_uses_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "orders" ADD CONSTRAINT "orders_promo_code_id_fkey" FOREIGN KEY ("promo_code_id") REFERENCES "promo_codes"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "carts" ADD CONSTRAINT "carts_promo_code_id_fkey" FOREIGN KEY ("promo_code_id") REFERENCES "promo_codes"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Codes are stored upper-case (a customer's "sale10" finds "SALE10"), 3-32 characters that read
-- the same in any chat: letters, digits, "-" and "_", starting with a letter or a digit.
ALTER TABLE "promo_codes" ADD CONSTRAINT "promo_codes_code_check" CHECK (code ~ '^[A-Z0-9][A-Z0-9_-]{2,31}$');
-- A percentage is 1-100 and has no currency; a fixed amount is positive minor units of one.
ALTER TABLE "promo_codes" ADD CONSTRAINT "promo_codes_value_check" CHECK (
    (kind = 'PERCENT' AND value BETWEEN 1 AND 100 AND currency IS NULL)
    OR (kind = 'FIXED' AND value > 0 AND currency IS NOT NULL));
ALTER TABLE "promo_codes" ADD CONSTRAINT "promo_codes_min_total_check" CHECK (min_total_minor >= 0);
ALTER TABLE "promo_codes" ADD CONSTRAINT "promo_codes_window_check" CHECK (starts_at IS NULL OR ends_at IS NULL OR starts_at < ends_at);
-- The last line against a code used more than its limit: the conditional decrement that takes a
-- use cannot go below zero, and a use given back cannot raise it above the total.
ALTER TABLE "promo_codes" ADD CONSTRAINT "promo_codes_uses_check" CHECK (total_uses >= 1 AND remaining_uses >= 0 AND remaining_uses <= total_uses);
ALTER TABLE "promo_codes" ADD CONSTRAINT "promo_codes_per_customer_check" CHECK (per_customer >= 1);

-- "Uses per customer" is a unique key, not a count read: a customer's uses of a code are numbered
-- 1..per_customer (the taking statement picks a free slot within that range), and a slot is held
-- once. A use given back frees its slot: only uses not returned take part in the key.
ALTER TABLE "promo_uses" ADD CONSTRAINT "promo_uses_slot_check" CHECK (slot >= 1);
CREATE UNIQUE INDEX "promo_uses_held_slot_key" ON "promo_uses"("code_id", "user_id", "slot") WHERE returned_at IS NULL;

-- An order's discount comes with its code, and never exceeds what it took off.
ALTER TABLE "orders" ADD CONSTRAINT "orders_discount_check" CHECK (discount_minor >= 0 AND (promo_code_id IS NOT NULL OR discount_minor = 0));
