-- Expand: the nonce of an order's live invoice, recorded before the invoice is sent, so that a
-- pre-checkout for any other invoice of the order is declined. NULL: the live invoice's payload is
-- the bare order id (the previous release's format). The previous release never reads it.
ALTER TABLE "order_messages" ADD COLUMN "invoice_nonce" VARCHAR(32);
