-- Every charge Telegram reports gets a payments row, also when its invoice names no order we know
-- (a staging database sharing the production token, a restored backup): without a row, the
-- refunds job, the refund-age alert and the operators' /refunds never see the money owed.
ALTER TABLE "payments" ALTER COLUMN "order_id" DROP NOT NULL;

-- Who settled a refund and why: `op:<masked id>` for an operator's "refunded by hand",
-- `telegram` for a refund Telegram reported (refunded_payment); NULL for the bot's own
-- refundStarPayment. The note is the operator's, optional.
ALTER TABLE "payments" ADD COLUMN "refunded_by" TEXT;
ALTER TABLE "payments" ADD COLUMN "refund_note" TEXT;

-- A payment without an order can never have paid for one: it is owed back (or given back).
ALTER TABLE "payments" ADD CONSTRAINT "payments_captured_has_order"
    CHECK ("status" <> 'CAPTURED' OR "order_id" IS NOT NULL);
-- An operator's note is a short text, not a document.
ALTER TABLE "payments" ADD CONSTRAINT "payments_refund_note_length"
    CHECK ("refund_note" IS NULL OR char_length("refund_note") <= 500);
