-- Physical goods (docs/architecture.md, "Two kinds of goods"): the buyer chooses a shipping option
-- in Telegram's payment form, after the reservation, so an order's total_minor stays the goods
-- total and the shipping is stored beside it. The payment's amount_minor is goods + shipping.
ALTER TABLE "orders"
  ADD COLUMN "shipping_option_id" VARCHAR(64),
  ADD COLUMN "shipping_minor" INTEGER NOT NULL DEFAULT 0,
  -- successful_payment.order_info as Telegram sent it: name, phone_number, email,
  -- shipping_address. Personal data: shown to operators, never logged.
  ADD COLUMN "order_info" JSONB,
  ADD CONSTRAINT "orders_shipping_minor_check" CHECK ("shipping_minor" >= 0),
  ADD CONSTRAINT "orders_shipping_option_check"
    CHECK ("shipping_option_id" IS NOT NULL OR "shipping_minor" = 0);

-- Who saw a buyer's full phone number, and when (the group shows it masked until an operator
-- presses "Show phone").
CREATE TABLE "order_phone_reveals" (
    "id" SERIAL NOT NULL,
    "order_id" INTEGER NOT NULL,
    "actor" VARCHAR(64) NOT NULL,
    "actor_name" VARCHAR(128),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "order_phone_reveals_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "order_phone_reveals_order_id_idx" ON "order_phone_reveals"("order_id");

ALTER TABLE "order_phone_reveals" ADD CONSTRAINT "order_phone_reveals_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;
